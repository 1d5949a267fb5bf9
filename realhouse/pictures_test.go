package realhouse_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maison/internal/realha"
)

// oddCamera is the local_file camera shown to nothing whose file the
// pictures test replaces (scripts/realha.d/setup.py).
const oddCamera = "camera.third_rgb_adobe"

// TestOddFramesThroughTheRealCameraProxy sends frames of the third
// corpus through a real Home Assistant's camera proxy (its local_file
// camera reading a file this test replaces): each gets its outcome and
// its words, as over the demo; an empty and a missing file, which Home
// Assistant answers at once with 500, are said as no picture, not as a
// camera slow to answer.
func TestOddFramesThroughTheRealCameraProxy(t *testing.T) {
	h := realha.Load(t)
	file := filepath.Join(h.Cache, "root", "srv", "realha", "config", "frames", "third.rgb-adobe.jpeg")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the odd camera's file (scripts/realha up brings it): %v", err)
	}
	t.Cleanup(func() { os.WriteFile(file, orig, 0o644) })
	cs := serveHTTPWith(t, h, "MAISON_LISTEN=127.0.0.1:0", "MAISON_CAMERAS="+oddCamera)
	for _, c := range []struct {
		fixture string // "" for an empty file, "-" for none
		picture bool
		words   string
	}{
		{"third.rgb-no-adobe.jpeg", true, ""},
		{"third.adobe-cmyk-progressive.jpeg", true, ""},
		{"third.adobe-ycck.jpeg", true, ""},
		{"third.mpo-two-frames.jpeg", true, ""},
		{"third.corrupt-rst.jpeg", true, "damaged"},
		{"third.twelve-bit.jpeg", false, "sends 12-bit pictures"},
		{"third.arithmetic.jpeg", false, "arithmetic coding"},
		{"third.lossless.jpeg", false, "lossless JPEG"},
		{"third.dnl.jpeg", false, "height only comes after"},
		{"", false, "answered at once"},
		{"-", false, "answered at once"},
	} {
		switch c.fixture {
		case "-":
			os.Remove(file)
		case "":
			os.WriteFile(file, nil, 0o644)
		default:
			b, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(file, b, 0o644)
		}
		time.Sleep(3100 * time.Millisecond) // maison reuses a frame for 3 s
		res, text := ask(t, cs, "camera_snapshot", map[string]any{"camera": oddCamera})
		if c.picture {
			picture(t, c.fixture, res)
		} else if res.IsError == false && len(res.Content) > 1 {
			t.Errorf("%s: a picture, want none: %s", c.fixture, text)
		}
		if !strings.Contains(text, c.words) || strings.Contains(text, "restart") || strings.Contains(text, "in time") {
			t.Errorf("%q: said %q, want %q, and neither a restart nor a time-out", c.fixture, text, c.words)
		}
	}
}
