package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/actions"
	"maison/assist"
	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// addAssistTools offers the house's actions under stable names. Home
// Assistant's own tools are listed at start: those maison knows get a
// wrapper written for the model and the ear; others pass through with
// conservative annotations, folded into ha_ask and ha_act, which follow
// Home Assistant's list as it changes (followFolds).
func (s *server) addAssistTools(ctx context.Context, srv *mcp.Server) error {
	tools, err := s.deps.HA.AssistTools(ctx)
	if err != nil {
		return fmt.Errorf("tools: listing Home Assistant's Assist tools: %w", err)
	}
	wrapped := s.wrapped()
	for _, t := range tools {
		if d, ok := wrapped[t.Canonical]; ok && actions.IntentOfTool(t.Name).How != actions.NotModeled {
			s.withArgs(srv, d)
		}
	}
	_, at := s.deps.HA.ListedTools()
	s.setFolds(srv, tools, at)
	return nil
}

// wrapped are maison's wrappers of Home Assistant's tools, by the
// canonical name of the tool each wraps.
func (s *server) wrapped() map[string]toolDef {
	out := map[string]toolDef{}
	for _, d := range s.table() {
		if d.intent != "" {
			out[d.intent] = d
		}
	}
	return out
}

// foldState is what ha_ask and ha_act were last built from.
type foldState struct {
	mu     sync.Mutex
	at     time.Time         // when Home Assistant gave the list they follow
	listed map[string]string // each fold offered, by name: its tool as JSON
}

// followFolds builds ha_ask and ha_act again when Home Assistant's tool
// list changed since they were built: a to-do list no longer shared, an
// action no longer offered, is no longer named. It never waits on Home
// Assistant; the list is the one its client last fetched.
func (s *server) followFolds(srv *mcp.Server) {
	if !s.whole.Load() {
		return
	}
	tools, at := s.deps.HA.ListedTools()
	if tools == nil {
		return
	}
	s.setFolds(srv, tools, at)
}

// setFolds offers Home Assistant's tools without a wrapper, folded, as
// tools gives them, fetched at at; a fold unchanged is left as it is.
func (s *server) setFolds(srv *mcp.Server, tools []homeassistant.Tool, at time.Time) {
	s.folds.mu.Lock()
	defer s.folds.mu.Unlock()
	if s.folds.listed != nil && !at.After(s.folds.at) {
		return // the same list, or an older one read before the lock
	}
	first := s.folds.listed == nil
	if first {
		s.folds.listed = map[string]string{}
	}
	s.folds.at = at
	reads, acts := s.foldsOf(tools)
	changed := first
	var offered []string
	for _, f := range []*fold{reads, acts} {
		prev, had := s.folds.listed[f.name]
		if len(f.actions) == 0 {
			if had {
				srv.RemoveTools(f.name)
				delete(s.folds.listed, f.name)
				changed = true
			}
			continue
		}
		tool := f.tool()
		b, _ := json.Marshal(tool)
		if !had || string(b) != prev {
			s.scopes.add(tool)
			srv.AddTool(tool, s.foldHandler(f))
			s.folds.listed[f.name] = string(b)
			changed = true
		}
		for _, p := range f.actions {
			offered = append(offered, p.action+" in "+f.name)
		}
	}
	if !changed {
		return
	}
	if len(offered) == 0 {
		offered = append(offered, "none")
	}
	s.log.Info("Home Assistant tools offered as they are (MAISON_PASSTHROUGH)", "tools", strings.Join(offered, ", "))
}

// foldsOf sorts Home Assistant's tools without a wrapper into the two
// folds: those that only read, and any other.
func (s *server) foldsOf(tools []homeassistant.Tool) (reads, acts *fold) {
	wrapped := s.wrapped()
	reads, acts = &fold{name: askTool, readOnly: true}, &fold{name: actTool}
	for _, t := range tools {
		if _, ok := wrapped[t.Canonical]; ok && actions.IntentOfTool(t.Name).How != actions.NotModeled {
			continue
		}
		if !s.deps.Passthrough.offers(t.Canonical) || !s.deps.Actions.Offers(t.Name) {
			continue // not asked for, or what it would change cannot be read (actions.Offers)
		}
		p, ok := passedOf(t)
		if !ok {
			s.log.Warn("a Home Assistant tool cannot be offered as it is: its name or an argument's is not one maison can pass on", "tool", voice.Visible(t.Name, 64))
			continue
		}
		f := acts
		if actions.IntentOfTool(t.Name).How == actions.Reads {
			f = reads
		}
		f.add(p)
	}
	return reads, acts
}

