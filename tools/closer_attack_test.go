package tools_test

import (
	"encoding/json"
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
func TestAttackCloserLookAtDamagedFramesThroughTheTool(t *testing.T) {
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
