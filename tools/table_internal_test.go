package tools

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/camera"
	"maison/homeassistant"
	"maison/internal/scope"
)

// offlineHA is a Home Assistant that was never reached.
type offlineHA struct{ HomeAssistant }

func (offlineHA) Offline() *homeassistant.Error {
	return &homeassistant.Error{Kind: homeassistant.KindUnreachable, Op: "connect", Err: errors.New("connection refused")}
}

func (offlineHA) Status() homeassistant.Status { return homeassistant.Status{} }

// TestTheTableDefinesEachToolOnce: every tool is defined once, whole (its
// annotations, from which its scope follows, and its handler), and each of
// the house's actions wraps an Assist tool no other wraps.
func TestTheTableDefinesEachToolOnce(t *testing.T) {
	t.Parallel()
	s := &server{}
	var names, intents []string
	for _, d := range s.table() {
		if d.tool == nil || d.handle == nil || d.tool.Annotations == nil {
			t.Fatalf("a definition is not whole: %+v", d)
		}
		if slices.Contains(names, d.tool.Name) {
			t.Errorf("%s is defined twice", d.tool.Name)
		}
		names = append(names, d.tool.Name)
		if d.intent != "" {
			if slices.Contains(intents, d.intent) {
				t.Errorf("%s is wrapped twice", d.intent)
			}
			intents = append(intents, d.intent)
		}
	}
	if len(intents) == 0 || len(intents) == len(names) {
		t.Errorf("want both maison's own tools and the house's actions in the table, got %d actions of %d", len(intents), len(names))
	}
}

// TestActionsNotYetOfferedFollowTheTable: while Home Assistant has not been
// reached, each of the house's actions in the table is answered in words to
// a caller holding the scope its annotations give it, and stays unknown to
// a caller holding only the other scope; maison's own tools are never
// answered this way.
func TestActionsNotYetOfferedFollowTheTable(t *testing.T) {
	t.Parallel()
	_, s, err := newServer(Deps{HA: offlineHA{}, Live: &assist.Live{}, Cameras: &camera.Service{}}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.table() {
		need := ScopeOf(d.tool)
		holds := func(only string) func(string) bool { return func(sc string) bool { return sc == only } }
		res := s.notYetOffered(d.tool.Name, holds(need))
		if d.intent == "" {
			if res != nil {
				t.Errorf("%s, maison's own, was answered as not yet offered", d.tool.Name)
			}
			continue
		}
		if res == nil || !res.IsError {
			t.Errorf("%s with %s: want an answer in words, got %+v", d.tool.Name, need, res)
			continue
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if acts := strings.HasPrefix(text, "Nothing was done. "); acts != (need == scope.Control) {
			t.Errorf("%s with %s: %q, want an action's words only for an action", d.tool.Name, need, text)
		}
		other := scope.Read
		if need == scope.Read {
			other = scope.Control
		}
		if res := s.notYetOffered(d.tool.Name, holds(other)); res != nil {
			t.Errorf("%s with %s only: answered, want it unknown", d.tool.Name, other)
		}
	}
	for fold, need := range map[string]string{askTool: scope.Read, actTool: scope.Control} {
		if res := s.notYetOffered(fold, func(sc string) bool { return sc == need }); res == nil {
			t.Errorf("%s was not answered as not yet offered", fold)
		}
	}
	if res := s.notYetOffered(passthroughPrefix+"get_weather", func(string) bool { return true }); res != nil {
		t.Error("a tool of the passthrough's old names was answered as not yet offered")
	}
	if res := s.notYetOffered("nothing_of_the_kind", func(string) bool { return true }); res != nil {
		t.Errorf("a name nobody defines was answered: %+v", res)
	}
}
