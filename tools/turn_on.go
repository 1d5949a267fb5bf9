package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var turnOnTool = &mcp.Tool{
	Name:        "turn_on",
	Title:       "Turn on",
	Description: "Turns on a device, or every matching one in a room: lights and switches on, covers open, locks lock. Opening a garage door, gate, door or valve first returns a proposal for the person; it runs when called again with its confirmation. For example: “turn on the kitchen light”.",
	Annotations: &mcp.ToolAnnotations{Title: "Turn on", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: yes(), OpenWorldHint: no()},
}

// turnOnDef is turn_on whole: the tool, its arguments, the Assist tool it wraps (HassTurnOn) and the handler.
func (s *server) turnOnDef() toolDef {
	return toolDef{tool: turnOnTool, args: guardedArgs, intent: "HassTurnOn", handle: s.turnOn}
}

func (s *server) turnOn(ctx context.Context, req *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	return s.guarded(ctx, req, "turn_on", "HassTurnOn", guardedFrom(in))
}
