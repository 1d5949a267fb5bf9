package tools

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/words"
)

// houseLimit bounds how many devices one answer describes one by one, so a
// large house stays one answer a voice can read: the rest are counted by
// the rooms that hold them, which the model can ask for. Sixty covers what
// most houses expose to Assist, every one of the real test house's.
const houseLimit = 60

// describeHouseArgs narrow the answer.
var describeHouseArgs = []argSpec{
	{name: "name", kind: argText, doc: "Only this device, such as back door.",
		wants: words.WantsHouseName},
	{name: "area", kind: argText, doc: "Only this room, such as kitchen.",
		wants: words.WantsArea},
	{name: "domain", kind: argTextList, doc: "Only these kinds of device, such as light or lock.",
		wants: words.WantsDomain},
}

var describeHouseTool = &mcp.Tool{
	Name:        "describe_house",
	Title:       "Describe the house",
	Description: "Says the state of everything the home shares with Assist, most important first, after a one-sentence summary; or of one device, room or kind of device. For example: “did I leave anything open?”",
	Annotations: &mcp.ToolAnnotations{Title: "Describe the house", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// describeHouseDef is describe_house whole: the tool, its arguments, the Assist tool it wraps (GetLiveContext) and the handler.
func (s *server) describeHouseDef() toolDef {
	return toolDef{tool: describeHouseTool, args: describeHouseArgs, intent: "GetLiveContext", handle: s.describeHouse}
}

func (s *server) describeHouse(ctx context.Context, _ *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	name, area, domains := in.text("name"), in.text("area"), in.list("domain")
	ents, err := s.deps.Live.Entities(ctx)
	if err != nil {
		if errors.Is(err, assist.ErrNoMatch) {
			ents = nil
		} else {
			return sayError(s.haTrouble(err))
		}
	}
	filtered := ents[:0:0]
	inArea, _ := s.areaTarget(area, "")
	for _, e := range ents {
		if name != "" && !hasName(e, name) {
			continue
		}
		if area != "" && !couldTarget(e, "", inArea) {
			continue
		}
		if len(domains) > 0 && !slices.ContainsFunc(domains, func(d string) bool { return strings.EqualFold(strings.TrimSpace(d), e.Domain) }) {
			continue
		}
		filtered = append(filtered, e)
	}
	if len(filtered) == 0 && (name != "" || area != "" || len(domains) > 0) {
		return sayError(words.NothingMatches(s.deps.Lang))
	}
	facts := func(e assist.Entity) assist.Facts { return assist.FactsOf(s.deps.HA, e) }
	return say(assist.SayHouse(s.deps.Lang, filtered, facts, s.now(), houseLimit))
}

func hasName(e assist.Entity, name string) bool {
	return couldTarget(e, strings.TrimSpace(name), targetIn{})
}
