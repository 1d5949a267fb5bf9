package tools

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/words"
)

// setLightArgs are the target and the settings of set_light.
var setLightArgs = append(slices.Clone(targetArgs),
	argSpec{name: "brightness", kind: argInt, min: 0, max: 100,
		doc:   "Brightness in percent.",
		wants: words.WantsBrightness},
	argSpec{name: "color", kind: argText,
		doc:   "A colour, such as red.",
		wants: words.WantsColour},
	argSpec{name: "temperature", kind: argInt, min: 1000, max: 10000,
		doc:   "Colour temperature in kelvin, such as 2700 for warm light.",
		wants: words.WantsTemperature},
)

var setLightTool = &mcp.Tool{
	Name:        "set_light",
	Title:       "Set a light",
	Description: "Sets the brightness, colour or colour temperature of a light, or of every light in a room. For example: “dim the kitchen light to thirty percent”.",
	Annotations: &mcp.ToolAnnotations{Title: "Set a light", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// setLightDef is set_light whole: the tool, its arguments, the Assist tool it wraps (HassLightSet) and the handler.
func (s *server) setLightDef() toolDef {
	return toolDef{tool: setLightTool, args: setLightArgs, intent: "HassLightSet", handle: s.setLight}
}

func (s *server) setLight(ctx context.Context, _ *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	target := targetFromArgs(in)
	if target.empty() {
		return s.needTarget()
	}
	args := target.args()
	n := len(args)
	if b, ok := in.number("brightness"); ok {
		args["brightness"] = b
	}
	if c := in.text("color"); c != "" {
		args["color"] = c
	}
	if t, ok := in.number("temperature"); ok {
		args["temperature"] = t
	}
	if len(args) == n {
		return sayError(words.NothingToSet(s.deps.Lang))
	}
	p, err := s.deps.Actions.Plan(ctx, "HassLightSet", args)
	if err != nil {
		return sayError(s.refused(err, args))
	}
	if len(p.Sensitive) > 0 {
		return sayError(words.NotThroughThisAction(s.deps.Lang, []string{s.sayEffects(p.Sensitive)}))
	}
	return s.act(ctx, p)
}
