package tools_test

// Attack tests of what_happened, camera_snapshot's region and
// camera_overview through the MCP surface (branch attack-13).

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/voice"
)

// snapshotRegion calls camera_snapshot with a region and returns its text,
// whether it is an error and how many pictures it carries.
func snapshotRegion(t *testing.T, cs *mcp.ClientSession, camera string, region any) (string, bool, int) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_snapshot", Arguments: map[string]any{"camera": camera, "region": region}})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	images := 0
	for _, b := range res.Content {
		switch b := b.(type) {
		case *mcp.TextContent:
			text += b.Text
		case *mcp.ImageContent:
			images++
		}
	}
	if err := voice.Speakable(text); err != nil {
		t.Errorf("region %#v: %v", region, err)
	}
	return text, res.IsError, images
}

// Regions a careless or hostile client sends: each is shown as what it
// says, or refused in words that say what works; never the whole picture
// in silence.
func TestAttackRegionArguments(t *testing.T) {
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

// overview calls camera_overview and returns its text, whether it is an
// error and how many pictures it carries.
func overview(t *testing.T, cs *mcp.ClientSession) (string, bool, int) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_overview"})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	images := 0
	for _, b := range res.Content {
		switch b := b.(type) {
		case *mcp.TextContent:
			text += b.Text
		case *mcp.ImageContent:
			images++
		}
	}
	if err := voice.Speakable(text); err != nil {
		t.Errorf("camera_overview: %v", err)
	}
	return text, res.IsError, images
}

// Home Assistant gone between the list of cameras (kept a few seconds) and
// the frames: the answer says Home Assistant cannot be reached, not that
// every camera "gave no usable picture just now".
func TestAttackOverviewWithHomeAssistantDown(t *testing.T) {
	r := newRig(t, rigOptions{liveTTL: time.Hour, camera: func(c *camera.Config) { c.MaxAge = time.Nanosecond }})
	if _, isErr, _ := overview(t, r.cs); isErr {
		t.Fatal("the first overview failed")
	}
	r.house.SetDown(true)
	text, isErr, images := overview(t, r.cs)
	if !isErr || images != 0 || strings.Contains(text, "no usable picture") {
		t.Errorf("with Home Assistant down: error %v, %d images: %q", isErr, images, text)
	}
}
