package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var turnOffTool = &mcp.Tool{
	Name:        "turn_off",
	Title:       "Turn off",
	Description: "Turns off a device or every matching device in a room: lights and switches turn off, covers close, locks unlock. Give the name people use (kitchen light) or a room. Unlocking or disarming first returns a proposal to put to the person; it runs only when called again with its confirmation. For example: “switch off the lights in the living room”.",
	Annotations: &mcp.ToolAnnotations{Title: "Turn off", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: yes(), OpenWorldHint: no()},
}

func (s *server) turnOff(ctx context.Context, req *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	return s.guarded(ctx, req, "turn_off", "HassTurnOff", guardedFrom(in))
}
