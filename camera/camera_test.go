package camera_test

import (
	"bytes"
	"errors"
	"image/jpeg"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
	"maison/demo"
	"maison/demotest"
	"maison/homeassistant"
	"maison/voice"
)

// sharedHouse is one demo house for the package's tests: none changes it,
// and rendering its frames (a 4K one among them) once keeps the tests light.
// It lives as long as the test binary.
var sharedHouse = sync.OnceValue(func() *demotest.House { return demotest.StartHouse(demotest.Options{}) })

// client connects a new Home Assistant client to the shared demo house, over
// the same wire as to a real Home Assistant.
func client(tb testing.TB) (*demo.House, *homeassistant.Client) {
	tb.Helper()
	r := sharedHouse().Rig(tb, demotest.Options{Bridge: bridge.Config{NoTools: true}})
	return r.House, r.Bridge.HA
}

// setup returns the demo house and a new camera service talking to it, as
// maison builds it, offering allow when it is not empty.
func setup(t testing.TB, allow ...string) (*demo.House, *camera.Service) {
	t.Helper()
	r := sharedHouse().Rig(t, demotest.Options{Bridge: bridge.Config{NoTools: true, Cameras: allow}})
	return r.House, r.Bridge.Cameras
}

func TestListShowsOnlyExposedCameras(t *testing.T) {
	t.Parallel()
	_, svc := setup(t)
	cams, err := svc.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cams {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, ","), "Backyard,Front Door,Garage,Porch"; got != want {
		t.Errorf("cameras %s, want %s (never the unexposed Shed)", got, want)
	}
	if cams[2].Area != "Garage" || cams[2].EntityID != "camera.garage" {
		t.Errorf("garage camera: %+v", cams[2])
	}
}

func TestAllowListOverridesExposure(t *testing.T) {
	t.Parallel()
	_, svc := setup(t, "camera.garage")
	cams, err := svc.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(cams) != 1 || cams[0].EntityID != "camera.garage" {
		t.Errorf("MAISON_CAMERAS=camera.garage lists %+v", cams)
	}
}

func TestFindForgivesHowPeopleSayIt(t *testing.T) {
	t.Parallel()
	_, svc := setup(t)
	for query, want := range map[string]string{
		"garage": "camera.garage", "the garage camera": "camera.garage", "caméra du garage": "camera.garage",
		"Front Door": "camera.front_door", "front-door cam": "camera.front_door", "camera.backyard": "camera.backyard",
		"bakyard": "camera.backyard", "PORCH": "camera.porch",
	} {
		cam, err := svc.Find(t.Context(), query)
		if err != nil || cam.EntityID != want {
			t.Errorf("Find(%q) = %s, %v; want %s", query, cam.EntityID, err, want)
		}
	}
	_, err := svc.Find(t.Context(), "shed")
	var nf *camera.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Find(shed) = %v, want NotFoundError", err)
	}
	said := nf.Say(voice.English)
	if strings.Contains(strings.ToLower(strings.ReplaceAll(said, "“shed”", "")), "shed") || !strings.Contains(said, "the “Garage” camera") {
		t.Errorf("not-found answer should list the visible cameras and nothing else: %q", said)
	}
	if err := voice.Speakable(said); err != nil {
		t.Errorf("not speakable: %v", err)
	}
}

func TestGarageFrameRepairedLosslessly(t *testing.T) {
	t.Parallel()
	house, svc := setup(t)
	cam, err := svc.Find(t.Context(), "garage")
	if err != nil {
		t.Fatal(err)
	}
	snap, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		t.Fatal(err)
	}
	served, clean, ok := house.Frame("camera.garage")
	if !ok {
		t.Fatal("demo has no garage frame")
	}
	if snap.Image.Reencoded {
		t.Errorf("the 1280x720 garage frame fits and must not be re-encoded")
	}
	if !bytes.Equal(snap.Image.JPEG, clean) {
		t.Errorf("repaired garage frame (%d bytes) differs from the clean frame (%d bytes)", len(snap.Image.JPEG), len(clean))
	}
	if len(snap.Repairs) == 0 {
		t.Errorf("no repair reported for the garage frame")
	}
	strict(t, "served", snap.Image.JPEG, true)
	strict(t, "raw camera bytes", served, false)
}

// strict checks data with djpeg -strict and jpeginfo -c; wantOK says whether they should accept it.
func strict(t *testing.T, what string, data []byte, wantOK bool) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "*.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	f.Close()
	for _, argv := range [][]string{{"djpeg", "-strict", "-outfile", os.DevNull, f.Name()}, {"jpeginfo", "-c", f.Name()}} {
		if _, err := exec.LookPath(argv[0]); err != nil {
			t.Skipf("camera: %s not found; install libjpeg-turbo-progs and jpeginfo", argv[0])
		}
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if ok := err == nil && !bytes.Contains(out, []byte("WARNING")) && !bytes.Contains(out, []byte("ERROR")); ok != wantOK {
			t.Errorf("%s: %s accepted=%v, want %v: %s", what, argv[0], ok, wantOK, out)
		}
	}
}

