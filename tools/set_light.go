package tools

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type setLightIn struct {
	targetIn
	Brightness  *int   `json:"brightness,omitempty" jsonschema:"brightness in percent, 0 to 100"`
	Color       string `json:"color,omitempty" jsonschema:"a colour name, e.g. red or warm white"`
	Temperature *int   `json:"temperature,omitempty" jsonschema:"colour temperature in kelvin, e.g. 2700 for warm light"`
}

var setLightTool = &mcp.Tool{
	Name:        "set_light",
	Title:       "Set a light",
	Description: "Sets the brightness (percent), colour or colour temperature (kelvin) of a light or of every light in a room. Give the light's name or a room, and at least one setting. Says what Home Assistant did.",
	Annotations: &mcp.ToolAnnotations{Title: "Set a light", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

func (s *server) setLight(ctx context.Context, _ *mcp.CallToolRequest, in setLightIn) (*mcp.CallToolResult, any, error) {
	if in.empty() {
		return s.needTarget(), nil, nil
	}
	args := in.args()
	if in.Brightness != nil {
		if *in.Brightness < 0 || *in.Brightness > 100 {
			return sayError(s.pick("Brightness goes from 0 to 100 percent. Nothing was changed.", "La luminosité va de 0 à 100 pour cent. Rien n'a changé.")), nil, nil
		}
		args["brightness"] = *in.Brightness
	}
	if c := strings.TrimSpace(in.Color); c != "" {
		args["color"] = c
	}
	if in.Temperature != nil {
		args["temperature"] = *in.Temperature
	}
	if len(args) == len(in.args()) {
		return sayError(s.pick("Say what to set: a brightness, a colour or a colour temperature. Nothing was changed.", "Dites quoi régler : la luminosité, la couleur ou la température de couleur. Rien n'a changé.")), nil, nil
	}
	return s.act(ctx, "HassLightSet", args), nil, nil
}
