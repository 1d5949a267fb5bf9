package tools

import (
	"context"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/voice"
	"maison/words"
)

var listCamerasTool = &mcp.Tool{
	Name:        "list_cameras",
	Title:       "List cameras",
	Description: "Names the cameras you can look at, with their rooms and which are off. For example: “which cameras do I have?”",
	Annotations: &mcp.ToolAnnotations{Title: "List cameras", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// listCamerasDef is list_cameras whole: the tool, no arguments and the handler.
func (s *server) listCamerasDef() toolDef {
	return toolDef{tool: listCamerasTool, handle: s.listCameras}
}

func (s *server) listCameras(ctx context.Context, _ *mcp.CallToolRequest, _ argValues) *mcp.CallToolResult {
	cams, withheld, err := s.deps.Cameras.Listing(ctx)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	lang := s.deps.Lang
	if len(cams) == 0 {
		return s.noCamera(withheld)
	}
	var held []string
	for _, w := range withheld {
		held = append(held, w.Say(lang))
	}
	var items, dark []string
	for _, c := range cams {
		item := c.Say(lang)
		if c.AreaSaysMore() {
			item += words.CameraInRoom(lang, c.Area)
		}
		switch {
		case c.Off:
			dark = append(dark, words.CameraListedOff(lang, c.Name))
		case c.State == "unavailable":
			dark = append(dark, words.CameraListedUnavailable(lang, c.Name))
			items = append(items, item)
		default:
			items = append(items, item)
		}
	}
	out := []string{words.CamerasShown(lang, items)}
	out = append(out, dark...)
	return say(voice.Paragraph(append(out, held...)...))
}

// noCamera says that no camera can be shown: those exposed but withheld,
// or else that none is shared and how an admin shares one.
func (s *server) noCamera(withheld []camera.Withheld) *mcp.CallToolResult {
	var held []string
	for _, w := range withheld {
		held = append(held, w.Say(s.deps.Lang))
	}
	if len(held) > 0 {
		return say(voice.Paragraph(held...))
	}
	return say(words.NoCameraShared(s.deps.Lang))
}
