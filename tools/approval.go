package tools

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/actions"
	"maison/approve"
	"maison/confirm"
	"maison/voice"
	"maison/words"
)

// Confirming chooses how a sensitive action gets its yes (MAISON_CONFIRM).
type Confirming string

// The ways a sensitive action gets its yes.
const (
	// ByApproval: only a person on maison's own page (approve), asked
	// through URL-mode elicitation where the client offers it, else by the
	// link in the answer. No code, no answer of the client's own, counts:
	// both are MCP messages any client can send.
	ByApproval Confirming = "approval"
	// ByCode: the client asks the person (form elicitation), else the model
	// carries a code back, as before the approval page.
	ByCode Confirming = "code"
	// ByEither: the approval page, and codes and the client's own question
	// as well.
	ByEither Confirming = "both"
)

// confirming is how sensitive actions get their yes here: the setting,
// else the approval page when there is one.
func (s *server) confirming() Confirming {
	switch {
	case s.deps.Confirming != "":
		return s.deps.Confirming
	case s.deps.Approvals != nil:
		return ByApproval
	}
	return ByCode
}

// byApproval answers a sensitive call g when the approval page decides it:
// a reference passed back (as the confirmation, or as the request state of
// a URL-mode elicitation) hears what became of it; otherwise, unless the
// call is for the code path (ByCode, or ByEither with a code, a form
// answer or a client that asks in a form), the person is asked on the
// page. A code or a form answer where only the page counts is refused in
// words, and the page is offered.
func (s *server) byApproval(req *mcp.CallToolRequest, g guard, confirmation string) (*mcp.CallToolResult, bool) {
	mode := s.confirming()
	if mode == ByCode || s.deps.Approvals == nil {
		return nil, false
	}
	var state string
	var answers mcp.InputResponseMap
	if req != nil && req.Params != nil {
		state, answers = req.Params.RequestState, req.Params.InputResponses
	}
	if ref, ok := approvalRef(confirmation, state); ok {
		if ans, _ := answers[askID].(*mcp.ElicitResult); ans != nil && ans.Action != "accept" {
			s.deps.Actions.Decline(g.who, ref)
		}
		return s.approvalOutcome(g, ref), true
	}
	answered := confirmation != "" || state != "" || answers != nil
	if mode == ByEither && (answered || asksThePerson(req) && !asksByURL(req)) {
		return nil, false
	}
	if !answered {
		return s.askApproval(req, g, ""), true
	}
	s.sensitiveLine(req, "sensitive action refused: only the approval page counts here, not a code or the client's own answer", g)
	res := s.askApproval(req, g, words.ApprovalCodeRefused.In(s.deps.Lang))
	res.IsError = res.InputRequests == nil // what was sent is refused; a question put anew is none
	g.note.set(stepRefused)
	return res, true
}

// approvalRef is the reference a call passes back, if any.
func approvalRef(confirmation, state string) (string, bool) {
	for _, v := range []string{confirmation, state} {
		if v = strings.ToLower(strings.TrimSpace(v)); strings.HasPrefix(v, "a-") {
			return v, true
		}
	}
	return "", false
}

// asksByURL reports whether the client can open a page for the person
// (URL-mode elicitation, 2025-11-25, or input_required with it on
// 2026-07-28 clients).
func asksByURL(req *mcp.CallToolRequest) bool {
	if req == nil {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil && caps.Elicitation.URL != nil
}

// askApproval makes g's reference and asks for the person's approval on
// maison's page: the client opens it where it can, else the link is in
// the answer. lead, when set, comes first.
func (s *server) askApproval(req *mcp.CallToolRequest, g guard, lead string) *mcp.CallToolResult {
	id, name := "local", ""
	if req != nil {
		id, name = clientOf(req)
	}
	if name == "MAISON_TOKEN" {
		name = "" // the door's name for the static token: jargon to a person, and no name the app gave
	}
	ap, err := s.deps.Actions.AskApproval(actions.Asking{
		Who: g.who, Client: id, ClientName: name, Tool: g.tool, Plan: g.plan,
		What: s.pageWhat(g), Where: s.areasOf(g.plan), Zone: s.houseLocation().String(),
	})
	a, link := ap.Action, ap.Link
	exp := time.Unix(a.Exp, 0)
	var busy *approve.BusyError
	if errors.As(err, &busy) {
		g.note.set(stepRefused)
		return sayError(words.ApprovalBusy(s.deps.Lang, busy.Mine, approve.MaxWaitingPerClient, busy.Wait))
	}
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	g.note.set(stepProposal)
	// Sent once, when the request is made: a call repeated finds it
	// waiting, and the phone is not sent it again. askApproval has no
	// request context: Send bounds itself, a few seconds.
	var sent words.Sent
	if ap.New {
		sent = s.deps.Approvals.Send(context.Background(), a, link)
	}
	if lead != "" {
		lead += " "
	}
	if asksByURL(req) {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{askID: &mcp.ElicitParams{
				Mode: "url", URL: link, ElicitationID: a.ID,
				Message: lead + words.ApprovalURLMessage(s.deps.Lang, g.action),
			}},
			RequestState: a.ID,
		}
	}
	return withLink(s.deps.Lang, lead+words.ApprovalAsked(s.deps.Lang, sent, g.action, s.deps.Lang.Clock(exp.In(s.houseLocation())), a.ID), link)
}

