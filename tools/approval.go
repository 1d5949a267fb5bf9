package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// approvalTool binds the code an approval holds apart from the codes the
// model is given: presented as a confirmation, it is worthless.
func approvalTool(tool string) string { return "approve:" + tool }

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
			s.deps.Approvals.Decline(g.who, ref)
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
	code, exp, err := s.deps.Confirm.ProposeFor(g.who, approvalTool(g.tool), g.in, g.reached, approve.TTL)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	args, err := json.Marshal(g.in)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	id, name := "local", ""
	if req != nil {
		id, name = clientOf(req)
	}
	if name == "MAISON_TOKEN" {
		name = "" // the door's name for the static token: jargon to a person, and no name the app gave
	}
	a, link, err := s.deps.Approvals.Propose(approve.Action{
		Caller: g.who, Client: id, ClientName: name, Tool: g.tool, Canonical: g.canonical, Args: args,
		What: g.action, Where: s.areasOf(g.reached), Zone: s.houseLocation().String(), Code: code, Exp: exp.Unix(),
	})
	var busy *approve.BusyError
	if errors.As(err, &busy) {
		g.note.set(stepRefused)
		return sayError(words.ApprovalBusy(s.deps.Lang, busy.Mine, approve.MaxWaitingPerClient, busy.Wait))
	}
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	g.note.set(stepProposal)
	// askApproval has no request context: Send bounds itself, a few seconds.
	sent := s.deps.Approvals.Send(context.Background(), a, link)
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
	o := s.deps.Approvals.Outcome(g.who, ref)
	if args, err := json.Marshal(g.in); err != nil || o.For.Tool != g.tool || string(args) != string(o.For.Args) {
		o.State = approve.Unknown // made for another action: this call hears nothing of it
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

// areasOf names the areas of the devices reached, for the page.
func (s *server) areasOf(reached []string) string {
	var areas []string
	for _, id := range reached {
		if en, ok := s.deps.HA.Entry(id); ok && en.Area != "" && !slices.Contains(areas, en.Area) {
			areas = append(areas, en.Area)
		}
	}
	return s.deps.Lang.List(areas)
}

// CarryOut returns what carries out an action a person approved on
// maison's page: the same path as a confirmed call, so the action runs only
// while its words still reach the devices they reached when it was asked,
// and its code works once.
func CarryOut(deps Deps) approve.CarryOut {
	s := &server{deps: deps.withDefaults()}
	s.log, s.now = s.deps.Logger, s.deps.Now
	return s.carryOut
}

func (s *server) carryOut(ctx context.Context, a approve.Action) (string, bool) {
	l := s.deps.Lang
	var in targetIn
	if err := json.Unmarshal(a.Args, &in); err != nil {
		return words.ApprovalUnusable.In(l), false
	}
	ctx, cancel := context.WithTimeout(ctx, s.deps.CallBudget)
	defer cancel()
	_, reached, _, err := s.sensitiveTargets(ctx, a.Canonical, in)
	if err != nil {
		return s.beforeAction(err), false
	}
	switch err := s.deps.Confirm.Redeem(a.Caller, approvalTool(a.Tool), in, reached, a.Code); {
	case errors.Is(err, confirm.ErrChanged):
		return words.ApprovalChanged.In(l), false
	case err != nil:
		return words.ApprovalUnusable.In(l), false
	}
	res := s.act(ctx, a.Canonical, in.args())
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	return strings.Join(text, " "), !res.IsError
}
