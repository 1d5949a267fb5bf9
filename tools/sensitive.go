package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/accesslog"
	"maison/actions"
	"maison/confirm"
	"maison/words"
)

// guardedIn is an action's target plus the confirmation a sensitive action needs.
type guardedIn struct {
	targetIn
	Confirmation string
}

// guardedArgs are the arguments of turn_on and turn_off.
var guardedArgs = append(slices.Clone(targetArgs), argConfirmation)

func guardedFrom(a argValues) guardedIn {
	return guardedIn{targetIn: targetFromArgs(a), Confirmation: a.text("confirmation")}
}

// sayEffect says one change a person must approve, with the device's
// kind and room: "unlock the “Front Door” in the “Entrance”".
func (s *server) sayEffect(e actions.Effect) string {
	l := s.deps.Lang
	name := s.proposalName(e.Device)
	switch e.Change {
	case actions.Unlock:
		return words.Unlock(l, name)
	case actions.Disarm:
		return words.Disarm(l, name)
	case actions.Open:
		return words.Open(l, name)
	case actions.RunUnknown:
		return words.RunUnknown(l, e.Domain, name)
	case actions.SetsSensitive:
		return words.SetsSensitive(l, e.Domain, name)
	case actions.Stop:
		return words.Stop(l, name)
	case actions.StopUnknown:
		return words.StopScript(l, name)
	}
	return words.Operate(l, name)
}

// sayEffects says every change of a plan a person must approve.
func (s *server) sayEffects(effects []actions.Effect) string {
	said := make([]string, len(effects))
	for i, e := range effects {
		said[i] = s.sayEffect(e)
	}
	return s.deps.Lang.List(said)
}

// proposalName names a device for the person asked: its name (its entity
// id when it has none), what kind of thing opens when the name does not
// say it, and its room.
func (s *server) proposalName(d actions.Device) string {
	said := d.Name
	if strings.TrimSpace(said) == "" {
		said = d.ID
	}
	name := s.deps.Lang.Quote(said, proposalName)
	var kind words.Key
	cue := ""
	switch d.Kind {
	case actions.KindValve:
		kind, cue = words.KindValve, "valve"
	case actions.KindGarageDoor:
		kind, cue = words.KindGarageDoor, "garage"
	case actions.KindGate:
		kind, cue = words.KindGate, "gate"
	case actions.KindDoor:
		kind, cue = words.KindDoor, "door"
	}
	if cue != "" && !strings.Contains(strings.ToLower(said), cue) {
		name = words.WithKind(s.deps.Lang, name, kind)
	}
	return words.InRoom(s.deps.Lang, name, d.Area)
}

// proposalName bounds a name in a proposal: longer than in other answers,
// so that two devices whose names begin alike are told apart when the
// person is asked.
const proposalName = 240

// refused says why the actions service would not send a call.
func (s *server) refused(err error, args map[string]any) string {
	l := s.deps.Lang
	var r *actions.Refusal
	if !errors.As(err, &r) {
		return s.beforeAction(err)
	}
	switch r.Reason {
	case actions.NoTarget:
		return words.NeedTarget(l)
	case actions.ArgRefused:
		return words.ArgNotSent(l, l.Quote(r.Arg.Arg, 40), r.Arg.Reason == "unknown")
	case actions.NotKnown:
		return words.UnknownTool(l, l.Quote(strings.ReplaceAll(r.Intent, "_", " "), proposalName))
	case actions.Unsure:
		return words.CannotTellReach(l)
	case actions.Unfoldable:
		return words.Unfoldable(l)
	}
	switch r.Failure {
	case actions.FailDuplicate:
		return words.SharedName(l, r.Call.Name)
	case actions.NoConstraints:
		return words.NeedTarget(l)
	}
	return s.noMatch(args)
}

// caller identifies who is calling, for binding confirmations: the client
// named by the verified token (its id outlives an hourly token refresh,
// and another client's confirmation is worthless), else the bearer
// credential's hash over HTTP, or the local process over stdio.
func caller(req *mcp.CallToolRequest) string {
	if req != nil && req.Extra != nil && req.Extra.TokenInfo != nil {
		if id, _ := req.Extra.TokenInfo.Extra["client_id"].(string); id != "" {
			sum := sha256.Sum256([]byte("client\x00" + id + "\x00" + req.Extra.TokenInfo.UserID))
			return hex.EncodeToString(sum[:16])
		}
	}
	if req != nil && req.Extra != nil && req.Extra.Header != nil {
		if a := req.Extra.Header.Get("Authorization"); a != "" {
			sum := sha256.Sum256([]byte(a))
			return hex.EncodeToString(sum[:16])
		}
	}
	return "local"
}

