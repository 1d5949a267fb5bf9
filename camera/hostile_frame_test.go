package camera_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/voice"
)

// failingSecond serves the camera's first frame cut and answers its second
// fetch with a server error, as a camera that drops off after a bad frame.
type failingSecond struct {
	next   http.Handler
	camera string
	share  float64 // of the first frame sent
	mu     sync.Mutex
	n      int
}

func (f *failingSecond) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/camera_proxy/"+f.camera {
		f.next.ServeHTTP(w, r)
		return
	}
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if n > 1 {
		http.Error(w, "camera unavailable", http.StatusInternalServerError)
		return
	}
	rec := httptest.NewRecorder()
	f.next.ServeHTTP(rec, r)
	w.Header().Set("Content-Type", "image/jpeg")
	w.Write(cut(f.share)(n, rec.Body.Bytes()))
}

// TestDamagedOnceThenUnreachableIsNotSaidTwice: when the second fetch of a
// refused frame fails, one damaged frame came, not two; the words said
// "damaged twice in a row".
func TestDamagedOnceThenUnreachableIsNotSaidTwice(t *testing.T) {
	t.Parallel()
	garage := func(t *testing.T, lang voice.Lang, share float64) (*camera.Service, camera.Camera) {
		r := demotest.New(t, demotest.Options{
			Wrap: func(h http.Handler) http.Handler {
				return &failingSecond{next: h, camera: "camera.garage", share: share}
			},
			Bridge: bridge.Config{NoTools: true, Lang: lang, Cameras: []string{"camera.garage"}, Camera: func(c *camera.Config) {
				c.Exposed, c.MaxAge = nil, time.Nanosecond
			}},
		})
		svc := r.Bridge.Cameras
		cam, err := svc.Find(t.Context(), "garage")
		if err != nil {
			t.Fatal(err)
		}
		return svc, cam
	}
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		svc, cam := garage(t, lang, 0.6)
		snap, err := svc.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if snap.Damage == nil {
			t.Fatalf("%s: no damage said for a cut frame", lang)
		}
		said := snap.Damage.Say(lang, "the garage camera")
		for _, twice := range []string{"twice", "deux fois"} {
			if strings.Contains(said, twice) || strings.Contains(strings.Join(snap.Repairs, " "), twice) {
				t.Errorf("%s: %q / %q", lang, said, snap.Repairs)
			}
		}
		if want := map[voice.Lang]string{voice.English: "asking it again failed", voice.French: "la lui redemander n'a pas abouti"}[lang]; !strings.Contains(said, want) {
			t.Errorf("%s: %q does not say %q", lang, said, want)
		}

		// Too little of it to show: the error says so, once too.
		svc, cam = garage(t, lang, 0.2)
		_, err = svc.Snapshot(t.Context(), cam)
		var ce *camera.Error
		if !errors.As(err, &ce) {
			t.Fatalf("%s: err %v, want a camera error", lang, err)
		}
		said = ce.Say(lang)
		if want := map[voice.Lang]string{voice.English: "sent its picture damaged, too little of it came through to show, and asking it again for one failed", voice.French: "a envoyé son image abîmée, trop peu en est arrivé pour la montrer, et lui en redemander une n'a pas abouti"}[lang]; !strings.Contains(said, want) {
			t.Errorf("%s: %q lacks %q", lang, said, want)
		}
		if err := voice.Speakable(said); err != nil {
			t.Error(err)
		}
	}
}
