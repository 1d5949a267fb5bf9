package camera_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/camera"
	"maison/camera/picture"
	"maison/homeassistant"
	"maison/internal/camframe"
)

// gatedFrames is one camera whose frames wait for the gate, counted.
type gatedFrames struct {
	manyFrames
	gate  chan struct{}
	calls atomic.Int32
}

func (g *gatedFrames) CameraImage(ctx context.Context, id string, w, h int) (homeassistant.Image, error) {
	g.calls.Add(1)
	<-g.gate
	return g.manyFrames.CameraImage(ctx, id, w, h)
}

// closerRig is a service over src's one camera, the camera, and the
// region a closer look asks for.
func closerRig(t *testing.T, src camera.Source, mem *picture.Memory) (*camera.Service, camera.Camera, camera.Region) {
	t.Helper()
	svc, err := camera.New(camera.Config{Source: src, Allow: []string{"camera.c00"}, Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	cam, err := svc.Find(t.Context(), "camera.c00")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := camera.ParseRegion("top left")
	return svc, cam, r
}

// Closer looks at one camera at the same time share one fetch of its
// full frame, whose bytes are held against the memory budget while they
// are cut from and given back once the last look is done.
func TestCloserLooksAtOnceShareOneFullFrame(t *testing.T) {
	t.Parallel()
	src := &gatedFrames{manyFrames: manyFrames{n: 1, frame: camframe.Frame4K()}, gate: make(chan struct{})}
	mem := picture.NewMemory(picture.DefaultMemory)
	svc, cam, r := closerRig(t, src, mem)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := svc.Closer(t.Context(), cam, r); err != nil {
				t.Error(err)
			}
		})
	}
	time.Sleep(100 * time.Millisecond) // every look is waiting on the one fetch
	close(src.gate)
	wg.Wait()
	if n := src.calls.Load(); n != 1 {
		t.Errorf("%d fetches for 8 closer looks at once, want 1", n)
	}
	// Everything given back: the whole budget can be taken at once.
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	release, err := mem.Hold(ctx, mem.Total())
	if err != nil {
		t.Fatalf("the budget is not whole again after the looks: %v", err)
	}
	release()
}

// slowFirstFrame is one camera whose first frame never comes before the
// caller gives up; every later one comes at once.
type slowFirstFrame struct {
	manyFrames
	calls atomic.Int32
}

func (s *slowFirstFrame) CameraImage(ctx context.Context, id string, w, h int) (homeassistant.Image, error) {
	if s.calls.Add(1) == 1 {
		<-ctx.Done()
		return homeassistant.Image{}, ctx.Err()
	}
	return s.manyFrames.CameraImage(ctx, id, w, h)
}

// A closer look that joins another's fetch is not cut short by the other's
// deadline: when the shared fetch runs out of the first caller's time, the
// later one, with time left, fetches again within its own.
func TestACloserLookJoiningAnotherIsNotCutShortByItsDeadline(t *testing.T) {
	t.Parallel()
	src := &slowFirstFrame{manyFrames: manyFrames{n: 1, frame: camframe.Frame4K()}}
	svc, cam, r := closerRig(t, src, picture.NewMemory(picture.DefaultMemory))
	short, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	first := make(chan error, 1)
	go func() {
		_, err := svc.Closer(short, cam, r)
		first <- err
	}()
	for src.calls.Load() == 0 {
		time.Sleep(5 * time.Millisecond) // the first look's fetch has begun
	}
	long, cancelLong := context.WithTimeout(t.Context(), time.Minute)
	defer cancelLong()
	if _, err := svc.Closer(long, cam, r); err != nil {
		t.Errorf("the later look, with a minute left, failed with the first's deadline: %v", err)
	}
	if err := <-first; err == nil {
		t.Error("the first look, whose fetch never came, succeeded")
	}
	if n := src.calls.Load(); n != 2 {
		t.Errorf("%d fetches, want 2: the shared one, and the later look's own", n)
	}
}
