package camera_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/internal/camframe"
	"maison/voice"
	"maison/words"
)

// closerGarage is failingSecond's garage, for a closer look.
func closerGarage(t *testing.T, lang voice.Lang, share float64) (*camera.Service, camera.Camera) {
	t.Helper()
	r := demotest.New(t, demotest.Options{
		LazyFrames: true, // only the garage is offered: the others are never drawn
		Wrap: func(h http.Handler) http.Handler {
			return &failingSecond{next: h, camera: "camera.garage", share: share}
		},
		Bridge: bridge.Config{NoTools: true, Lang: lang, Cameras: []string{"camera.garage"}, Camera: func(c *camera.Config) {
			c.Exposed, c.MaxAge = nil, time.Nanosecond
		}},
	})
	cam, err := r.Bridge.Cameras.Find(t.Context(), "garage")
	if err != nil {
		t.Fatal(err)
	}
	return r.Bridge.Cameras, cam
}

// A closer look at a frame damaged once, whose second fetch fails, shows
// the part that decodes and does not say "twice".
func TestCloserLookDamagedOnceThenUnreachable(t *testing.T) {
	t.Parallel()
	r, err := camera.ParseRegion("top right")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		svc, cam := closerGarage(t, lang, 0.6)
		snap, err := svc.Closer(t.Context(), cam, r)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if snap.Damage == nil || !snap.Damage.Once {
			t.Fatalf("%s: damage %+v", lang, snap.Damage)
		}
		for _, twice := range []string{"twice", "deux fois"} {
			if strings.Contains(snap.Description, twice) {
				t.Errorf("%s: %q", lang, snap.Description)
			}
		}
		if err := voice.Speakable(snap.Description); err != nil {
			t.Error(err)
		}
		strict(t, "closer, damaged once", snap.Image.JPEG, true)

		svc, cam = closerGarage(t, lang, 0.2)
		_, err = svc.Closer(t.Context(), cam, r)
		var ce *camera.Error
		if !errors.As(err, &ce) {
			t.Fatalf("%s: err %v", lang, err)
		}
		if said := ce.Say(lang); strings.Contains(said, "twice") || strings.Contains(said, "deux fois") {
			t.Errorf("%s: %q", lang, said)
		}
	}
}

// First damaged, then a page that is not a picture: one damaged frame came.
func TestCloserLookDamagedThenNotAPicture(t *testing.T) {
	t.Parallel()
	for _, look := range []string{"closer", "whole"} {
		house, svc, cam := flakyGarage(t, voice.English, func(n int, b []byte) []byte {
			if n == 1 {
				return cut(0.6)(n, b)
			}
			return []byte("<html><body>503 Service Unavailable</body></html>")
		})
		r, _ := camera.ParseRegion("top right")
		if look == "whole" {
			r = camera.Region{}
		}
		snap, err := svc.Closer(t.Context(), cam, r)
		if err != nil {
			t.Errorf("%s: %v", look, err)
			continue
		}
		if n := house.CameraFetches("camera.garage"); n != 2 {
			t.Errorf("%s: %d fetches", look, n)
		}
		t.Logf("%s: %s", look, snap.Description)
		if snap.Damage == nil || strings.Contains(snap.Description, "twice") {
			t.Errorf("%s: damage %+v, %q", look, snap.Damage, snap.Description)
		}
	}
}

// A box region and concurrent closer looks at a frame damaged twice.
func TestCloserLookBoxDamagedTwiceConcurrently(t *testing.T) {
	t.Parallel()
	house, svc, cam := flakyGarage(t, voice.French, cut(0.6))
	r, err := camera.Box(0.5, 0.5, 0.25, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			snap, err := svc.Closer(t.Context(), cam, r)
			if err == nil {
				err = voice.Speakable(snap.Description)
				if snap.Damage == nil {
					err = errors.New("no damage")
				}
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// Closer looks at the same time share the camera's two frames.
	if n := house.CameraFetches("camera.garage"); n < 2 || n > 12 || n%2 != 0 {
		t.Errorf("%d fetches, want two for each fetch the looks shared", n)
	}
}

// A closer look waiting on the camera's second frame holds no decoding
// slot: as many of them as there are slots, stuck on a slow camera (on the
// one second fetch they share), do not keep a closer look at another
// camera from being cut.
func TestCloserLookWaitingOnASecondFetchHoldsNoSlot(t *testing.T) {
	k := runtime.GOMAXPROCS(0)
	release, stuck := make(chan struct{}), make(chan struct{}, k)
	var (
		mu sync.Mutex
		n  int
	)
	r := demotest.New(t, demotest.Options{
		Wrap: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if req.URL.Path != "/api/camera_proxy/camera.garage" {
					h.ServeHTTP(w, req)
					return
				}
				mu.Lock()
				n++
				i := n
				mu.Unlock()
				if i > 1 { // the first fetch is answered, damaged; the second is stuck
					stuck <- struct{}{}
					<-release
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				w.Header().Set("Content-Type", "image/jpeg")
				w.Write(cut(0.6)(i, rec.Body.Bytes()))
			})
		},
		Bridge: bridge.Config{NoTools: true, Cameras: []string{"camera.garage", "camera.backyard"}, Camera: func(c *camera.Config) {
			c.Exposed, c.MaxAge = nil, time.Nanosecond
			c.FetchTimeout = time.Hour // the stuck fetches hold until the test lets them go
		}},
	})
	lookWhileStuck(t, r.Bridge.Cameras, k, 1, stuck, release, nil)
}

