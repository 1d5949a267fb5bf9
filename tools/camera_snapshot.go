package tools

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/panel"
)

var cameraSnapshotTool = &mcp.Tool{
	Name:        "camera_snapshot",
	Title:       "Camera snapshot",
	Description: "Returns one camera's current picture and a spoken description of what is around it; with region, a part of it closer (look at the whole first). In voice conversations use describe_camera. For example: “show me the garage”.",
	Annotations: &mcp.ToolAnnotations{Title: "Camera snapshot", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// cameraSnapshotDef is camera_snapshot whole: the tool, its arguments and the handler.
func (s *server) cameraSnapshotDef() toolDef {
	return toolDef{tool: cameraSnapshotTool, args: []argSpec{argCamera, argRegion}, handle: s.cameraSnapshot, view: panel.URI}
}

func (s *server) cameraSnapshot(ctx context.Context, req *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	snap, res, _ := s.snapshot(ctx, in.text("camera"), in.region("region"))
	if res != nil {
		return res
	}
	res = s.snapshotResult(snap)
	if rendersApps(req) { // the camera panel shows this picture, large
		res.StructuredContent = s.pictureFacts(snap, nil, nil)
	}
	return res
}

// snapshotResult is a snapshot as camera_snapshot answers it: the picture,
// then its description.
func (s *server) snapshotResult(snap camera.Snapshot) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: snap.Image.JPEG, MIMEType: "image/jpeg"},
		&mcp.TextContent{Text: snap.Description},
	}}
	if snap.Image.MuchSmaller() {
		s.smallerNote(res)
	}
	return res
}

// snapshot finds the camera and takes its snapshot, or returns the result
// that says why it cannot, with the snapshot's failure (nil when the
// camera was not found): then the snapshot holds only the camera.
func (s *server) snapshot(ctx context.Context, query string, part camera.Region) (camera.Snapshot, *mcp.CallToolResult, error) {
	cam, res := s.findCamera(ctx, query)
	if res != nil {
		return camera.Snapshot{}, res, nil
	}
	snap, err := s.deps.Cameras.Closer(ctx, cam, part)
	if err != nil {
		s.log.Info("camera snapshot failed", "camera", cam.EntityID, "err", err)
		return camera.Snapshot{Camera: cam}, sayError(s.haTrouble(err)), err
	}
	return snap, nil, nil
}

// findCamera resolves what the caller calls a camera, or returns the result
// that names the cameras there are.
func (s *server) findCamera(ctx context.Context, query string) (camera.Camera, *mcp.CallToolResult) {
	cam, err := s.deps.Cameras.Find(ctx, query)
	if err != nil {
		var nf *camera.NotFoundError
		if errors.As(err, &nf) {
			return cam, sayError(nf.Say(s.deps.Lang))
		}
		var wh *camera.WithheldError
		if errors.As(err, &wh) {
			return cam, sayError(wh.Say(s.deps.Lang))
		}
		return cam, sayError(s.haTrouble(err))
	}
	return cam, nil
}