// targetIn names what an action applies to, the way Assist takes it. A
// confirmation is bound to its JSON form.
type targetIn struct {
	Name        string   `json:"name,omitempty"`
	Area        string   `json:"area,omitempty"`
	Floor       string   `json:"floor,omitempty"`
	Domain      []string `json:"domain,omitempty"`
	DeviceClass []string `json:"device_class,omitempty"`
	// areaNames, when set, stand for Area: the names and aliases of every
	// area the registry says it names. Never sent nor bound.
	areaNames []string
}

func (t targetIn) args() map[string]any {
	m := map[string]any{}
	// Sent as given: Home Assistant strips them itself, and a confirmation
	// is bound to the details exactly as the call gave them.
	for k, v := range map[string]string{"name": t.Name, "area": t.Area, "floor": t.Floor} {
		if strings.TrimSpace(v) != "" {
			m[k] = v
		}
	}
	if len(t.Domain) > 0 {
		m["domain"] = t.Domain
	}
	if len(t.DeviceClass) > 0 {
		m["device_class"] = t.DeviceClass
	}
	return m
}

func (t targetIn) empty() bool {
	return strings.TrimSpace(t.Name) == "" && strings.TrimSpace(t.Area) == "" && strings.TrimSpace(t.Floor) == ""
}

// act carries out a plan through the actions service and says what Home
// Assistant did, and anything it did that the plan did not reach.
func (s *server) act(ctx context.Context, p *actions.Plan) *mcp.CallToolResult {
	o, err := s.deps.Actions.Act(ctx, p)
	if err != nil {
		return sayError(s.actionTrouble(err))
	}
	return s.said(p, o)
}

// said says what Home Assistant reports an action did.
func (s *server) said(p *actions.Plan, o actions.Outcome) *mcp.CallToolResult {
	if len(o.Results) == 1 && o.Results[0].IsError {
		switch reason := assist.MatchReason(o.Results[0].Text); reason {
		case "", "DUPLICATE_NAME", "MULTIPLE_TARGETS":
			// Not a match failure, or one Home Assistant decides among
			// exposed entities only: its own words are safe.
		default:
			// Home Assistant weighs names, kinds, areas and floors before
			// what is exposed, so its reason could tell a hidden device
			// from none: maison says what it knows itself.
			return sayError(s.noMatch(p.Args))
		}
	}
	out := assist.SayResults(s.deps.Lang, p.Intent.Name, p.Args, o.Results)
	text := out.Text
	if len(o.Unexpected) > 0 {
		var names []string
		for _, t := range append(slices.Clone(o.Done), o.Failed...) {
			if slices.Contains(o.Unexpected, t.ID) {
				names = append(names, s.deps.Lang.Quote(t.Name, proposalName))
			}
		}
		text = voice.Paragraph(text, words.Unexpected(s.deps.Lang, names))
	}
	if out.IsError {
		return sayError(text)
	}
	return say(text)
}

// noMatch says that nothing exposed fits a call, from what maison itself
// knows: never from Home Assistant's reason, which could depend on a device
// that is not exposed. An area's existence is the area registry's, which
// says nothing of devices.
func (s *server) noMatch(args map[string]any) string {
	name, _ := args["name"].(string)
	area, _ := args["area"].(string)
	known := words.AreaUnknown
	if strings.TrimSpace(area) != "" {
		switch areas, ok := s.deps.HA.AreasReached(area, ""); {
		case ok && len(areas) > 0:
			known = words.AreaExists
		case ok:
			known = words.AreaMissing
		}
	}
	return words.NoMatch(s.deps.Lang, name, area, known)
}

func (s *server) needTarget() *mcp.CallToolResult {
	return sayError(words.NeedTarget(s.deps.Lang))
}
