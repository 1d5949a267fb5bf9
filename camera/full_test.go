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

// Closer looks at one camera at the same time share one fetch of its
// full frame, whose bytes are held against the memory budget while they
// are cut from and given back once the last look is done.
func TestCloserLooksAtOnceShareOneFullFrame(t *testing.T) {
	t.Parallel()
	src := &gatedFrames{manyFrames: manyFrames{n: 1, frame: camframe.Frame4K()}, gate: make(chan struct{})}
	mem := picture.NewMemory(picture.DefaultMemory)
	svc, err := camera.New(camera.Config{Source: src, Allow: []string{"camera.c00"}, Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	cam, err := svc.Find(t.Context(), "camera.c00")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := camera.ParseRegion("top left")
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