func TestEveryCameraFitsTheBudget(t *testing.T) {
	t.Parallel()
	_, svc := setup(t)
	cams, err := svc.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, cam := range cams {
		snap, err := svc.Snapshot(t.Context(), cam)
		if cam.EntityID == "camera.porch" {
			var ce *camera.Error
			if !errors.As(err, &ce) || !strings.Contains(ce.Say(voice.English), "turned off") {
				t.Errorf("porch (off): %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", cam.EntityID, err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(snap.Image.JPEG))
		if err != nil {
			t.Fatalf("%s: %v", cam.EntityID, err)
		}
		b64 := (len(snap.Image.JPEG) + 2) / 3 * 4
		if max(cfg.Width, cfg.Height) > 1568 || cfg.Width*cfg.Height > 1_150_000 || b64+len(snap.Description) > 1<<20 {
			t.Errorf("%s: %dx%d, %d bytes base64: over budget", cam.EntityID, cfg.Width, cfg.Height, b64)
		}
		if cfg.Width != snap.Image.Width || cfg.Height != snap.Image.Height {
			t.Errorf("%s: reported %dx%d, real %dx%d", cam.EntityID, snap.Image.Width, snap.Image.Height, cfg.Width, cfg.Height)
		}
		if err := voice.Speakable(snap.Description); err != nil {
			t.Errorf("%s: description not speakable: %v: %q", cam.EntityID, err, snap.Description)
		}
		strict(t, cam.EntityID, snap.Image.JPEG, true)
	}
}

func TestConcurrentSnapshotsShareOneFetch(t *testing.T) {
	house, svc := setup(t)
	cam, err := svc.Find(t.Context(), "backyard")
	if err != nil {
		t.Fatal(err)
	}
	before := house.CameraFetches("camera.backyard")
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			if _, err := svc.Snapshot(t.Context(), cam); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := house.CameraFetches("camera.backyard") - before; n != 1 {
		t.Errorf("50 simultaneous snapshots caused %d fetches from Home Assistant, want 1", n)
	}
}

func TestDescriptionSaysFactsAround(t *testing.T) {
	t.Parallel()
	_, svc := setup(t)
	cam, err := svc.Find(t.Context(), "backyard")
	if err != nil {
		t.Fatal(err)
	}
	snap, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"“Backyard” camera", "just now", "“Backyard Motion” last detected movement ", "I have not looked"} {
		if !strings.Contains(snap.Description, want) {
			t.Errorf("description lacks %q: %q", want, snap.Description)
		}
	}
}

// Once a camera is known to be much larger than needed, Home Assistant is
// asked for a pre-scaled frame (it scales in 1/8 steps), which is then fitted
// exactly; FullFrames keeps asking for the whole frame.
func TestLargeCamerasArePrescaledByHomeAssistant(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		_, ha := client(t)
		svc, err := camera.New(camera.Config{Source: ha, Allow: []string{"camera.backyard"}, MaxAge: time.Nanosecond, FullFrames: full})
		if err != nil {
			t.Fatal(err)
		}
		cam, _ := svc.Find(t.Context(), "backyard")
		first, err := svc.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatal(err)
		}
		second, err := svc.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatal(err)
		}
		wantSecond := 1440 // 3/8 of 3840: the smallest step covering 1429x804
		if full {
			wantSecond = 3840
		}
		if first.Image.SourceWidth != 3840 || second.Image.SourceWidth != wantSecond {
			t.Errorf("FullFrames %v: fetched %d then %d pixels wide, want 3840 then %d", full, first.Image.SourceWidth, second.Image.SourceWidth, wantSecond)
		}
		if second.Image.Width != 1429 || second.Image.Height != 804 {
			t.Errorf("FullFrames %v: fitted to %dx%d", full, second.Image.Width, second.Image.Height)
		}
	}
}

// A camera that keeps sending the very same bytes is said to be maybe frozen.
func TestFrozenCameraIsSaid(t *testing.T) {
	t.Parallel()
	_, ha := client(t)
	clock := time.Now()
	svc, err := camera.New(camera.Config{Source: ha, Allow: []string{"camera.garage"}, MaxAge: time.Nanosecond, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	cam, _ := svc.Find(t.Context(), "garage")
	first, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(first.Description, "frozen") {
		t.Errorf("a first frame cannot be frozen: %q", first.Description)
	}
	// The demo's frames never change: five minutes on, the same bytes.
	clock = clock.Add(5 * time.Minute)
	again, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again.Description, "The camera has been sending exactly the same picture for five minutes, so it may be frozen") {
		t.Errorf("a frame unchanged for five minutes: %q", again.Description)
	}
}
