package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var describeCameraTool = &mcp.Tool{
	Name:        "describe_camera",
	Title:       "Describe camera",
	Description: "Says in spoken sentences what is known around one camera right now: its room, how fresh its picture is, whether it records, and what nearby door, motion and presence sensors report. Returns no picture: use it in voice conversations, and camera_snapshot when the picture can be seen.",
	Annotations: &mcp.ToolAnnotations{Title: "Describe camera", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

func (s *server) describeCamera(ctx context.Context, _ *mcp.CallToolRequest, in cameraIn) (*mcp.CallToolResult, any, error) {
	ctx, cancel := context.WithTimeout(ctx, s.deps.VoiceBudget)
	defer cancel()
	cam, res := s.findCamera(ctx, in.Camera)
	if res != nil {
		return res, nil, nil
	}
	snap, err := s.deps.Cameras.Describe(ctx, cam)
	if err != nil {
		s.log.Info("camera description failed", "camera", cam.EntityID, "err", err)
		return sayError(s.haTrouble(err)), nil, nil
	}
	return say(snap.Description), nil, nil
}
