package demo_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/demo"
)

func TestCameraProxyStatus(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	_, attrs, _ := h.State("camera.front_door")
	camToken := attrs["access_token"].(string)
	// Its integration lost the camera: the entity stays, the picture fails.
	h.SetState("camera.garage", "unavailable", nil)

	cases := []struct {
		name   string
		path   string
		header string // Authorization header value; "" for none
		want   int
	}{
		{"bearer", "/api/camera_proxy/camera.front_door", "Bearer " + h.UserToken(), 200},
		{"admin bearer", "/api/camera_proxy/camera.front_door", "Bearer " + h.AdminToken(), 200},
		{"access token", "/api/camera_proxy/camera.front_door?token=" + camToken, "", 200},
		{"unexposed camera is still served", "/api/camera_proxy/camera.shed", "Bearer " + h.UserToken(), 200},
		{"bad header", "/api/camera_proxy/camera.front_door", "Bearer nope", 401},
		{"bad header, good query token", "/api/camera_proxy/camera.front_door?token=" + camToken, "Bearer nope", 200},
		{"no credentials", "/api/camera_proxy/camera.front_door", "", 403},
		{"bad query token", "/api/camera_proxy/camera.front_door?token=nope", "", 403},
		{"another camera's token", "/api/camera_proxy/camera.garage?token=" + camToken, "", 403},
		{"unknown camera", "/api/camera_proxy/camera.attic", "Bearer " + h.UserToken(), 404},
		{"unknown camera without auth", "/api/camera_proxy/camera.attic", "", 401},
		{"camera off", "/api/camera_proxy/camera.porch", "Bearer " + h.UserToken(), 503},
		{"camera unavailable", "/api/camera_proxy/camera.garage", "Bearer " + h.UserToken(), 500},
		{"non-integer width", "/api/camera_proxy/camera.front_door?width=abc&height=100", "Bearer " + h.UserToken(), 500},
		{"non-integer height", "/api/camera_proxy/camera.front_door?width=100&height=1.5", "Bearer " + h.UserToken(), 500},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+tc.path, nil)
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tc.want)
			}
			// Errors carry aiohttp's text body, as Home Assistant's do.
			if want := fmt.Sprintf("%d: %s", tc.want, http.StatusText(tc.want)); tc.want != 200 &&
				(string(body) != want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain")) {
				t.Errorf("body = %q (%s), want %q", body, resp.Header.Get("Content-Type"), want)
			}
			if tc.want == 200 && resp.Header.Get("Content-Type") != "image/jpeg" {
				t.Errorf("Content-Type = %q", resp.Header.Get("Content-Type"))
			}
		})
	}
	if h.FailedLogins() != 2 {
		t.Errorf("FailedLogins = %d, want 2 (the bad header, the unknown camera without auth)", h.FailedLogins())
	}
}

func TestCameraProxyScaling(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	cases := []struct {
		camera       string
		query        string
		wantW, wantH int
	}{
		{"camera.front_door", "", 1920, 1080},
		{"camera.front_door", "?width=640&height=360", 720, 405},     // 3/8
		{"camera.front_door", "?width=640", 1920, 1080},              // both sides needed
		{"camera.front_door", "?width=1800&height=1000", 1920, 1080}, // 7/8 too small: original
		{"camera.front_door", "?width=960&height=540", 960, 540},     // exact 4/8
		{"camera.front_door", "?width=1&height=1", 240, 135},         // smallest, 1/8
		{"camera.backyard", "?width=320&height=180", 480, 270},       // 1/8
		{"camera.backyard", "?width=1568&height=882", 1920, 1080},    // 4/8
		{"camera.garage", "?width=640&height=360", 640, 360},         // scaled from the defective frame
	}
	for _, tc := range cases {
		resp, body := get(t, srv, "/api/camera_proxy/"+tc.camera+tc.query, h.UserToken())
		if resp.StatusCode != 200 {
			t.Fatalf("%s%s: status %d", tc.camera, tc.query, resp.StatusCode)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s%s: %v", tc.camera, tc.query, err)
		}
		if cfg.Width != tc.wantW || cfg.Height != tc.wantH {
			t.Errorf("%s%s: %dx%d, want %dx%d", tc.camera, tc.query, cfg.Width, cfg.Height, tc.wantW, tc.wantH)
		}
	}
	// A scaled garage frame is re-encoded, so it loses the lying COM.
	_, body := get(t, srv, "/api/camera_proxy/camera.garage?width=640&height=360", h.UserToken())
	if body[2] == 0xFF && body[3] == 0xFE {
		t.Error("scaled garage frame still starts with the COM segment")
	}
}

