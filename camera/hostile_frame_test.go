package camera_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/internal/camframe"
	"maison/jpegfix"
	"maison/voice"
)

// TestFrameWithoutHeightIsNotAPicture: a frame header of height 0 (the
// height left to a DNL segment, which libjpeg and Go do not read) is
// repaired with its data unchecked; the camera path then decoded it to
// nothing and refused its own re-encoded frame as "zero pixels wide",
// a jpegfix refusal that sent it fetching again. It is not a picture.
func TestFrameWithoutHeightIsNotAPicture(t *testing.T) {
	b, err := os.ReadFile("../fixtures/jpeg/base.sub-640x480.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	sof := bytes.Index(b, []byte{0xff, 0xc0})
	b = bytes.Clone(b)
	b[sof+5], b[sof+6] = 0, 0
	_, _, err = camera.Process(b, camera.Limits{})
	var fe jpegfix.FormatError
	if !errors.Is(err, camera.ErrNotImage) || errors.As(err, &fe) {
		t.Errorf("err = %v, want ErrNotImage and no jpegfix refusal", err)
	}
}

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

// TestLargeProgressiveFrameLeftToGoIsRefused: a frame jpegscale does not
// decode (four components) goes to Go's decoder at full size, which keeps
// 256 bytes of coefficients per block of a progressive frame: a 390 KB
// progressive CMYK frame of 7000×7000 cost it 17 s and 1.3 GB. Such a
// frame is refused from its header beyond 8 megapixels; a smaller one is
// still shown.
func TestLargeProgressiveFrameLeftToGoIsRefused(t *testing.T) {
	_, _, err := camera.Process(camframe.ProgressiveBomb(7000, 7000, 4, 4, false), camera.Limits{})
	if !errors.Is(err, camera.ErrNotImage) {
		t.Errorf("err = %v, want ErrNotImage", err)
	}
	fit, _, err := camera.Process(camframe.ProgressiveBomb(640, 480, 4, 4, false), camera.Limits{})
	if err != nil || len(fit.JPEG) == 0 {
		t.Errorf("a small progressive CMYK frame: %v", err)
	}
}