// lookWhileStuck starts k closer looks at the garage, waits until stuck
// of them are stuck, and asks for a closer look at the backyard, which must not wait
// for them; release then lets them go. arm is called once both cameras
// are found.
func lookWhileStuck(t *testing.T, svc *camera.Service, k, stucks int, stuck, release chan struct{}, arm func()) {
	t.Helper()
	garage, err := svc.Find(t.Context(), "garage")
	if err != nil {
		t.Fatal(err)
	}
	backyard, err := svc.Find(t.Context(), "backyard")
	if err != nil {
		t.Fatal(err)
	}
	if arm != nil {
		arm()
	}
	region, _ := camera.ParseRegion("top right")
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	for range k {
		wg.Go(func() { svc.Closer(t.Context(), garage, region) })
	}
	for range stucks {
		<-stuck
	}
	// A guard, not a measure: without a free slot this waits until the
	// garage's looks are let go, which the test does only after it; with
	// one it takes a frame's fetch and cut, under a second here, seconds
	// under the race detector on a loaded machine.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := svc.Closer(ctx, backyard, region); err != nil {
		t.Errorf("a closer look at another camera, while %d closer looks at the garage are stuck: %v", k, err)
	}
}

// A frame turned by its Exif orientation (6: stored lying on its side),
// cut off twice: the salvaged picture is upright, and the words name the
// missing side as the person sees it, not as it was stored.
func TestCloserLookDamagedTurnedFrame(t *testing.T) {
	t.Parallel()
	_, svc, cam := flakyGarage(t, voice.English, func(n int, b []byte) []byte {
		turned := append([]byte{0xFF, 0xD8}, camframe.OrientationExif(6, "II")...)
		return cut(0.6)(n, append(turned, b[2:]...))
	})
	r, _ := camera.ParseRegion("top right")
	snap, err := svc.Closer(t.Context(), cam, r)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Damage == nil || snap.Image.Height <= snap.Image.Width {
		t.Fatalf("damage %+v, %d×%d: want an upright, portrait picture", snap.Damage, snap.Image.Width, snap.Image.Height)
	}
	if strings.Contains(snap.Description, "The bottom") || !strings.Contains(snap.Description, "left") {
		t.Errorf("the stored bottom is the upright left:\n%s", snap.Description)
	}
	strict(t, "turned, salvaged", snap.Image.JPEG, true)
}

// The caller going away while the camera's second frame is awaited: the
// closer look ends, with an answer or an error, and fetches no third frame.
// The second frame may still come through whole before the going away is
// noticed (it is damaged too): then the answer says so, as it says a
// second fetch that failed.
func TestCloserLookCancelledDuringSecondFetch(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	house, svc, cam := flakyGarage(t, voice.English, func(n int, b []byte) []byte {
		if n == 2 {
			cancel()
		}
		return cut(0.6)(n, b)
	})
	r, _ := camera.ParseRegion("bottom left")
	snap, err := svc.Closer(ctx, cam, r)
	if err == nil && (snap.Damage == nil || snap.Damage.Once == strings.Contains(snap.Description, "twice in a row")) {
		t.Errorf("damage %+v, %q", snap.Damage, snap.Description)
	}
	if n := house.CameraFetches("camera.garage"); n > 2 {
		t.Errorf("%d fetches", n)
	}
	t.Log(err, snap.Description)
}

// A closer look gathering its words (Home Assistant's related sensors, a
// network call) holds no decoding slot either.
func TestCloserLookDescribingHoldsNoSlot(t *testing.T) {
	k := runtime.GOMAXPROCS(0)
	release, stuck := make(chan struct{}), make(chan struct{}, k)
	var (
		mu    sync.Mutex
		armed bool
		calls int
	)
	r := demotest.New(t, demotest.Options{
		Bridge: bridge.Config{NoTools: true, Cameras: []string{"camera.garage", "camera.backyard"}, Camera: func(c *camera.Config) {
			c.MaxAge = time.Nanosecond
			exposed := c.Exposed
			c.Exposed = func(ctx context.Context) ([]words.Device, error) {
				mu.Lock()
				calls++
				block := armed && calls <= k
				mu.Unlock()
				if block {
					stuck <- struct{}{}
					<-release
				}
				return exposed(ctx)
			}
		}},
	})
	lookWhileStuck(t, r.Bridge.Cameras, k, k, stuck, release, func() {
		mu.Lock()
		armed, calls = true, 0
		mu.Unlock()
	})
}

// Too little decoding twice: a closer look says what the whole picture's
// path says, in both languages.
func TestCloserLookTooDamagedTwiceSaysAsTheWholePicture(t *testing.T) {
	t.Parallel()
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		_, svc, cam := flakyGarage(t, lang, cut(0.2))
		_, whole := svc.Snapshot(t.Context(), cam)
		r, _ := camera.ParseRegion("top right")
		_, closer := svc.Closer(t.Context(), cam, r)
		var we, ce *camera.Error
		if !errors.As(whole, &we) || !errors.As(closer, &ce) {
			t.Fatalf("%s: %v / %v", lang, whole, closer)
		}
		if we.Say(lang) != ce.Say(lang) {
			t.Errorf("%s:\nwhole  %q\ncloser %q", lang, we.Say(lang), ce.Say(lang))
		}
		if err := voice.Speakable(ce.Say(lang)); err != nil {
			t.Error(err)
		}
	}
}