func TestCameraFetchesCountsConcurrentRequests(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	const n = 8
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api/camera_proxy/camera.garage", nil)
			req.Header.Set("Authorization", "Bearer "+h.UserToken())
			if resp, err := srv.Client().Do(req); err == nil {
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	get(t, srv, "/api/camera_proxy/camera.garage", "bad") // refused: not counted
	if got := h.CameraFetches("camera.garage"); got != n {
		t.Errorf("CameraFetches(garage) = %d, want %d", got, n)
	}
	if got := h.CameraFetches("camera.front_door"); got != 0 {
		t.Errorf("CameraFetches(front_door) = %d, want 0", got)
	}
}

func TestFrames(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }
	h := demo.New(demo.Options{Now: now})
	sizes := map[string][2]int{
		"camera.front_door": {1920, 1080},
		"camera.garage":     {1280, 720},
		"camera.backyard":   {3840, 2160},
		"camera.porch":      {1280, 720},
		"camera.shed":       {1280, 720},
	}
	for id, size := range sizes {
		served, clean, ok := h.Frame(id)
		if !ok {
			t.Fatalf("Frame(%s) not ok", id)
		}
		img, err := jpeg.Decode(bytes.NewReader(served))
		if err != nil {
			t.Fatalf("%s: Go cannot decode the served frame: %v", id, err)
		}
		if b := img.Bounds(); b.Dx() != size[0] || b.Dy() != size[1] {
			t.Errorf("%s: %dx%d, want %dx%d", id, b.Dx(), b.Dy(), size[0], size[1])
		}
		if sd := lumaStdDev(img); sd < 20 {
			t.Errorf("%s: luma standard deviation %.1f: looks flat, not like a camera frame", id, sd)
		}
		if id != "camera.garage" && !bytes.Equal(served, clean) {
			t.Errorf("%s: served and clean frames differ", id)
		}
	}
	if _, _, ok := h.Frame("light.kitchen"); ok {
		t.Error("Frame(light.kitchen) ok")
	}

	// Deterministic: another house with the same clock draws the same bytes.
	a, _, _ := h.Frame("camera.front_door")
	b, _, _ := demo.New(demo.Options{Now: now}).Frame("camera.front_door")
	if !bytes.Equal(a, b) {
		t.Error("two houses with the same clock serve different front door frames")
	}
}

func TestGarageFrameDefect(t *testing.T) {
	t.Parallel()
	h := demo.New(demo.Options{})
	served, clean, _ := h.Frame("camera.garage")
	if !bytes.Equal(served[:2], []byte{0xFF, 0xD8}) || !bytes.Equal(served[2:4], []byte{0xFF, 0xFE}) {
		t.Fatalf("served frame starts % x, want SOI then COM", served[:4])
	}
	if l := binary.BigEndian.Uint16(served[4:6]); l != 0x0FFE {
		t.Errorf("COM length field = %#x, want 0x0FFE", l)
	}
	// 4,958 bytes from the length field to the next marker: 4,956 zeros.
	zeros := served[6 : 6+4956]
	if bytes.ContainsFunc(zeros, func(r rune) bool { return r != 0 }) {
		t.Error("the COM payload is not all zeros")
	}
	if served[6+4956] != 0xFF {
		t.Errorf("byte after the zeros = %#x, want a marker", served[6+4956])
	}
	if !bytes.Equal(served[6+4956:], clean[2:]) || !bytes.Equal(clean[:2], []byte{0xFF, 0xD8}) {
		t.Error("served frame is not SOI + COM + the rest of the clean frame")
	}
	if len(served)-len(clean) != 4+4956 {
		t.Errorf("served is %d bytes longer than clean, want %d", len(served)-len(clean), 4+4956)
	}
}

// TestFramesStrictTools checks the clean frames pass libjpeg's strict paths
// and the served garage frame fails them.
func TestFramesStrictTools(t *testing.T) {
	t.Parallel()
	djpeg, errD := exec.LookPath("djpeg")
	jpeginfo, errJ := exec.LookPath("jpeginfo")
	if errD != nil && errJ != nil {
		t.Skip("demo: djpeg and jpeginfo not found; install libjpeg-turbo-progs and jpeginfo")
	}
	h := demo.New(demo.Options{})
	dir := t.TempDir()
	check := func(name string, data []byte, wantOK bool) {
		path := filepath.Join(dir, name+".jpeg")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if errD == nil {
			err := exec.CommandContext(t.Context(), djpeg, "-strict", "-outfile", os.DevNull, path).Run()
			if (err == nil) != wantOK {
				t.Errorf("djpeg -strict %s: err=%v, want ok=%v", name, err, wantOK)
			}
		}
		if errJ == nil {
			out, err := exec.CommandContext(t.Context(), jpeginfo, "-c", path).CombinedOutput()
			ok := err == nil && bytes.Contains(out, []byte("OK"))
			if ok != wantOK {
				t.Errorf("jpeginfo -c %s: %s (err=%v), want ok=%v", name, bytes.TrimSpace(out), err, wantOK)
			}
		}
	}
	for _, id := range []string{"camera.front_door", "camera.garage", "camera.backyard", "camera.porch", "camera.shed"} {
		_, clean, _ := h.Frame(id)
		check(id+".clean", clean, true)
	}
	served, _, _ := h.Frame("camera.garage")
	check("camera.garage.served", served, false)
}

func lumaStdDev(img image.Image) float64 {
	b := img.Bounds()
	var sum, sq, n float64
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum += l
			sq += l * l
			n++
		}
	}
	mean := sum / n
	v := sq/n - mean*mean
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
