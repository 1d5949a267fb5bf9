package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var checkTheHousePrompt = &mcp.Prompt{
	Name:        "check_the_house",
	Title:       "Check the house",
	Description: "A quick look at the home: what is open, unlocked or on, and what the cameras near recent movement show.",
}

// checkTheHouse is a ready-made request people can pick in their client.
func (s *server) checkTheHouse(_ context.Context, _ *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	text := s.deps.Lang.Pick(
		"Check on my home. First call describe_house and tell me what matters: anything open, unlocked or left on. Then, if a motion or presence sensor saw something in the last hour, look at the camera in that room (camera_snapshot, or describe_camera if we are talking by voice) and tell me what you see. Keep it short and spoken, no lists.",
		"Vérifie ma maison. Appelle d'abord describe_house et dis-moi ce qui compte : ce qui est ouvert, déverrouillé ou resté allumé. Ensuite, si un capteur de mouvement ou de présence a détecté quelque chose dans la dernière heure, regarde la caméra de cette pièce (camera_snapshot, ou describe_camera si on se parle à voix haute) et dis-moi ce que tu vois. Reste bref, à l'oral, sans listes.")
	return &mcp.GetPromptResult{
		Description: checkTheHousePrompt.Description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}
