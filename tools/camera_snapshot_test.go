package tools_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/jpegfix"
	"maison/voice"
)

// cutGarage sends every frame of the garage camera cut at 60%, as a
// camera whose buffer is sent before it is full.
func cutGarage(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/camera_proxy/camera.garage" {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		b := rec.Body.Bytes()
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(b[:len(b)*6/10])
	})
}

// camera_snapshot with a region, on a camera whose frames come damaged
// every time, through the MCP session: an image and words, not an error.
func TestCloserLookAtDamagedFramesThroughTheTool(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang   voice.Lang
		region any
		want   string
	}{
		{voice.English, "top right", "cannot show the top right quarter of the picture closer"},
		{voice.French, "en bas à gauche", "de plus près"},
		{voice.English, map[string]any{"x": 0.25, "y": 0.5, "width": 0.5, "height": 0.5}, "closer"},
	} {
		r := demotest.New(t, demotest.Options{Wrap: cutGarage, LazyFrames: true, Bridge: bridge.Config{
			Lang: tc.lang, Camera: func(c *camera.Config) { c.MaxAge = time.Nanosecond },
		}})
		res, err := r.Session.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_snapshot", Arguments: map[string]any{"camera": "garage", "region": tc.region}})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res)
		if len(raw) >= 150000 {
			t.Errorf("%v: result is %d characters", tc.region, len(raw))
		}
		var text []string
		images := 0
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcp.TextContent:
				text = append(text, c.Text)
			case *mcp.ImageContent:
				images++
				if err := jpegfix.Check(c.Data); err != nil {
					t.Errorf("%v: image not strict: %v", tc.region, err)
				}
			}
		}
		said := strings.Join(text, " ")
		if res.IsError || images != 1 || !strings.Contains(said, tc.want) {
			t.Errorf("%v: error %v, %d images, %q", tc.region, res.IsError, images, said)
		}
		for _, s := range text {
			if err := voice.Speakable(s); err != nil {
				t.Errorf("%v: %v", tc.region, err)
			}
		}
		if n := r.House.CameraFetches("camera.garage"); n > 2 {
			t.Errorf("%v: %d fetches", tc.region, n)
		}
		t.Log(said)
	}
}

// snapshotRegion calls camera_snapshot with a region and returns its text,
// whether it is an error and how many pictures it carries.
func snapshotRegion(t *testing.T, cs *mcp.ClientSession, camera string, region any) (string, bool, int) {
	t.Helper()
	return callCounted(t, cs, "camera_snapshot", map[string]any{"camera": camera, "region": region}, fmt.Sprintf("region %#v", region))
}

// Regions a careless or hostile client sends: each is shown as what it
// says, or refused in words that say what works; never the whole picture
// in silence.
func TestRegionArgumentsACarelessClientSends(t *testing.T) {
	t.Parallel()
	_, cs := session(t, voice.English, 0)
	for _, c := range []struct {
		region any
		ok     bool
		says   string
	}{
		// On the far edge: nothing of the picture is in it.
		{map[string]any{"x": 1, "y": 0, "width": 0.01, "height": 0.5}, false, "The argument “region” must be"},
		{`{"x": 1, "y": 1, "width": 0.01, "height": 0.01}`, false, "The argument “region” must be"},
		// A box too small to show anything is widened, and said as shown.
		{map[string]any{"x": 0.5, "y": 0.5, "width": 0.0001, "height": 0.0001}, true, "It shows the part of the picture from forty-eight to fifty-two percent across"},
		{"top-right", true, "It shows the top right quarter of the picture"},
		{"  Upper_Left  ", true, "It shows the top left quarter of the picture"},
		{5, false, "The argument “region” must be"},
		{true, false, "The argument “region” must be"},
		{map[string]any{"x": map[string]any{"x": 0.5}, "y": 0, "width": 0.5, "height": 0.5}, false, "The argument “region” must be"},
		{`{"x": 1e400, "y": 0, "width": 0.5, "height": 0.5}`, false, "The argument “region” must be"},
		{`{"x": 0.5, "y": 0, "width": 0.5, "height": 0.5} and zoom`, false, "The argument “region” must be"},
		{[]any{0.5, 0, 0.5, 0.5}, false, "The argument “region” must be"},
	} {
		text, isErr, images := snapshotRegion(t, cs, "front door", c.region)
		if isErr == c.ok || (c.ok && images != 1) || (!c.ok && images != 0) {
			t.Errorf("region %#v: error %v with %d images: %q", c.region, isErr, images, text)
		}
		if !strings.Contains(text, c.says) {
			t.Errorf("region %#v says %q, want %q", c.region, text, c.says)
		}
	}
}

// TestRegionArguments reads a part of the picture however a client sends
// it: a name, a box, a box sent as text; anything else is refused in words,
// and an empty region is the whole picture.
func TestRegionArguments(t *testing.T) {
	t.Parallel()
	_, cs := session(t, voice.English, 0)
	for _, c := range []struct {
		region any
		ok     bool
		says   string
	}{
		{"bottom right corner", true, "It shows the bottom right quarter of the picture"},
		{map[string]any{"x": 0.5, "y": 0, "width": 0.5, "height": 0.5}, true, "It shows the part of the picture from fifty to one hundred percent across"},
		{`{"x": 0.5, "y": 0, "width": 0.5, "height": 0.5}`, true, "It shows the part of the picture from fifty to one hundred percent across"},
		{"", true, ""},
		{map[string]any{"x": 0.5, "y": 0, "width": 0.5, "height": 0.5, "zoom": 2}, false, "The argument “region” must be"},
		{map[string]any{"x": 0.5, "y": 0, "width": 0.5}, false, "The argument “region” must be"},
		{[]string{"left"}, false, "The argument “region” must be"},
		{"the red car", false, "it says where to look, not what to look for"},
		{map[string]any{"x": "half", "y": 0, "width": 0.5, "height": 0.5}, false, "The argument “region” must be"},
	} {
		text, isErr, images := snapshotRegion(t, cs, "front door", c.region)
		if isErr == c.ok || (c.ok && images != 1) || (!c.ok && images != 0) {
			t.Errorf("region %#v: error %v with %d images: %q", c.region, isErr, images, text)
		}
		if c.says != "" && !strings.Contains(text, c.says) || c.says == "" && strings.Contains(text, "It shows") {
			t.Errorf("region %#v says %q, want %q", c.region, text, c.says)
		}
	}
}
