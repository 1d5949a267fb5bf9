//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"maison/demo"
	"maison/internal/camframe"
)

// oddCamera is a camera of the worst mix: what its frames are.
type oddCamera struct {
	id, name string
	frame    func() ([]byte, error)
}

// oddCameras are the largest and oddest frames a camera may send, each
// made once when the run starts: a 7000×7000 RGB frame without colour
// transform (about 11 MB), a 7000×7000 progressive CMYK frame built to
// cost every scan a pass over all its blocks, an 8192×8192 progressive
// frame (67 megapixels, refused from its header), a 4000×3000 Adobe CMYK
// frame, a 12-bit frame (refused from its header) and a 50-megapixel
// baseline frame (about 14 MB), beside the demo house's own 4K, 1080p and
// damaged 720p cameras.
func oddCameras(fixtures string) []oddCamera {
	fixed := func(f func() []byte) func() ([]byte, error) {
		var once sync.Once
		var b []byte
		return func() ([]byte, error) { once.Do(func() { b = f() }); return b, nil }
	}
	return []oddCamera{
		{"camera.rgb_7000", "RGB 7000", fixed(func() []byte { return camframe.Baseline(7000, 7000, camframe.LayoutRGB, 3, 1) })},
		{"camera.cmyk_progressive_7000", "CMYK Progressive 7000", fixed(func() []byte { return camframe.ProgressiveBomb(7000, 7000, 4, 4, false) })},
		{"camera.progressive_8192", "Progressive 8192", fixed(func() []byte { return camframe.ProgressiveBomb(8192, 8192, 3, 2, false) })},
		{"camera.cmyk_4000", "CMYK 4000", fixed(func() []byte { return camframe.Baseline(4000, 3000, camframe.LayoutCMYK, 3, 2) })},
		{"camera.twelve_bit", "Twelve Bit", func() ([]byte, error) { return os.ReadFile(filepath.Join(fixtures, "third.twelve-bit.jpeg")) }},
		{"camera.baseline_50mp", "Baseline 50MP", fixed(func() []byte { return camframe.Baseline(8660, 5773, camframe.LayoutYCbCr420, 1, 3) })},
	}
}

// oddFrames serves the odd cameras' frames on the camera proxy, in place
// of the demo house's drawings of them, as Home Assistant's local_file
// camera would (whatever size is asked for).
type oddFrames struct {
	next   http.Handler
	frames map[string]func() ([]byte, error)
}

func (o oddFrames) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/api/camera_proxy/")
	frame := o.frames[id]
	if !ok || frame == nil {
		o.next.ServeHTTP(w, r)
		return
	}
	// Authorised as the house authorises it: ask the house for its own
	// frame first and answer as it did if it refuses.
	rec := &statusOnly{header: http.Header{}}
	o.next.ServeHTTP(rec, r)
	if rec.status != http.StatusOK {
		w.WriteHeader(rec.status)
		return
	}
	b, err := frame()
	if err != nil {
		http.Error(w, "500: Internal Server Error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Write(b)
}

// statusOnly keeps a response's status and drops its body.
type statusOnly struct {
	header http.Header
	status int
}

func (s *statusOnly) Header() http.Header { return s.header }
func (s *statusOnly) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return len(b), nil
}
func (s *statusOnly) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}

// promise is how long a picture tool promises to answer within (README:
// every call within 20 s, describe_camera within the voice budget).
func promise(label string) time.Duration {
	if label == "describe_camera" {
		return 4500 * time.Millisecond
	}
	return 20 * time.Second
}

// worstCalls picks among every picture tool: a whole picture, a part of
// one, every camera at once, a spoken description.
func worstCalls(cams []string) mix {
	regions := []string{"top right", "bottom left", "centre", "left half"}
	return func(r *rand.Rand) call {
		cam := cams[r.IntN(len(cams))]
		switch n := r.IntN(100); {
		case n < 35:
			return callSnapshot(cam)
		case n < 65:
			return toolCall("camera_snapshot region", "camera_snapshot", map[string]any{"camera": cam, "region": regions[r.IntN(len(regions))]})
		case n < 80:
			return toolCall("camera_overview", "camera_overview", map[string]any{})
		default:
			return callDescribe(cam)
		}
	}
}

// worstResult is what a worst-mix run measured.
type worstResult struct {
	peakRSS int64
	late    []string // calls that answered after their promise without saying they were busy
	lost    []string // calls answered with no words
}

