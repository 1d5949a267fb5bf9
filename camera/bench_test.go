package camera_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/assist"
	"maison/camera"
)

// BenchmarkSnapshotCold fetches, repairs and fits a fresh frame every time
// (no reuse), against the demo house over loopback HTTP: with Home Assistant
// asked for pre-scaled frames of large cameras (the default), and with full
// frames.
func BenchmarkSnapshotCold(b *testing.B) {
	for _, full := range []bool{false, true} {
		name := "prescaled"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) { benchmarkSnapshotCold(b, full) })
	}
}

func benchmarkSnapshotCold(b *testing.B, full bool) {
	_, ha := client(b)
	live := assist.NewLive(ha, ha, 0)
	svc, err := camera.New(camera.Config{Source: ha, Exposed: live.Devices, MaxAge: time.Nanosecond, FullFrames: full})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"garage", "front door", "backyard"} {
		cam, err := svc.Find(b.Context(), name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Snapshot(b.Context(), cam); err != nil { // the demo renders its frame once
			b.Fatal(err)
		}
		b.Run(cam.EntityID, func(b *testing.B) {
			for b.Loop() {
				if _, err := svc.Snapshot(b.Context(), cam); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOverview draws the demo house's four exposed cameras (4K, 1080p,
// 720p with a broken frame, and one off) in one picture: cold, every frame
// fetched, repaired and fitted afresh; warm, the frames of the last three
// seconds reused (here, for the whole run), so only the tiles, the labels
// and the encoding are paid.
// A cold snapshot of the 4K backyard alone is the anchor of the same run.
func BenchmarkOverview(b *testing.B) {
	_, ha := client(b)
	live := assist.NewLive(ha, ha, 0)
	for _, c := range []struct {
		name   string
		maxAge time.Duration
	}{{"cold", time.Nanosecond}, {"warm", time.Hour}} {
		svc, err := camera.New(camera.Config{Source: ha, Exposed: live.Devices, MaxAge: c.maxAge})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Overview(b.Context()); err != nil { // the demo renders its frames once
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				ov, err := svc.Overview(b.Context())
				if err != nil || len(ov.Tiles) != 4 {
					b.Fatal(err, len(ov.Tiles))
				}
			}
		})
	}
	svc, err := camera.New(camera.Config{Source: ha, Exposed: live.Devices, MaxAge: time.Nanosecond})
	if err != nil {
		b.Fatal(err)
	}
	cam, err := svc.Find(b.Context(), "backyard")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("anchor_snapshot_backyard_cold", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.Snapshot(b.Context(), cam); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCloser shows the top right quarter of the 4K backyard (its
// full-resolution frame fetched, repaired, the quarter cut in the decoder
// and fitted) against a cold snapshot of the whole frame (pre-scaled by
// Home Assistant, the default) in the same run.
func BenchmarkCloser(b *testing.B) {
	_, ha := client(b)
	live := assist.NewLive(ha, ha, 0)
	svc, err := camera.New(camera.Config{Source: ha, Exposed: live.Devices, MaxAge: time.Nanosecond})
	if err != nil {
		b.Fatal(err)
	}
	cam, err := svc.Find(b.Context(), "backyard")
	if err != nil {
		b.Fatal(err)
	}
	quarter, err := camera.ParseRegion("top right")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Snapshot(b.Context(), cam); err != nil { // sizes known, frames rendered
		b.Fatal(err)
	}
	b.Run("region_top_right", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.Closer(b.Context(), cam, quarter); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("anchor_whole_cold", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.Snapshot(b.Context(), cam); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCloserAtOnce asks for the centre of the 4K backyard sixteen
// times at once, as a client firing region requests in parallel would, and
// reports the peak heap seen while they run (sampled every 10 ms): the
// full-resolution decodes a part needs are bounded by the processors, not
// by the callers. One such call alone is the anchor of the same run.
func BenchmarkCloserAtOnce(b *testing.B) {
	house, svc := setup(b)
	cam, err := svc.Find(b.Context(), "backyard")
	if err != nil {
		b.Fatal(err)
	}
	r := must(camera.ParseRegion("centre"))
	house.Frame(cam.EntityID) // the demo renders its frame once
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("callers=%d", n), func(b *testing.B) {
			var peak atomic.Uint64
			done := make(chan struct{})
			go func() {
				var m runtime.MemStats
				for {
					select {
					case <-done:
						return
					case <-time.After(10 * time.Millisecond):
						runtime.ReadMemStats(&m)
						if m.HeapInuse > peak.Load() {
							peak.Store(m.HeapInuse)
						}
					}
				}
			}()
			for b.Loop() {
				var wg sync.WaitGroup
				for range n {
					wg.Go(func() {
						if _, err := svc.Closer(b.Context(), cam, r); err != nil {
							b.Error(err)
						}
					})
				}
				wg.Wait()
			}
			close(done)
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
		})
	}
}
