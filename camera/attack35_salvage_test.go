package camera_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"maison/camera"
	"maison/camera/picture"
	"maison/homeassistant"
	"maison/internal/camframe"
	"maison/voice"
)

type manyFrames struct {
	n     int
	frame []byte
}

func (m *manyFrames) id(i int) string { return fmt.Sprintf("camera.c%02d", i) }
func (m *manyFrames) States() []homeassistant.State {
	var out []homeassistant.State
	for i := range m.n {
		out = append(out, homeassistant.State{EntityID: m.id(i), State: "idle", Attributes: map[string]any{"friendly_name": fmt.Sprintf("Cam %02d", i)}})
	}
	return out
}
func (m *manyFrames) State(id string) (homeassistant.State, bool) {
	for _, s := range m.States() {
		if s.EntityID == id {
			return s, true
		}
	}
	return homeassistant.State{}, false
}
func (m *manyFrames) Area(string) string { return "" }
func (m *manyFrames) CameraImage(context.Context, string, int, int) (homeassistant.Image, error) {
	return homeassistant.Image{Bytes: m.frame, ContentType: "image/jpeg", Fetched: time.Now()}, nil
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The picture budget bounds what pictures hold in bytes of pixels. The
// part of a damaged frame that decodes is decoded once and kept, as
// pixels, in the frame cache (picture.Salvage: "only the decode is
// admitted here"), and the cache never drops a camera's last frame, only
// replaces it: every camera sending damaged frames keeps about 3 MB of
// pixels (a 4K frame's part, decoded at 1/2) outside the budget, long
// after its frame is stale. Twenty-four such cameras hold more than the
// whole 64 MB budget, an hour later, while the budget says all is free.
func TestAttack35SalvagedPixelsAreHeldWithinTheBudget(t *testing.T) {
	full := camframe.Frame4K()
	cut := full[:len(full)*7/10] // the camera's frames stop at 70%, every time
	src := &manyFrames{n: 24, frame: cut}
	var allow []string
	for i := range src.n {
		allow = append(allow, src.id(i))
	}
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	mem := picture.NewMemory(picture.DefaultMemory)
	svc, err := camera.New(camera.Config{Source: src, Allow: allow, Memory: mem, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	before := heapNow()
	for i := range src.n {
		cam, err := svc.Find(t.Context(), src.id(i))
		if err != nil {
			t.Fatal(err)
		}
		snap, err := svc.Snapshot(t.Context(), cam)
		if err != nil || snap.Damage == nil {
			t.Fatalf("%s: %v (damage %v), want the part of the damaged frame that decodes", cam.EntityID, err, snap.Damage)
		}
	}
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	held := int64(heapNow()) - int64(before)
	if held > mem.Total() {
		t.Errorf("an hour after %d damaged cameras were shown, %.1f MB stay held, more than the %.0f MB budget for pictures (frame bytes shared: %.1f MB)", src.n, float64(held)/1e6, float64(mem.Total())/1e6, float64(len(cut))/1e6)
	}
	runtime.KeepAlive(svc)
}

// A second caller of a camera whose picture a first caller is waiting for
// memory to make waits on the first caller's turn (once.get) until its
// own deadline, with none of admit's margin: it answers at its deadline,
// not before, and as "not ready in time" (context.DeadlineExceeded)
// rather than busy. The README: a picture that waits for memory "says it
// is busy in words a little before the call's deadline rather than
// answering late".
func TestAttack35ASecondCallerWaitingOnTheFirstSaysBusyBeforeItsDeadline(t *testing.T) {
	mem := picture.NewMemory(picture.DefaultMemory)
	// Other pictures keep most of the memory taken: six callers fitting
	// a 2000×2000 progressive frame (38 MB each) one after another.
	bomb := camframe.ProgressiveBomb(2000, 2000, 3, 1000, false)
	held, err := func() (picture.Frame, error) { f, _, err := picture.Repair(bomb); return f, err }()
	if err != nil {
		t.Fatal(err)
	}
	busyCtx, stop := context.WithTimeout(t.Context(), 6*time.Second)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for busyCtx.Err() == nil {
				held.Fit(busyCtx, picture.Limits{Memory: mem})
			}
		})
	}
	defer func() { stop(); wg.Wait() }()
	time.Sleep(100 * time.Millisecond)
	svc, err := camera.New(camera.Config{Source: &manyFrames{n: 1, frame: camframe.Frame4K()}, Allow: []string{"camera.c00"}, Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	cam, err := svc.Find(t.Context(), "camera.c00")
	if err != nil {
		t.Fatal(err)
	}
	first, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	go svc.Snapshot(first, cam)
	time.Sleep(50 * time.Millisecond) // the first caller is waiting for memory
	ctx, cancel2 := context.WithTimeout(t.Context(), 600*time.Millisecond)
	defer cancel2()
	deadline, _ := ctx.Deadline()
	_, err = svc.Snapshot(ctx, cam)
	late := time.Since(deadline)
	if err == nil {
		t.Skip("the first caller's picture was made in time: nothing to judge")
	}
	var ce *camera.Error
	said := ""
	if errors.As(err, &ce) {
		said = ce.Say(voice.English)
	}
	if !errors.Is(err, picture.ErrBusy) || late >= 0 {
		t.Errorf("the second caller answered %v after its deadline: %v\nsaid: %s", late.Round(time.Millisecond), err, said)
	}
}
