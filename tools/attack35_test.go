package tools_test

import (
	"strings"
	"testing"

	"maison/bridge"
	"maison/camera/picture"
	"maison/demotest"
)

// MAISON_RESULT_BUDGET takes up to 10,000,000 characters. At 6,000,000 the
// overview's canvas alone is admitted for 8 × its byte share (36 MB) and
// more, over the 64 MB picture budget: picture.Overview returns the
// refusal for memory as a plain error, and camera_overview says it as
// words.Unreached, "I could not reach Home Assistant", which is false:
// Home Assistant answered every frame. (The same path says a canvas that
// waited for memory until the deadline, ErrBusy wrapping
// context.DeadlineExceeded, as "Home Assistant is answering slowly".)
func TestAttack35OverviewOutOfMemoryIsNotSaidAsHomeAssistant(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{Bridge: bridge.Config{ResultBudget: 6_000_000}})
	res := demotest.Call(t, r.Session, "camera_overview", map[string]any{})
	text := strings.Join(demotest.Texts(res), " ")
	for _, lie := range []string{"reach Home Assistant", "Home Assistant is answering slowly"} {
		if strings.Contains(text, lie) {
			t.Errorf("camera_overview blames Home Assistant (%q) for maison's own memory: %s", lie, text)
		}
	}
	if len(res.Content) < 2 {
		t.Errorf("no overview picture under a larger result budget: %s", text)
	}
}

// An overview whose picture needs more than maison's whole memory for
// pictures is said as maison's own setting, in words that blame neither
// Home Assistant nor a camera.
func TestOverviewTooLargeForMemoryIsSaidAsMaisons(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{Bridge: bridge.Config{PictureMemory: picture.NewMemory(4 << 20)}})
	res := demotest.Call(t, r.Session, "camera_overview", map[string]any{})
	text := strings.Join(demotest.Texts(res), " ")
	if !strings.Contains(text, "picture of all the cameras") || strings.Contains(text, "Home Assistant is") || strings.Contains(text, "reach Home Assistant") {
		t.Errorf("camera_overview over the memory for pictures said: %s", text)
	}
}
