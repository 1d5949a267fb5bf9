package tools

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/voice"
	"maison/words"
)

var listCamerasTool = &mcp.Tool{
	Name:        "list_cameras",
	Title:       "List cameras",
	Description: "Says which cameras of the home you can look at, by the names people use, with the room each is in and which are turned off. Use it when you need a camera's name for camera_snapshot or describe_camera. For example: “which cameras do I have?”",
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
			item += s.deps.Lang.Pick(" in the ", " dans la pièce ") + words.Quote(lang, c.Area)
		}
		switch {
		case c.Off:
			dark = append(dark, s.deps.Lang.Pick(
				"The "+strings.TrimPrefix(c.Say(lang), "the ")+" is turned off in Home Assistant, so it has no picture until someone turns it on.",
				"La "+strings.TrimPrefix(c.Say(lang), "la ")+" est éteinte dans Home Assistant, elle n'a donc pas d'image tant qu'on ne la rallume pas."))
		case c.State == "unavailable":
			dark = append(dark, s.deps.Lang.Pick(
				"Home Assistant says the "+strings.TrimPrefix(c.Say(lang), "the ")+" is unavailable, so its picture may be missing or old; this often passes when the camera is back on the network.",
				"Home Assistant dit que la "+strings.TrimPrefix(c.Say(lang), "la ")+" est indisponible, son image peut donc manquer ou être ancienne; ça passe souvent quand la caméra revient sur le réseau."))
			items = append(items, item)
		default:
			items = append(items, item)
		}
	}
	var out []string
	switch len(items) {
	case 0:
		out = append(out, s.deps.Lang.Pick("No camera can show a picture right now.", "Aucune caméra ne peut montrer d'image en ce moment."))
	case 1:
		out = append(out, voice.Sentence(s.deps.Lang.Pick("I can show you one camera: ", "Je peux vous montrer une caméra : ")+items[0]))
	default:
		out = append(out, voice.Sentence(s.deps.Lang.Pick("I can show you "+lang.Number(len(items))+" cameras: ", "Je peux vous montrer "+lang.Number(len(items))+" caméras : ")+lang.List(items)))
	}
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
	return say(s.deps.Lang.Pick(
		"No camera is shared with me. An admin can expose cameras to Assist in Home Assistant under Settings, Voice assistants, Expose.",
		"Aucune caméra ne m'est partagée. Un administrateur peut exposer des caméras à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer."))
}
