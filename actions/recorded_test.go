package actions

import (
	"slices"
	"testing"
)

// The resolver gives Home Assistant's own answers, recorded from the real
// one (realhouse/resolve_test.go, MAISON_REALHA_RECORD=1), or refuses: on
// a machine with only Go, every recorded call is resolved again here.
func TestResolverAgreesWithTheRecordedHouse(t *testing.T) {
	t.Parallel()
	rec, err := ReadRecording("testdata/realha/resolve.json")
	if err != nil {
		t.Fatal(err)
	}
	h := BuildHouse(rec.States, rec.Registry, rec.Live)
	agree, refused := 0, 0
	for i, c := range rec.Cases {
		in := IntentOf(c.Tool)
		call, _, err := in.Read(c.Args)
		if err != nil {
			refused++
			continue
		}
		m := h.Match(in, call)
		switch {
		case !m.Sure():
			refused++
		case c.Acts && slices.Equal(m.IDs, c.IDs), !c.Acts && m.Failure != Matched:
			agree++
		default:
			t.Errorf("case %d %s %v: maison reaches %v (%s), Home Assistant %v (acts %v)", i, c.Tool, c.Args, m.IDs, m.Failure, c.IDs, c.Acts)
		}
	}
	if len(rec.Cases) < 1000 || refused*10 > len(rec.Cases) {
		t.Errorf("%d recorded calls, %d refused: the recording proves little", len(rec.Cases), refused)
	}
	t.Logf("%d recorded calls: %d agree, %d refused", len(rec.Cases), agree, refused)
}
