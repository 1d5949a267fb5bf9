package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var turnOffTool = &mcp.Tool{
	Name:        "turn_off",
	Title:       "Turn off",
	Description: "Turns off a device, or every matching one in a room: lights and switches off, covers close, locks unlock. Unlocking or disarming first returns a proposal for the person; it runs when called again with its confirmation. For example: “switch off the lights in the living room”.",
	Annotations: &mcp.ToolAnnotations{Title: "Turn off", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: yes(), OpenWorldHint: no()},
}

// turnOffDef is turn_off whole: the tool, its arguments, the Assist tool it wraps (HassTurnOff) and the handler.
func (s *server) turnOffDef() toolDef {
	return toolDef{tool: turnOffTool, args: guardedArgs, intent: "HassTurnOff", handle: s.turnOff}
}

func (s *server) turnOff(ctx context.Context, req *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	return s.guarded(ctx, req, "turn_off", "HassTurnOff", guardedFrom(in))
}
