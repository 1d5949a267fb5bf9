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

// cmykProgressive builds a progressive CMYK frame of w×h pixels, every
// block flat: its DC scan costs a bit a block, and one AC scan of
// end-of-band runs covers each component in a few hundred bytes.
func cmykProgressive(w, h int) []byte {
	seg := func(code byte, payload ...byte) []byte {
		return append([]byte{0xff, code, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}, payload...)
	}
	bits := func(s string) []byte {
		for len(s)%8 != 0 {
			s += "1"
		}
		var out []byte
		for i := 0; i < len(s); i += 8 {
			var c byte
			for _, b := range s[i : i+8] {
				c = c<<1 | byte(b-'0')
			}
			out = append(out, c)
			if c == 0xff {
				out = append(out, 0)
			}
		}
		return out
	}
	blocks := (w + 7) / 8 * ((h + 7) / 8)
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	b.Write(seg(0xee, []byte("Adobe\x00\x64\x00\x00\x00\x00\x00")...))
	b.Write(seg(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 4}
	dc := []byte{4}
	for i := range 4 {
		sof = append(sof, byte(i+1), 0x11, 0)
		dc = append(dc, byte(i+1), 0)
	}
	b.Write(seg(0xc2, sof...))
	b.Write(seg(0xc4, append([]byte{0x00, 1}, append(make([]byte, 15), 0x00)...)...))
	b.Write(seg(0xc4, append([]byte{0x10, 1}, append(make([]byte, 15), 0xe0)...)...))
	b.Write(seg(0xda, append(dc, 0, 0, 0)...))
	b.Write(bits(strings.Repeat("0", 4*blocks)))
	for i := range 4 {
		b.Write(seg(0xda, 1, byte(i+1), 0x00, 1, 63, 0))
		b.Write(bits(strings.Repeat("011111111111111", (blocks+32766)/32767)))
	}
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// TestLargeProgressiveFrameLeftToGoIsRefused: a frame jpegscale does not
// decode (four components) goes to Go's decoder at full size, which keeps
// 256 bytes of coefficients per block of a progressive frame: a 390 KB
// progressive CMYK frame of 7000×7000 cost it 17 s and 1.3 GB. Such a
// frame is refused from its header beyond 8 megapixels; a smaller one is
// still shown.
func TestLargeProgressiveFrameLeftToGoIsRefused(t *testing.T) {
	_, _, err := camera.Process(cmykProgressive(7000, 7000), camera.Limits{})
	if !errors.Is(err, camera.ErrNotImage) {
		t.Errorf("err = %v, want ErrNotImage", err)
	}
	fit, _, err := camera.Process(cmykProgressive(640, 480), camera.Limits{})
	if err != nil || len(fit.JPEG) == 0 {
		t.Errorf("a small progressive CMYK frame: %v", err)
	}
}
