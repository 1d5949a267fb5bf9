package tools

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
)

// houseLimit bounds how many devices one answer describes, so a large house
// stays a short answer.
const houseLimit = 30

type describeHouseIn struct {
	Name   string `json:"name,omitempty" jsonschema:"only the device with this name, e.g. back door"`
	Area   string `json:"area,omitempty" jsonschema:"only this room or area, e.g. kitchen"`
	Domain string `json:"domain,omitempty" jsonschema:"only this kind of device, e.g. light, lock, cover, sensor, binary_sensor"`
}

var describeHouseTool = &mcp.Tool{
	Name:        "describe_house",
	Title:       "Describe the house",
	Description: "Says the state of the home in spoken sentences, most important first: doors and windows left open, locks not locked, lights on, temperatures, recent motion; the first sentence is a summary. Optionally narrowed to one device, room or kind of device.",
	Annotations: &mcp.ToolAnnotations{Title: "Describe the house", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

func (s *server) describeHouse(ctx context.Context, _ *mcp.CallToolRequest, in describeHouseIn) (*mcp.CallToolResult, any, error) {
	ents, err := s.deps.Live.Entities(ctx)
	if err != nil {
		if errors.Is(err, assist.ErrNoMatch) {
			ents = nil
		} else {
			return sayError(s.haTrouble(err)), nil, nil
		}
	}
	filtered := ents[:0:0]
	for _, e := range ents {
		if in.Name != "" && !hasName(e, in.Name) {
			continue
		}
		if in.Area != "" && !couldTarget(e, "", targetIn{Area: in.Area}) {
			continue
		}
		if in.Domain != "" && !strings.EqualFold(strings.TrimSpace(in.Domain), e.Domain) {
			continue
		}
		filtered = append(filtered, e)
	}
	if len(filtered) == 0 && (in.Name != "" || in.Area != "" || in.Domain != "") {
		return sayError(s.pick(
			"Nothing shared with me matches that. Ask without a filter to hear every device and room by name.",
			"Rien de ce qui m'est partagé ne correspond. Demandez sans filtre pour entendre tous les appareils et les pièces.")), nil, nil
	}
	facts := func(e assist.Entity) assist.Facts { return assist.FactsOf(s.deps.HA, e) }
	return say(assist.SayHouse(s.deps.Lang, filtered, facts, s.now(), houseLimit)), nil, nil
}

func hasName(e assist.Entity, name string) bool {
	return couldTarget(e, strings.TrimSpace(name), targetIn{})
}
