package tools_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/homeassistant"
	"maison/internal/testkit"
	"maison/tools"
	"maison/voice"
)

// withFrames serves chosen frames for some cameras and Home Assistant's
// for the rest.
type withFrames struct {
	*homeassistant.Client
	frames map[string][]byte
}

func (w withFrames) CameraImage(ctx context.Context, id string, width, height int) (homeassistant.Image, error) {
	if b, ok := w.frames[id]; ok {
		return homeassistant.Image{Bytes: b, ContentType: "image/jpeg", Fetched: time.Now()}, nil
	}
	return w.Client.CameraImage(ctx, id, width, height)
}

var (
	framesOnce         sync.Once
	noisy4K, pureNoise []byte
)

// testFrames renders, once, a noisy 4K frame full of detail (fine lines,
// small text-like marks, sensor noise), as a night camera at high gain
// sends, and a frame of pure noise, the worst case there is.
func testFrames(t testing.TB) ([]byte, []byte) {
	framesOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 2))
		img := image.NewRGBA(image.Rect(0, 0, 3840, 2160))
		for y := 0; y < 2160; y++ {
			for x := 0; x < 3840; x++ {
				base := 90.0
				if (x/3+y/5)%4 == 0 || (x*7+y*3)%29 < 3 { // fine detail: hatching and marks
					base = 200
				}
				n := rng.NormFloat64() * 28
				img.SetRGBA(x, y, color.RGBA{clamp(base + n), clamp(base*0.9 + rng.NormFloat64()*28), clamp(base*0.8 + rng.NormFloat64()*28), 255})
			}
		}
		var buf bytes.Buffer
		jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
		noisy4K = bytes.Clone(buf.Bytes())
		small := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
		for i := range small.Pix {
			small.Pix[i] = uint8(rng.IntN(256))
		}
		buf.Reset()
		jpeg.Encode(&buf, small, &jpeg.Options{Quality: 95})
		pureNoise = bytes.Clone(buf.Bytes())
	})
	return noisy4K, pureNoise
}

func clamp(v float64) uint8 { return uint8(max(0, min(255, v))) }

// budgetServer serves the demo house's tools over HTTP as maison does
// (stateless, JSON), with cameras' frames replaced by the given ones.
func budgetServer(t *testing.T, budget int, frames map[string][]byte) string {
	t.Helper()
	return httpServer(t, budget, frames, nil)
}

// httpServer is budgetServer behind an optional wrapper (a bearer gate).
func httpServer(t *testing.T, budget int, frames map[string][]byte, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	r := demotest.New(t, demotest.Options{LazyFrames: true, Bridge: bridge.Config{
		ResultBudget: budget,
		Camera:       func(c *camera.Config) { c.Source = withFrames{c.Source.(*homeassistant.Client), frames} },
	}})
	return r.ServeHTTP(t, wrap)
}

// snapshotAsReceived calls camera_snapshot over HTTP and returns the body
// exactly as the client receives it.
func snapshotAsReceived(t *testing.T, url, version, cam string) []byte {
	t.Helper()
	return toolAsReceived(t, url, version, "camera_snapshot", fmt.Sprintf(`{"camera":%q}`, cam))
}

