//go:build unix

package main

import (
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"maison/demo"
	"maison/internal/camframe"
	"maison/internal/longtest"
)

// attackCallers is how many callers ask at once (4 peak at about 113 MB).
var attackCallers = 24

// The README: "Memory is bounded whatever the mix", pictures within two
// thirds of the 96 MiB soft limit, well within the Kubernetes manifest's
// 256 MiB. The picture budget counts pixels only: every closer look
// (camera_snapshot with a region) fetches the camera's full-resolution
// frame for itself, unshared, and holds it (and its repaired copy) while
// it waits for one of GOMAXPROCS decoding slots and for memory. Twenty-four
// callers asking for a part of the 7000×7000 RGB camera of the worst mix
// (an 11 MB frame) hold 24 of them at once: maison serve's peak resident
// memory passes the pod's 256 MiB, with the picture budget never full.
func TestAttack35ManyCloserLooksStayWithinThePod(t *testing.T) {
	longtest.Only(t)
	bin := filepath.Join(t.TempDir(), "maison")
	build := exec.CommandContext(t.Context(), filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "maison/cmd/maison")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	house := demo.New(demo.Options{})
	const id = "camera.rgb_7000"
	if err := house.Add(demo.Entity{ID: id, Name: "RGB 7000", Area: "Worst mix", State: "idle", Exposed: true}); err != nil {
		t.Fatal(err)
	}
	frame := camframe.Baseline(7000, 7000, camframe.LayoutRGB, 3, 1)
	haURL, closeHouse, err := serveHouse(oddFrames{next: house.Handler(), frames: map[string]func() ([]byte, error){id: func() ([]byte, error) { return frame, nil }}})
	if err != nil {
		t.Fatal(err)
	}
	defer closeHouse()
	m, err := startMaison(t.Context(), bin, []string{"serve"}, []string{"MAISON_HA_URL=" + haURL, "MAISON_HA_TOKEN=" + house.UserToken()}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer m.stop()
	regions := []string{"top right", "bottom left", "centre", "left half"}
	p := drive(t.Context(), m, func(r *rand.Rand) call {
		return toolCall("camera_snapshot region", "camera_snapshot", map[string]any{"camera": "RGB 7000", "region": regions[r.IntN(len(regions))]})
	}, attackCallers, 15*time.Second, nil)
	_, peak := m.memory()
	busy, pictures := 0, 0
	for _, o := range p.outcomes {
		switch {
		case strings.Contains(o.words, "busy making other pictures"):
			busy++
		case o.ok():
			pictures++
		}
	}
	t.Logf("%d calls, %d answered, %d busy; peak resident memory %s MB", len(p.outcomes), pictures, busy, mb(peak))
	if peak > 256<<20 {
		t.Errorf("maison serve peaked at %s MB resident under 24 closer looks at once, over the pod's 256 MiB", mb(peak))
	}
}
