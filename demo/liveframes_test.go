package demo

import (
	"bytes"
	"testing"
	"time"
)

// With LiveFrames, a camera's frame changes from one minute to the next,
// as a live camera's does; without, it is rendered once.
func TestLiveFramesMoveWithTheClock(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{false, true} {
		clock := time.Date(2026, 11, 29, 19, 5, 10, 0, time.UTC)
		h := New(Options{LiveFrames: live, Now: func() time.Time { return clock }})
		first, _, _ := h.Frame("camera.garage")
		clock = clock.Add(30 * time.Second)
		same, _, _ := h.Frame("camera.garage")
		clock = clock.Add(time.Minute)
		later, clean, _ := h.Frame("camera.garage")
		if !bytes.Equal(first, same) {
			t.Errorf("live %v: the frame changed within the minute", live)
		}
		if changed := !bytes.Equal(first, later); changed != live {
			t.Errorf("live %v: frame changed a minute later = %v", live, changed)
		}
		if len(clean) == 0 || bytes.Equal(clean, later) {
			t.Errorf("live %v: the garage frame lost its defect or its clean twin", live)
		}
	}
}