// toolAsReceived calls a tool over HTTP in a protocol era and returns the
// body exactly as the client receives it.
func toolAsReceived(t *testing.T, url, version, tool, args string) []byte {
	t.Helper()
	meta := ""
	if version == "2026-07-28" {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s%s}}`, tool, args, meta)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version == "2026-07-28" {
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
	}
	req.Header.Set("Mcp-Protocol-Version", version)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s(%s) over %s: %d %.300s", tool, args, version, resp.StatusCode, data)
	}
	return data
}

type received struct {
	Result struct {
		Content []struct {
			Type, Text, Data, MimeType string
		}
		IsError bool
	}
}

// checkReceived checks one answer as the client received it: within the
// budget in characters, a picture a strict decoder accepts, words to say.
func checkReceived(t *testing.T, name string, data []byte, budget int) (w, h int, text string) {
	t.Helper()
	if n := utf8.RuneCount(data); n > budget {
		t.Errorf("%s: the result is %d characters as received, over the budget of %d", name, n, budget)
	}
	var r received
	if err := json.Unmarshal(data, &r); err != nil || r.Result.IsError {
		t.Fatalf("%s: %v %.300s", name, err, data)
	}
	for _, c := range r.Result.Content {
		switch c.Type {
		case "image":
			raw, err := base64.StdEncoding.DecodeString(c.Data)
			if err != nil {
				t.Fatalf("%s: image data: %v", name, err)
			}
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			w, h = cfg.Width, cfg.Height
			strictDecode(t, name, raw)
		case "text":
			text += c.Text
		}
	}
	if w == 0 {
		t.Fatalf("%s: no picture in %.300s", name, data)
	}
	return w, h, text
}

// Every demo camera, a noisy 4K frame full of detail, and pure noise come
// within the default budget, as the client receives them, in both eras.
func TestEveryPictureWithinTheBudget(t *testing.T) {
	t.Parallel()
	noisy, noise := testFrames(t)
	house := budgetServer(t, 0, nil)
	hard := budgetServer(t, 0, map[string][]byte{"camera.backyard": noisy, "camera.garage": noise})
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, cam := range []string{"front door", "garage", "backyard", "noisy 4K", "pure noise"} {
			url := house
			switch cam {
			case "noisy 4K":
				url, cam = hard, "backyard"
			case "pure noise":
				url, cam = hard, "garage"
			}
			name := cam + " over " + version
			if url == hard {
				name = "replaced " + name
			}
			data := snapshotAsReceived(t, url, version, cam)
			w, h, text := checkReceived(t, name, data, tools.DefaultResultBudget)
			t.Logf("%s: %d characters, %dx%d", name, utf8.RuneCount(data), w, h)
			if max(w, h) < 1024 { // quality goes before size, and size stops at the floor
				t.Errorf("%s: %dx%d, below 1024 px within the default budget", name, w, h)
			}
			if strings.Contains(text, "smaller than usual") {
				t.Errorf("%s: the text speaks of the size though it is usual: %q", name, text)
			}
		}
	}
}

// A smaller budget (MAISON_RESULT_BUDGET) is kept too: the result adapts,
// and a picture that had to go below the usual floor says so.
func TestASmallerBudgetHolds(t *testing.T) {
	t.Parallel()
	noisy, noise := testFrames(t)
	const budget = 60_000
	url := budgetServer(t, budget, map[string][]byte{"camera.backyard": noisy, "camera.garage": noise})
	for _, cam := range []string{"front door", "backyard", "garage"} {
		data := snapshotAsReceived(t, url, "2025-11-25", cam)
		w, h, text := checkReceived(t, cam, data, budget)
		t.Logf("%s within %d: %d characters, %dx%d", cam, budget, utf8.RuneCount(data), w, h)
		if said := strings.Contains(text, "much smaller than usual"); said != (max(w, h) < 1024) {
			t.Errorf("%s at %dx%d: says it was made much smaller: %v", cam, w, h, said)
		}
	}
}

// strictDecode runs libjpeg's strict decoder on what the client received.
func strictDecode(t *testing.T, name string, data []byte) {
	t.Helper()
	djpeg, err := exec.LookPath("djpeg")
	if err != nil {
		t.Log("djpeg not found, strict decode left out; install libjpeg-turbo-progs")
		return
	}
	cmd := exec.Command(djpeg, "-strict", "-ppm", "-outfile", os.DevNull)
	cmd.Stdin = bytes.NewReader(data)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: djpeg -strict refuses the picture as received: %v %s", name, err, out)
	}
}

// With MAISON_RESULT_BUDGET=60000 a snapshot is encoded once, by the
// camera service, within its share of the budget: the service counts one
// picture encoded, and the result guard never fits it again (it would say
// so in a warning). The result as received is within the budget.
func TestASmallBudgetEncodesASnapshotOnce(t *testing.T) {
	t.Parallel()
	noisy, _ := testFrames(t)
	const budget = 60_000
	var logged testkit.Buffer // the warnings logged, read while the server runs
	r := demotest.New(t, demotest.Options{LazyFrames: true, Bridge: bridge.Config{
		ResultBudget: budget,
		Logger:       slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Camera: func(c *camera.Config) {
			c.Source = withFrames{c.Source.(*homeassistant.Client), map[string][]byte{"camera.backyard": noisy}}
		},
	}})
	url := r.ServeHTTP(t, nil)
	for _, cam := range []string{"backyard", "front door"} {
		before := r.Bridge.Cameras.Encoded()
		data := snapshotAsReceived(t, url, "2025-11-25", cam)
		w, h, _ := checkReceived(t, cam, data, budget)
		if n := r.Bridge.Cameras.Encoded() - before; n != 1 {
			t.Errorf("%s within %d: %d pictures encoded, want 1", cam, budget, n)
		}
		t.Logf("%s within %d: %d characters, %dx%d, encoded %d in all", cam, budget, utf8.RuneCount(data), w, h, r.Bridge.Cameras.Encoded())
	}
	if s := logged.String(); strings.Contains(s, "over the result budget") {
		t.Errorf("the result guard fitted a picture again:\n%s", s)
	}
}

// A part of the worst frames there are, and an overview of them, stay
// within the result budget as the client receives them, the default one
// and a smaller one.
func TestPartsAndOverviewWithinTheBudget(t *testing.T) {
	t.Parallel()
	noisy, noise := testFrames(t)
	frames := map[string][]byte{"camera.backyard": noisy, "camera.garage": noise, "camera.front_door": noise}
	for _, budget := range []int{tools.DefaultResultBudget, 60_000} {
		url := budgetServer(t, budget, frames)
		for _, c := range []struct{ tool, args string }{
			{"camera_snapshot", `{"camera": "backyard", "region": "centre"}`},
			{"camera_snapshot", `{"camera": "garage", "region": {"x": 0, "y": 0, "width": 1, "height": 0.99}}`},
			{"camera_snapshot", `{"camera": "front door", "region": "left"}`},
			{"camera_overview", `{}`},
		} {
			data := toolAsReceived(t, url, "2025-11-25", c.tool, c.args)
			w, h, text := checkReceived(t, c.tool+" "+c.args, data, budget)
			t.Logf("%s %s within %d: %d characters, %dx%d", c.tool, c.args, budget, utf8.RuneCount(data), w, h)
			if err := voice.Speakable(text); err != nil {
				t.Error(err)
			}
		}
	}
}

// Within a smaller budget a picture says it was made much smaller exactly
// when it went below 1024 pixels, a snapshot as an overview (at 20,000),
// and a part of one is still said to be closer: the bytes shrink the part
// and the whole picture alike.
func TestASmallerBudgetIsSaidAndKeepsCloser(t *testing.T) {
	t.Parallel()
	url60 := budgetServer(t, 60_000, nil)
	data := snapshotAsReceived(t, url60, "2025-11-25", "front door")
	w, h, text := checkReceived(t, "front door", data, 60_000)
	t.Logf("front door within 60,000: %d characters, %dx%d", utf8.RuneCount(data), w, h)
	if said := strings.Contains(text, "much smaller than usual"); said != (max(w, h) < 1024) {
		t.Errorf("front door within 60,000 at %dx%d: says it was made much smaller: %v", w, h, said)
	}
	data = toolAsReceived(t, url60, "2025-11-25", "camera_snapshot", `{"camera": "front door", "region": "left"}`)
	_, _, text = checkReceived(t, "front door's left half", data, 60_000)
	if !strings.Contains(text, "times closer") || strings.Contains(text, "no finer detail") {
		t.Errorf("front door's left half within 60,000: %q; want it said closer", text)
	}
	url20 := budgetServer(t, 20_000, nil)
	data = toolAsReceived(t, url20, "2025-11-25", "camera_overview", `{}`)
	w, h, text = checkReceived(t, "overview", data, 20_000)
	if said := strings.Contains(text, "much smaller than usual"); said != (max(w, h) < 1024) {
		t.Errorf("overview within 20,000 at %dx%d: says it was made much smaller: %v", w, h, said)
	}
}
