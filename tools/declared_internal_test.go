package tools

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/camera"
)

// TestServersLeaveTheDeclaredToolsAlone: a server registers copies of the
// package's tool declarations, which every server in the process shares;
// writing them was a data race between two servers starting at once.
func TestServersLeaveTheDeclaredToolsAlone(t *testing.T) {
	t.Parallel()
	declared := []*mcp.Tool{listCamerasTool, cameraSnapshotTool, describeCameraTool, cameraOverviewTool, whatHappenedTool}
	srv, _, err := newServer(Deps{HA: struct{ HomeAssistant }{}, Live: &assist.Live{}, Cameras: &camera.Service{}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if srv == nil {
		t.Fatal("no server")
	}
	for _, tool := range declared {
		if tool.InputSchema != nil {
			t.Errorf("building a server wrote %s's declared input schema", tool.Name)
		}
	}
}
