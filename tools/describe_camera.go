package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var describeCameraTool = &mcp.Tool{
	Name:        "describe_camera",
	Title:       "Describe camera",
	Description: "Says what is known around one camera now, without a picture, for voice conversations: its room, how fresh its picture is, nearby door, motion and presence sensors, and what Home Assistant's AI sees in it, if it has one. For example: “is anyone at the front door?”",
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
