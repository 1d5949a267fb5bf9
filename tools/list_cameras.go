package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/voice"
)

type listCamerasIn struct{}

var listCamerasTool = &mcp.Tool{
	Name:        "list_cameras",
	Title:       "List cameras",
	Description: "Says which cameras of the home you can look at, by the names people use, with the room each is in. Use it when you need a camera's name for camera_snapshot or describe_camera.",
	Annotations: &mcp.ToolAnnotations{Title: "List cameras", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

func (s *server) listCameras(ctx context.Context, _ *mcp.CallToolRequest, _ listCamerasIn) (*mcp.CallToolResult, any, error) {
	cams, withheld, err := s.deps.Cameras.Listing(ctx)
	if err != nil {
		return sayError(s.haTrouble(err)), nil, nil
	}
	lang := s.deps.Lang
	var held []string
	for _, w := range withheld {
		held = append(held, w.Say(lang))
	}
	if len(cams) == 0 && len(held) > 0 {
		return say(voice.Paragraph(held...)), nil, nil
	}
	if len(cams) == 0 {
		return say(s.pick(
			"No camera is shared with me. An admin can expose cameras to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Aucune caméra ne m'est partagée. Un administrateur peut exposer des caméras à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")), nil, nil
	}
	items := make([]string, len(cams))
	for i, c := range cams {
		items[i] = c.Spoken(lang)
		if c.Area != "" && !sameWords(c.Area, c.Name) {
			items[i] += s.pick(" in the ", " dans la pièce ") + assist.Quote(lang, c.Area)
		}
	}
	head := s.pick("I can show you "+lang.Number(len(cams))+" cameras: ", "Je peux vous montrer "+lang.Number(len(cams))+" caméras : ")
	if len(cams) == 1 {
		head = s.pick("I can show you one camera: ", "Je peux vous montrer une caméra : ")
	}
	return say(voice.Paragraph(append([]string{voice.Sentence(head + lang.List(items))}, held...)...)), nil, nil
}

// sameWords reports whether an area name only repeats the camera's name ("Garage" in "Garage").
func sameWords(a, b string) bool { return assist.Name(a) == assist.Name(b) }
