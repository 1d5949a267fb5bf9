package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/panel"
)

var cameraOverviewTool = &mcp.Tool{
	Name:        "camera_overview",
	Title:       "All cameras at a glance",
	Description: "Returns every camera of the home in one picture, a grid where each camera is labelled with its number and name, together with one spoken sentence per camera from its nearby sensors. A camera that is off, unavailable or slow leaves its place empty and says why. Use camera_snapshot afterwards to see one camera larger or a part of it closer. For example: “show me all the cameras”.",
	Annotations: &mcp.ToolAnnotations{Title: "All cameras at a glance", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// cameraOverviewDef is camera_overview whole: the tool, no arguments and the handler.
func (s *server) cameraOverviewDef() toolDef {
	return toolDef{tool: cameraOverviewTool, handle: s.cameraOverview, view: panel.URI}
}

func (s *server) cameraOverview(ctx context.Context, _ *mcp.CallToolRequest, _ argValues) *mcp.CallToolResult {
	ov, err := s.deps.Cameras.Overview(ctx)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	if len(ov.Tiles) == 0 {
		return s.noCamera(ov.Withheld)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: ov.Image.JPEG, MIMEType: "image/jpeg"},
		&mcp.TextContent{Text: ov.Say(s.deps.Lang)},
	}}
	if ov.Image.MuchSmaller() {
		s.smallerNote(res)
	}
	return res
}