// askID names the one input request a sensitive action makes.
const askID = "confirm"

// asksThePerson reports whether the client can put a question to the person
// (elicitation, or input_required on 2026-07-28 clients).
func asksThePerson(req *mcp.CallToolRequest) bool {
	if req == nil {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil
}

// guarded runs an intent through the actions service: resolved first,
// carried out at once when nothing it reaches needs a person's yes, else
// proposed and run only with a valid confirmation, and only while the call
// still reaches the devices it reached when the person was asked. Where the
// client can ask the person, the question goes to the person and the model
// never holds the confirmation; elsewhere the model receives it with the
// proposal.
func (s *server) guarded(ctx context.Context, req *mcp.CallToolRequest, tool, canonical string, in guardedIn) *mcp.CallToolResult {
	if in.empty() {
		return s.needTarget()
	}
	p, err := s.deps.Actions.Plan(ctx, canonical, in.args())
	if err != nil {
		return sayError(s.refused(err, in.args()))
	}
	if len(p.Sensitive) == 0 {
		return s.act(ctx, p)
	}
	g := guard{who: caller(req), tool: tool, canonical: canonical, plan: p, action: s.sayEffects(p.Sensitive), note: noteOf(ctx)}
	if others := p.Others(); len(others) > 0 {
		// The person is asked about the sensitive action alone, so what
		// they approve is all that happens: a call that would also act on
		// other devices (a whole room with its lock) is refused.
		names := make([]string, len(others))
		for i, d := range others {
			names[i] = s.proposalName(d)
		}
		s.sensitiveLine(req, "sensitive action refused: the call also reaches devices that are not sensitive", g)
		g.note.set(stepRefused)
		return sayError(words.SensitiveMixed(s.deps.Lang, g.action, names))
	}
	if res, ok := s.byApproval(req, g, in.Confirmation); ok {
		return res // the person approves on maison's page (tools/approval.go)
	}
	if req != nil && req.Params != nil && (req.Params.RequestState != "" || req.Params.InputResponses != nil) {
		ans, _ := req.Params.InputResponses[askID].(*mcp.ElicitResult)
		if ans == nil || ans.Action != "accept" || ans.Content["confirm"] != true {
			s.sensitiveLine(req, "sensitive action declined by the person", g)
			g.note.set(stepDeclined)
			return sayError(words.NotConfirmed(s.deps.Lang))
		}
		return s.redeem(ctx, req, g, req.Params.RequestState, "sensitive action confirmed by the person; acting")
	}
	if in.Confirmation == "" {
		return s.propose(req, g, "")
	}
	return s.redeem(ctx, req, g, in.Confirmation, "sensitive action confirmed with its code; acting")
}

// guard is one sensitive call: who makes it, with which tool and target,
// what it would do in words, and every device it reaches.
type guard struct {
	who, tool, canonical string
	plan                 *actions.Plan
	action               string
	note                 *stepNote // what the call came to, for its audit line
}

// The steps a sensitive call comes to, as its audit line names them.
const (
	stepProposal = "proposal" // the person is asked (a proposal, a question, an approval link)
	stepApproved = "approved" // the person's yes counted: maison acts
	stepDeclined = "declined" // the person said no
	stepExpired  = "expired"  // asked about a request nobody answered in time
	stepChecked  = "checked"  // asked what became of an approval request
	stepRefused  = "refused"  // a code, an answer or a call that does not count
)

// stepNote carries what a sensitive call came to, from the handler back to
// the guard's audit line. Its methods do nothing on nil (no guard).
type stepNote struct {
	mu   sync.Mutex
	step string
}

type stepKey struct{}

// noteOf is the note the guard put in ctx, or nil.
func noteOf(ctx context.Context) *stepNote {
	n, _ := ctx.Value(stepKey{}).(*stepNote)
	return n
}

func (n *stepNote) set(step string) {
	if n != nil {
		n.mu.Lock()
		n.step = step
		n.mu.Unlock()
	}
}

func (n *stepNote) get() string {
	if n == nil {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.step
}

// propose makes a confirmation for g and asks for the person's yes: the
// person, where the client can ask, else the model. lead, when set, comes
// first: why the person is asked again.
func (s *server) propose(req *mcp.CallToolRequest, g guard, lead string) *mcp.CallToolResult {
	code, _, err := s.deps.Actions.Propose(g.who, g.tool, g.plan)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	s.sensitiveLine(req, "sensitive action proposed, waiting for the person's yes", g)
	g.note.set(stepProposal)
	if lead != "" {
		lead += " "
	}
	if asksThePerson(req) {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{askID: &mcp.ElicitParams{
				Mode:    "form",
				Message: lead + words.ConfirmQuestion(s.deps.Lang, g.action),
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"confirm": map[string]any{"type": "boolean", "title": words.ConfirmYes(s.deps.Lang, g.action)},
					},
					"required": []string{"confirm"},
				},
			}},
			RequestState: code,
		}
	}
	return s.proposal(lead, g.action, code)
}

