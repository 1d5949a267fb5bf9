package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var turnOnTool = &mcp.Tool{
	Name:        "turn_on",
	Title:       "Turn on",
	Description: "Turns on a device or every matching device in a room: lights and switches turn on, covers such as blinds or a garage door open, locks lock. Give the name people use (kitchen light) or a room. Says what Home Assistant did.",
	Annotations: &mcp.ToolAnnotations{Title: "Turn on", ReadOnlyHint: false, IdempotentHint: true, DestructiveHint: yes(), OpenWorldHint: no()},
}

func (s *server) turnOn(ctx context.Context, _ *mcp.CallToolRequest, in targetIn) (*mcp.CallToolResult, any, error) {
	if in.empty() {
		return s.needTarget(), nil, nil
	}
	return s.act(ctx, "HassTurnOn", in.args()), nil, nil
}
