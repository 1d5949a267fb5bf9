package jpegfix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLandingsInOneLongFillRun: a comment whose length lies, followed by
// thousands of candidate segments whose ends all land in one long run of
// 0xFF, made every candidate step over the run again: 4 MB took over a
// minute and a half. The run is stepped over once, whatever lands in it.
func TestLandingsInOneLongFillRun(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", "base.sub-640x480.jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	const k, run = 2000, 200_000
	var b bytes.Buffer
	b.Write(base[:2])
	b.Write([]byte{0xff, 0xfe, 0, 6}) // a comment announcing 4 bytes it does not hold
	for i := range k {
		// Each candidate's end lands somewhere in the run.
		l := (k-i)*4 - 2 + i*37%50_000
		b.Write([]byte{0xff, 0xe1, byte(l >> 8), byte(l)})
	}
	b.Write(bytes.Repeat([]byte{0xff}, run))
	b.WriteByte(0)
	b.Write(base[2:])
	in := b.Bytes()
	r := repairer{src: in}
	if err := r.run(); err != nil {
		t.Fatalf("the frame after the damage is lost: %v", err)
	}
	if r.stepped > 4*len(in) {
		t.Errorf("stepped over %d bytes of fill one at a time for an input of %d", r.stepped, len(in))
	}
}