// runWorstMix drives maison serve, against a demo house whose added
// cameras send the worst frames, with every picture tool from o.clients
// callers at once for o.duration, and reports maison's peak resident
// memory and each tool's times. It fails when the peak passes o.maxRSS,
// or when a call got no answer in words; the calls that answered late
// without saying they were busy are in the result (lateErr).
func runWorstMix(ctx context.Context, o options, out io.Writer) (res worstResult, err error) {
	house := demo.New(demo.Options{LiveFrames: true})
	frames := map[string]func() ([]byte, error){}
	cams := slices.Clone(demoCameras)
	for _, c := range oddCameras(o.fixtures) {
		if err := house.Add(demo.Entity{ID: c.id, Name: c.name, Area: "Worst mix", State: "idle", Exposed: true}); err != nil {
			return res, err
		}
		frames[c.id] = c.frame
		cams = append(cams, c.name)
		if _, err := c.frame(); err != nil {
			return res, fmt.Errorf("the %s frame: %w", c.name, err)
		}
	}
	haURL, closeHouse, err := serveHouse(oddFrames{next: house.Handler(), frames: frames})
	if err != nil {
		return res, err
	}
	defer closeHouse()
	m, err := startMaison(ctx, o.maison, []string{"serve"}, []string{"MAISON_HA_URL=" + haURL, "MAISON_HA_TOKEN=" + house.UserToken()}, o.logs)
	if err != nil {
		return res, err
	}
	defer keepFirst(&err, m.stop)
	_, startPeak := m.memory()
	fmt.Fprintf(out, "worst mix: maison serve, %d callers, %s, cameras: %s\n", o.clients[0], o.duration, strings.Join(cams, ", "))
	p := drive(ctx, m, worstCalls(cams), o.clients[0], o.duration, nil)
	_, res.peakRSS = m.memory()
	byTool := map[string][]outcome{}
	for _, oc := range p.outcomes {
		byTool[oc.label] = append(byTool[oc.label], oc)
		busy := strings.Contains(oc.words, "busy making other pictures")
		switch {
		case oc.kind == "lost" || oc.kind == "http error":
			res.lost = append(res.lost, oc.label+": "+clipWords(oc.words))
		case oc.latency > promise(oc.label)+time.Second && !busy:
			res.late = append(res.late, fmt.Sprintf("%s after %s: %s", oc.label, oc.latency.Round(time.Millisecond), clipWords(oc.words)))
		}
	}
	fmt.Fprintf(out, "| tool | calls | pictures or words | busy | p50 ms | p99 ms | max ms | promised |\n|---|---|---|---|---|---|---|---|\n")
	for _, l := range slices.Sorted(maps.Keys(byTool)) {
		ocs := byTool[l]
		var lat []time.Duration
		busy := 0
		for _, oc := range ocs {
			lat = append(lat, oc.latency)
			if strings.Contains(oc.words, "busy making other pictures") {
				busy++
			}
		}
		slices.Sort(lat)
		fmt.Fprintf(out, "| %s | %d | %d | %d | %s | %s | %s | %s |\n", l, len(ocs), len(ocs)-busy, busy, ms(lat[len(lat)/2]), ms(lat[min(len(lat)-1, len(lat)*99/100)]), ms(lat[len(lat)-1]), promise(l))
	}
	fmt.Fprintf(out, "peak resident memory (VmHWM): %s MB (%s MB once started)\n", mb(res.peakRSS), mb(startPeak))
	if o.maxRSS > 0 && res.peakRSS > o.maxRSS {
		return res, fmt.Errorf("maison's peak resident memory %s MB passed %s MB", mb(res.peakRSS), mb(o.maxRSS))
	}
	if len(res.lost) > 0 {
		return res, fmt.Errorf("%d calls got no answer in words, the first: %s", len(res.lost), res.lost[0])
	}
	return res, nil
}

// lateErr says the calls of a run that answered after their promised time
// without saying they were busy: what the hand-run worst mix fails on
// (its test, which shares the machine with other tests, judges memory
// alone).
func (r worstResult) lateErr() error {
	if len(r.late) == 0 {
		return nil
	}
	return fmt.Errorf("%d calls answered after their promised time without saying they were busy, the first: %s", len(r.late), r.late[0])
}
