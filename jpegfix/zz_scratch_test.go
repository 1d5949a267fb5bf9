package jpegfix

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestZZTime(t *testing.T) {
	dir := os.Getenv("ZZ_DIR")
	if dir == "" {
		t.Skip()
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".jpg") {
			continue
		}
		raw, _ := os.ReadFile(dir + "/" + e.Name())
		for _, o := range []Options{{}, {VerifyData: true, StripMetadata: true}} {
			t0 := time.Now()
			_, rep, err := o.Repair(raw)
			_, ferr := ReadFrame(raw)
			cerr := Check(raw)
			fmt.Printf("%-24s %d bytes verify=%v %.0f ms err=%v fixes=%d %v %v\n", e.Name(), len(raw), o.VerifyData, float64(time.Since(t0).Microseconds())/1000, err, len(rep.Fixes), ferr != nil, cerr != nil)
		}
	}
}
