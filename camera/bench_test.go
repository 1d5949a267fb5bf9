package camera_test

import (
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
	svc, err := camera.New(camera.Config{Source: ha, Exposed: live.Entities, MaxAge: time.Nanosecond, FullFrames: full})
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
