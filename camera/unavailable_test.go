package camera_test

import (
	"strings"
	"testing"

	"maison/camera"
	"maison/homeassistant"
	"maison/voice"
)

// A real Home Assistant answers the camera proxy with 500 for a camera its
// integration has marked unavailable (the demo answered 503). That is not
// a brief hiccup: the camera is said unavailable, as list_cameras and the
// overview say it, not "could not get a picture in time".
func TestUnavailableCameraIsSaidUnavailable(t *testing.T) {
	t.Parallel()
	err := &camera.Error{
		Camera: camera.Camera{EntityID: "camera.attic", Name: "Attic", State: "unavailable"},
		Err:    &homeassistant.Error{Kind: homeassistant.KindCameraFailed, Op: "GET /api/camera_proxy/camera.attic", Status: 500},
	}
	for _, c := range []struct {
		lang      voice.Lang
		want, not string
	}{
		{voice.English, "Home Assistant says the “Attic” camera is unavailable", "in time"},
		{voice.French, "Home Assistant dit que la caméra « Attic » est indisponible", "à temps"},
	} {
		said := err.Say(c.lang)
		if !strings.Contains(said, c.want) || strings.Contains(said, c.not) {
			t.Errorf("said %q, want %q and not %q", said, c.want, c.not)
		}
	}
}
