package camera_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"maison/camera"
	"maison/homeassistant"
	"maison/voice"
)

// A camera that answers 200 with nothing, or with more than maison accepts,
// is told as that, not as a picture that did not come in time.
func TestEmptyAndOversizedPicturesAreToldAsThey(t *testing.T) {
	t.Parallel()
	mib := strconv.Itoa(homeassistant.MaxImageBytes >> 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/jpeg")
		if r.URL.Path == "/api/camera_proxy/camera.huge" {
			chunk := bytes.Repeat([]byte{0xff}, 1<<20)
			for range homeassistant.MaxImageBytes>>20 + 1 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	ha, err := homeassistant.New(homeassistant.Config{URL: srv.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ha.Close() })
	for _, c := range []struct {
		id     string
		is     error
		en, fr []string // words the answer must hold
	}{
		{"camera.empty", homeassistant.ErrEmptyImage,
			[]string{"sent an empty picture", "does not mean", "Try again"},
			[]string{"image vide", "ça ne veut pas dire", "Réessayez"}},
		{"camera.huge", homeassistant.ErrImageTooLarge,
			[]string{"more than I accept", mib + " MiB", "does not mean", "lower"},
			[]string{"plus que ce que j'accepte", mib + " Mio", "ça ne veut pas dire", "baisser"}},
	} {
		_, err := ha.CameraImage(t.Context(), c.id, 0, 0)
		if !errors.Is(err, c.is) {
			t.Fatalf("CameraImage(%s) = %v, want %v", c.id, err, c.is)
		}
		ce := &camera.Error{Camera: camera.Camera{EntityID: c.id, Name: "Porch"}, Err: err}
		for lang, want := range map[voice.Lang][]string{voice.English: c.en, voice.French: c.fr} {
			said := ce.Say(lang)
			if strings.Contains(said, "in time") || strings.Contains(said, "à temps") {
				t.Errorf("%s: told as a picture that did not come in time: %q", c.id, said)
			}
			for _, w := range want {
				if !strings.Contains(said, w) {
					t.Errorf("%s: %q does not say %q", c.id, said, w)
				}
			}
			if err := voice.Speakable(said); err != nil {
				t.Errorf("%s: %v", c.id, err)
			}
		}
	}
}

// A camera Home Assistant says is unavailable answers the camera proxy with
// 500 (measured on Home Assistant 2026.11, demo/testdata/realha): it is
// told as unavailable, not as a slow moment that passes in seconds.
func TestAnUnavailableCameraIsToldAsUnavailable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "500: Internal Server Error", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	ha, err := homeassistant.New(homeassistant.Config{URL: srv.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ha.Close() })
	_, err = ha.CameraImage(t.Context(), "camera.attic", 0, 0)
	if !errors.Is(err, homeassistant.KindCameraFailed) {
		t.Fatalf("CameraImage = %v, want KindCameraFailed", err)
	}
	for state, want := range map[string][]string{
		"unavailable": {"is unavailable", "lost touch", "does not mean", "power and network"},
		"idle":        {"in time", "Try again"},
	} {
		ce := &camera.Error{Camera: camera.Camera{EntityID: "camera.attic", Name: "Attic", State: state}, Err: err}
		said := ce.Say(voice.English)
		for _, w := range want {
			if !strings.Contains(said, w) {
				t.Errorf("state %s: %q does not say %q", state, said, w)
			}
		}
		if fr := ce.Say(voice.French); state == "unavailable" && !strings.Contains(fr, "indisponible") {
			t.Errorf("in French: %q", fr)
		}
	}
}
