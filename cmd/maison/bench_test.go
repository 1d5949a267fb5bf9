package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolsOverHTTP measures each tool end to end: the go-sdk client
// over loopback HTTP, the door, the MCP server, and the demo house's wire.
// Camera frames younger than three seconds are reused, so camera figures
// after the first call are the warm path; camera.BenchmarkSnapshotCold
// measures a fresh fetch, repair and fit every time.
func BenchmarkToolsOverHTTP(b *testing.B) {
	url := startDemo(b, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0", "MAISON_LOG_LEVEL": "error", "MAISON_RATE_LIMIT": "off"})
	cs := connect(b, url, e2eToken, "2025-11-25")
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"list_cameras", nil},
		{"camera_snapshot", map[string]any{"camera": "garage"}},
		{"camera_snapshot", map[string]any{"camera": "backyard"}},
		{"describe_camera", map[string]any{"camera": "front door"}},
		{"describe_house", nil},
		{"turn_on", map[string]any{"name": "Porch Light"}},
		{"set_light", map[string]any{"name": "Kitchen Light", "brightness": 40}},
	} {
		name := tc.name
		if c, ok := tc.args["camera"].(string); ok {
			name += "/" + c
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", tc.name, err, res)
				}
			}
		})
	}
}
