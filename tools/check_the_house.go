package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/words"
)

var checkTheHousePrompt = &mcp.Prompt{
	Name:        "check_the_house",
	Title:       "Check the house",
	Description: "A quick look at the home: what is open, unlocked or on, and what the cameras near recent movement show.",
}

// checkTheHouse is a ready-made request people can pick in their client.
func (s *server) checkTheHouse(_ context.Context, _ *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	text := words.CheckTheHouse(s.deps.Lang)
	return &mcp.GetPromptResult{
		Description: checkTheHousePrompt.Description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}