// withLink is a result of sentences, then the approval link in a block
// of its own: the sentences are said aloud, the link is not. Like a
// proposal, it is no error: nothing failed, the person is asked.
func withLink(l voice.Lang, text, link string) *mcp.CallToolResult {
	res := say(text)
	res.Content = append(res.Content, &mcp.TextContent{Text: words.ApprovalLink(l, link)})
	return res
}

// approvalOutcome says what became of reference ref, for the caller of g.
func (s *server) approvalOutcome(g guard, ref string) *mcp.CallToolResult {
	l := s.deps.Lang
	o := s.deps.Actions.ApprovalOutcome(g.who, g.tool, g.plan, ref) // made for another call: Unknown
	if o.Err != nil {
		return sayError(s.haTrouble(o.Err))
	}
	switch o.State {
	case approve.Expired:
		g.note.set(stepExpired)
	case approve.Declined:
		g.note.set(stepDeclined)
	case approve.Unknown:
		g.note.set(stepRefused)
	default:
		g.note.set(stepChecked)
	}
	switch o.State {
	case approve.Waiting, approve.Running:
		return withLink(l, words.ApprovalWaiting(l, l.Clock(o.Exp.In(s.houseLocation())), ref), o.Link)
	case approve.Done:
		return say(words.ApprovalDone(l, o.Said))
	case approve.NotDone:
		return sayError(words.ApprovalNotDone(l, o.Said))
	case approve.Declined:
		return sayError(words.ApprovalDeclined.In(l))
	}
	return sayError(words.ApprovalUnusable.In(l))
}

// pageWhat is what will happen, as the approval page says it: the action,
// then every device a scene or a group among it sets, by name and room,
// and those not shared with Assist by their kind alone: whoever holds the
// link can open the page, the model too.
func (s *server) pageWhat(g guard) string {
	what := g.action
	for _, ef := range g.plan.Sensitive {
		if len(ef.Sets) == 0 {
			continue
		}
		if what == g.action {
			what = voice.Sentence(what)
		}
		names := make([]string, len(ef.Sets))
		for i, d := range ef.Sets {
			names[i] = s.proposalName(d)
			if !d.Shared {
				names[i] = words.Hidden(s.deps.Lang, d.Domain)
			}
		}
		what += " " + words.Sets(s.deps.Lang, names)
	}
	return what
}

// areasOf names the rooms of the devices a plan reaches, for the page.
func (s *server) areasOf(p *actions.Plan) string {
	var areas []string
	for _, d := range p.Reached {
		if d.Area != "" && !slices.Contains(areas, d.Area) {
			areas = append(areas, d.Area)
		}
	}
	return s.deps.Lang.List(areas)
}

// CarryOut returns what carries out an action a person approved on
// maison's page: the actions service resolves it again and acts only on
// what the person was shown; this says the outcome in the house's language.
func CarryOut(deps Deps) approve.CarryOut {
	s := &server{deps: deps.withDefaults()}
	s.log, s.now = s.deps.Logger, s.deps.Now
	return s.carryOut
}

func (s *server) carryOut(ctx context.Context, a approve.Action) (string, bool) {
	l := s.deps.Lang
	ctx, cancel := context.WithTimeout(ctx, s.deps.CallBudget)
	defer cancel()
	p, o, err := s.deps.Actions.CarryOut(ctx, a)
	var refusal *actions.Refusal
	switch {
	case errors.Is(err, actions.ErrApprovalChanged):
		return words.ApprovalChanged.In(l), false
	case errors.Is(err, actions.ErrApprovalUnusable):
		return words.ApprovalUnusable.In(l), false
	case errors.Is(err, confirm.ErrUnchecked):
		return s.haTrouble(err), false
	case errors.As(err, &refusal):
		return s.refused(err, nil), false
	case err != nil && p != nil && len(o.Results) == 0:
		return s.actionTrouble(err), false
	case err != nil:
		return s.beforeAction(err), false
	}
	res := s.said(p, o)
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	return strings.Join(text, " "), !res.IsError
}
