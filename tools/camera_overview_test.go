package tools_test

import (
	"strings"
	"testing"
	"time"

	"maison/camera"
)

// Home Assistant gone between the list of cameras (kept a few seconds) and
// the frames: the answer says Home Assistant cannot be reached, not that
// every camera "gave no usable picture just now". The first overview waits
// for every frame, so that none is still on its way (and shown) when Home
// Assistant goes down, however slow the machine (the race detector).
func TestOverviewWithHomeAssistantDown(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{liveTTL: time.Hour, camera: func(c *camera.Config) {
		c.MaxAge = time.Nanosecond
		c.OverviewWait = time.Minute
	}})
	if _, isErr, _ := overview(t, r.cs); isErr {
		t.Fatal("the first overview failed")
	}
	r.house.SetDown(true)
	text, isErr, images := overview(t, r.cs)
	if !isErr || images != 0 || strings.Contains(text, "no usable picture") {
		t.Errorf("with Home Assistant down: error %v, %d images: %q", isErr, images, text)
	}
}
