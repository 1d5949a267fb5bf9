package actions

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"maison/approve"
	"maison/confirm"
)

// approvalTool binds the code an approval holds apart from the codes a
// client is given: presented as a confirmation, it is worthless.
func approvalTool(tool string) string { return "approve:" + tool }

// Propose makes a confirmation code for who to run tool's plan: bound to
// the call and to every entity it reaches now.
func (s *Service) Propose(who, tool string, p *Plan) (string, time.Time, error) {
	return s.cfg.Confirm.Propose(who, tool, p.Args, p.Bound())
}

// Redeem checks who's code for tool's plan and uses it up:
// confirm.ErrChanged when the call reaches other entities than when the
// code was made (the yes was for those), confirm.ErrInvalid otherwise.
func (s *Service) Redeem(who, tool string, p *Plan, code string) error {
	return s.cfg.Confirm.Redeem(who, tool, p.Args, p.Bound(), code)
}

// Asking is one request for a person's approval on maison's page.
type Asking struct {
	Who, Client, ClientName, Tool string
	Plan                          *Plan
	// What is what will happen, in the house's language, each device by
	// name and room; Where its rooms; Zone is the house's time zone, for
	// the page's times.
	What, Where, Zone string
}

// Approval is a request for a person's approval: its reference, its
// link, and whether it was made now (else it was already waiting, and the
// person was told of it then).
type Approval struct {
	approve.Action
	Link string
	New  bool
}

// AskApproval makes the reference and the link of a request for approval,
// or returns the one already waiting for the same call from the same
// client. An *approve.BusyError says too many are waiting.
func (s *Service) AskApproval(a Asking) (Approval, error) {
	args, err := json.Marshal(a.Plan.Args)
	if err != nil {
		return Approval{}, err
	}
	// The request already waiting for the same call, unless what it says
	// will happen is no longer so (a scene changed since): then a new one.
	if act, link, ok := s.cfg.Approvals.Waiting(a.Who, a.Tool, args); ok && act.What == a.What {
		return Approval{Action: act, Link: link}, nil
	}
	code, exp, err := s.cfg.Confirm.ProposeFor(a.Who, approvalTool(a.Tool), a.Plan.Args, a.Plan.Bound(), approve.TTL)
	if err != nil {
		return Approval{}, err
	}
	act, link, err := s.cfg.Approvals.Propose(approve.Action{
		Caller: a.Who, Client: a.Client, ClientName: a.ClientName, Tool: a.Tool, Canonical: a.Plan.Intent.Tool, Args: args,
		What: a.What, Where: a.Where, Zone: a.Zone, Code: code, Exp: exp.Unix(),
	})
	return Approval{Action: act, Link: link, New: err == nil}, err
}

// ApprovalOutcome is what became of reference ref for who's call: Unknown
// when it was made for another call.
func (s *Service) ApprovalOutcome(who, tool string, p *Plan, ref string) approve.Outcome {
	o := s.cfg.Approvals.Outcome(who, ref)
	if args, err := json.Marshal(p.Args); err != nil || o.For.Tool != tool || string(args) != string(o.For.Args) {
		o.State = approve.Unknown
	}
	return o
}

// Decline records that the person declined ref in the client's own window.
func (s *Service) Decline(who, ref string) { s.cfg.Approvals.Decline(who, ref) }

// ErrApprovalChanged is an approved action whose words now reach other
// entities than those the person approved: nothing is done.
var ErrApprovalChanged = errors.New("actions: the approved call now reaches other entities")

// ErrApprovalUnusable is an approved action that cannot be carried out:
// its details unreadable, its code spent or not maison's.
var ErrApprovalUnusable = errors.New("actions: the approved action cannot be used")

// CarryOut carries out what a person approved on maison's page: the call
// resolved again, acted on only while it reaches exactly the entities it
// reached when the person was asked, its code used once, one entity at a
// time.
func (s *Service) CarryOut(ctx context.Context, a approve.Action) (*Plan, Outcome, error) {
	var args map[string]any
	if err := json.Unmarshal(a.Args, &args); err != nil {
		return nil, Outcome{}, ErrApprovalUnusable
	}
	p, err := s.Plan(ctx, a.Canonical, args)
	if err != nil {
		return nil, Outcome{}, err
	}
	switch err := s.cfg.Confirm.Redeem(a.Caller, approvalTool(a.Tool), p.Args, p.Bound(), a.Code); {
	case errors.Is(err, confirm.ErrChanged):
		return p, Outcome{}, ErrApprovalChanged
	case errors.Is(err, confirm.ErrUnchecked):
		return p, Outcome{}, err // the store could not record the use: nothing is done
	case err != nil:
		return p, Outcome{}, ErrApprovalUnusable
	}
	p.Whole = false // what a person approved is done to exactly what they were shown
	o, err := s.Act(ctx, p)
	return p, o, err
}
