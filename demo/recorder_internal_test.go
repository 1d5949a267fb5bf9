package demo

import (
	"fmt"
	"testing"
	"time"
)

// The recorder keeps changes only, whatever order states are put in: a
// state inserted just before the same state leaves one change, as Home
// Assistant's recorder would have (branch attack-13).
func TestRecorderKeepsChangesOnly(t *testing.T) {
	t.Parallel()
	h := &House{}
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h.recordLocked("light.a", "off", t0)
	h.recordLocked("light.a", "on", t0.Add(3*time.Hour))
	h.recordLocked("light.a", "on", t0.Add(2*time.Hour)) // earlier, same state as the next
	h.recordLocked("light.a", "off", t0.Add(4*time.Hour))
	var got []string
	for _, r := range h.recorder["light.a"] {
		got = append(got, r.state+"@"+r.at.Format("15"))
	}
	if want := "[off@12 on@14 off@16]"; fmt.Sprint(got) != want {
		t.Errorf("recorded %v, want %s", got, want)
	}
}
