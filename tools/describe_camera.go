package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var describeCameraTool = &mcp.Tool{
	Name:        "describe_camera",
	Title:       "Describe camera",
	Description: "Says in spoken sentences what is known around one camera right now: its room, how fresh its picture is, whether it records, and what nearby door, motion and presence sensors report. Returns no picture: use it in voice conversations, and camera_snapshot when the picture can be seen. When Home Assistant has an AI that can look at pictures, its one-sentence description of the frame is added, quoted. For example: “is anyone at the front door?”",
	Annotations: &mcp.ToolAnnotations{Title: "Describe camera", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// describeCameraDef is describe_camera whole: the tool, its arguments and the handler.
func (s *server) describeCameraDef() toolDef {
	return toolDef{tool: describeCameraTool, args: []argSpec{argCamera}, handle: s.describeCamera}
}

func (s *server) describeCamera(ctx context.Context, _ *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	ctx, cancel := context.WithTimeout(ctx, s.deps.VoiceBudget)
	defer cancel()
	cam, res := s.findCamera(ctx, in.text("camera"))
	if res != nil {
		return res
	}
	snap, err := s.deps.Cameras.Describe(ctx, cam)
	if err != nil {
		s.log.Info("camera description failed", "camera", cam.EntityID, "err", err)
		return sayError(s.haTrouble(err))
	}
	return say(snap.Description)
}
