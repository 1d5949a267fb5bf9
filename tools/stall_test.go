package tools_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"maison/demotest"
)

// A Home Assistant that answers nothing at all while a camera's picture is
// asked for (frozen: the issue measured one stopped with SIGSTOP) is said
// to be slow itself, as every other tool says it, not the camera: Home
// Assistant gives up on a camera by itself after ten seconds and says so,
// and maison waits twelve. A camera Home Assistant says it could not get a
// picture from in time is the camera's trouble.
func TestAFrozenHomeAssistantIsNotASlowCamera(t *testing.T) {
	t.Parallel()
	frozen := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/api/camera_proxy/camera.garage") {
				<-r.Context().Done() // no answer until maison gives up
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	t.Run("Home Assistant frozen", func(t *testing.T) {
		t.Parallel()
		r := demotest.New(t, demotest.Options{Wrap: frozen, LazyFrames: true})
		text, isErr := demotest.CallText(t, r.Session, "camera_snapshot", map[string]any{"camera": "garage"})
		if !isErr || !strings.HasPrefix(text, "Home Assistant is slow to answer") || strings.Contains(text, "camera or the network") {
			t.Errorf("a frozen Home Assistant, for a picture: %q", text)
		}
	})
	t.Run("the camera slow", func(t *testing.T) {
		t.Parallel()
		r := demotest.New(t, demotest.Options{LazyFrames: true})
		r.House.SetCameraStall("camera.front_door", 11*time.Second) // past Home Assistant's own ten seconds: its 500
		text, isErr := demotest.CallText(t, r.Session, "camera_snapshot", map[string]any{"camera": "front door"})
		if !isErr || !strings.Contains(text, "could not get a picture from the “Front Door” camera in time") {
			t.Errorf("a camera Home Assistant could not get a picture from in time: %q", text)
		}
	})
}
