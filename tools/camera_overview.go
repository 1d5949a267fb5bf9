package tools

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera/picture"
	"maison/panel"
	"maison/words"
)

var cameraOverviewTool = &mcp.Tool{
	Name:        "camera_overview",
	Title:       "All cameras at a glance",
	Description: "Returns one picture of every camera, each labelled with its number and name, and a sentence for each from its nearby sensors. For example: “show me all the cameras”.",
	Annotations: &mcp.ToolAnnotations{Title: "All cameras at a glance", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// cameraOverviewDef is camera_overview whole: the tool, no arguments and the handler.
func (s *server) cameraOverviewDef() toolDef {
	return toolDef{tool: cameraOverviewTool, handle: s.cameraOverview, view: panel.URI}
}

func (s *server) cameraOverview(ctx context.Context, _ *mcp.CallToolRequest, _ argValues) *mcp.CallToolResult {
	ov, err := s.deps.Cameras.Overview(ctx)
	switch {
	case errors.Is(err, picture.ErrBusy) || picture.Unusability(err) != 0:
		// maison's own memory for pictures, not Home Assistant: the
		// picture of all the cameras could not be made.
		s.log.Warn("camera overview not made", "err", err)
		return sayError(words.OverviewMemory(s.deps.Lang, errors.Is(err, picture.ErrBusy)))
	case err != nil:
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
