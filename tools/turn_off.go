package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var turnOffTool = &mcp.Tool{
	Name:        "turn_off",
	Title:       "Turn off",
	Description: "Turns off a device or every matching device in a room: lights and switches turn off, covers close, locks unlock. Give the name people use (kitchen light) or a room. Says what Home Assistant did.",
	Annotations: &mcp.ToolAnnotations{Title: "Turn off", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: yes(), OpenWorldHint: no()},
}

func (s *server) turnOff(ctx context.Context, _ *mcp.CallToolRequest, in targetIn) (*mcp.CallToolResult, any, error) {
	if in.empty() {
		return s.needTarget(), nil, nil
	}
	return s.act(ctx, "HassTurnOff", in.args()), nil, nil
}