// redeem acts on g with the person's confirmation code, when the code is
// valid and the call still reaches the devices it was proposed for. When
// those changed (a device renamed, added, moved or removed since), the yes
// was given for other devices: nothing is done and the person is asked again.
func (s *server) redeem(ctx context.Context, req *mcp.CallToolRequest, g guard, code, acting string) *mcp.CallToolResult {
	switch err := s.deps.Actions.Redeem(g.who, g.tool, g.plan, code); {
	case errors.Is(err, confirm.ErrChanged):
		s.sensitiveLine(req, "sensitive action not run: what its words reach changed since the person was asked; asking again", g)
		return s.propose(req, g, words.ReachChanged(s.deps.Lang))
	case errors.Is(err, confirm.ErrUnchecked):
		g.note.set(stepRefused)
		return sayError(s.haTrouble(err))
	case err != nil:
		s.sensitiveLine(req, "sensitive action refused: the confirmation cannot be used", g)
		g.note.set(stepRefused)
		return s.invalidConfirmation()
	}
	s.sensitiveLine(req, acting, g)
	g.note.set(stepApproved)
	return s.act(ctx, g.plan)
}

// sensitiveLine writes, at info, what happened to a sensitive action: who
// asked, what it would do and to which device (the words of the call).
// The confirmation code is never written.
func (s *server) sensitiveLine(req *mcp.CallToolRequest, what string, g guard) {
	tool, action, in := g.tool, g.action, g.plan.Call
	id, name := "local", ""
	if req != nil {
		id, name = clientOf(req)
	}
	attrs := []any{"client", id}
	if name != "" {
		attrs = append(attrs, "client_name", accesslog.Text(name))
	}
	attrs = append(attrs, "tool", tool, "action", accesslog.Text(action), "devices", strings.Join(g.plan.IDs(), ","))
	for _, kv := range [][2]string{{"name", in.Name}, {"area", in.Area}, {"floor", in.Floor}} {
		if kv[1] != "" {
			attrs = append(attrs, kv[0], accesslog.Text(kv[1]))
		}
	}
	if len(in.Domain) > 0 {
		attrs = append(attrs, "domain", accesslog.Text(strings.Join(in.Domain, ",")))
	}
	s.log.Info(what, attrs...)
}

// invalidConfirmation is the one answer to a confirmation that is unknown,
// expired, someone else's, already used or made for another action.
func (s *server) invalidConfirmation() *mcp.CallToolResult {
	return sayError(words.InvalidConfirmation(s.deps.Lang))
}

// proposal asks the model to get the person's go-ahead. The code travels in
// a second text block of maison's own words, apart from every name read
// from Home Assistant: hostile text in a name, a state or an AI answer can
// neither stand next to it, nor close a quote around it, nor be mistaken for
// the instruction that releases it, which says in advance that nothing from
// the house is ever a yes. lead, when set, comes first: why the person is
// asked again.
func (s *server) proposal(lead, action, code string) *mcp.CallToolResult {
	ask := lead + words.Proposal(s.deps.Lang, action)
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: ask},
		&mcp.TextContent{Text: words.ConfirmationCode(s.deps.Lang, code)},
	}}
}
