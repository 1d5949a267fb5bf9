// Package actions decides what a call to act on the house reaches, and
// whether a person must approve it, before anything is sent to Home
// Assistant; then carries it out on exactly the entities it named.
//
// maison does not guess what Home Assistant will do with a call's words
// and forward what it cannot predict. A call is resolved here, with Home
// Assistant's own rules (Match, held to Home Assistant's code by the
// real-house tests), to the entities it reaches; a call it cannot resolve,
// or whose words it does not model, is refused. What reaches several
// entities that are all harmless goes as it came; anything else goes one
// entity at a time, by entity id, so that Home Assistant acts on nothing
// maison did not name. What Home Assistant reports it acted on is compared
// with what was resolved, and a difference is an alarm. The package returns
// facts and typed errors; the tools put them in words.
package actions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"maison/approve"
	"maison/assist"
	"maison/confirm"
	"maison/homeassistant"
)

// HomeAssistant is what the service needs of the Home Assistant client.
type HomeAssistant interface {
	CallAssist(ctx context.Context, canonical string, args map[string]any) (homeassistant.ToolResult, error)
	States() []homeassistant.State
	Registry() homeassistant.Registry
	// Changed is closed at the next change of what the client holds.
	Changed() <-chan struct{}
}

// Config is what the service is built from.
type Config struct {
	HA   HomeAssistant // required
	Live *assist.Live  // required: what is exposed to Assist, read afresh for each decision
	// Safe are entity ids the operator says are safe to act on without a
	// person (MAISON_SAFE): a script, a scene or a button whose effects
	// maison cannot read but the operator knows.
	Safe []string
	// Confirm signs confirmations; Approvals is maison's approval page
	// (nil: none).
	Confirm   *confirm.Signer
	Approvals *approve.Desk
	Logger    *slog.Logger // nil: discard
}

// Service resolves and carries out the house's actions.
type Service struct {
	cfg Config
	log *slog.Logger
}

// New returns the service.
func New(cfg Config) *Service {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg, log: log}
}

// House reads the house as it is now: the live context afresh, the states
// and the registries. A registry change Home Assistant announced and the
// client is still reading is waited for, a little (registryWait): until it
// is read, nothing of the house is known for sure.
func (s *Service) House(ctx context.Context) (House, error) {
	reg := s.registry(ctx)
	live, err := s.cfg.Live.Fresh(ctx)
	if err != nil && !errors.Is(err, assist.ErrNoMatch) {
		return House{}, err
	}
	return BuildHouse(s.cfg.HA.States(), reg, live), nil
}

// registryWait bounds the wait for a registry change to be read.
const registryWait = 3 * time.Second

func (s *Service) registry(ctx context.Context) homeassistant.Registry {
	deadline := time.NewTimer(registryWait)
	defer deadline.Stop()
	for {
		changed := s.cfg.HA.Changed()
		reg := s.cfg.HA.Registry()
		if !reg.Stale {
			return reg
		}
		select {
		case <-changed:
		case <-deadline.C:
			return reg
		case <-ctx.Done():
			return reg
		}
	}
}

// Plan is what a call would do, decided before anything is sent.
type Plan struct {
	Intent Intent
	// Args are what is sent to Home Assistant when the call goes as it came.
	Args map[string]any
	// Call and Values are Args read: the target, and the other values.
	Call   Call
	Values map[string]any
	// Reached are the entities the call reaches, sorted by id (for an
	// intent maison resolves; none for one it only reads or one bounded to
	// harmless domains).
	Reached []Device
	// Sensitive are the changes among them that a person must approve.
	Sensitive []Effect
	// Whole is set when the call goes to Home Assistant as it came: it only
	// reads, it is bounded to harmless domains, or whatever its words
	// reach of the domains it may touch, nothing there is sensitive.
	Whole bool
}

// IDs are the ids of the entities the plan reaches.
func (p *Plan) IDs() []string {
	out := make([]string, len(p.Reached))
	for i, d := range p.Reached {
		out[i] = d.ID
	}
	return out
}

// Bound is what a person's yes for the plan is bound to: every entity it
// reaches, and every device a scene or a group among them sets, so that a
// scene changed since the person was asked voids the yes.
func (p *Plan) Bound() []string {
	out := p.IDs()
	for _, ef := range p.Sensitive {
		for _, d := range ef.Sets {
			out = append(out, "sets:"+ef.ID+":"+d.ID)
		}
	}
	return out
}

// Others are the devices reached that are not sensitive.
func (p *Plan) Others() []Device {
	var out []Device
	for _, d := range p.Reached {
		if !slices.ContainsFunc(p.Sensitive, func(e Effect) bool { return e.ID == d.ID }) {
			out = append(out, d)
		}
	}
	return out
}

// Refusal is a call maison does not send, and why.
type Refusal struct {
	Reason Reason
	// Arg is the argument refused (ArgRefused).
	Arg *ArgError
	// Failure is why nothing matches (NoMatch).
	Failure Failure
	Call    Call
	// Intent is the tool refused (NotModeled).
	Intent string
}

// Reason says why a call is refused.
type Reason int

// The reasons a call is refused.
const (
	NoTarget   Reason = iota + 1 // it names nothing to act on
	ArgRefused                   // an argument maison does not model
	NotKnown                     // a tool whose effects maison does not know
	Unsure                       // its words reach entities maison cannot tell about
	Unfoldable                   // a word holds characters Home Assistant may compare otherwise
	NoMatch                      // it reaches nothing (or a name two devices share)
)

func (r *Refusal) Error() string {
	return fmt.Sprintf("actions: call refused (reason %d, failure %q)", r.Reason, r.Failure)
}

// Offers reports whether a Home Assistant tool, by the name it advertises,
// may be offered to clients: one maison models, or a script's own tool the
// operator lists as safe by its entity id (script.goodnight for
// script__goodnight). A tool whose effects maison cannot read is otherwise
// not offered, and refused.
func (s *Service) Offers(tool string) bool {
	in := IntentOfTool(tool)
	return in.How != NotModeled || in.Script != "" && slices.Contains(s.cfg.Safe, "script."+in.Script)
}

// Plan resolves a call to a Home Assistant tool, by the name it advertises
// (or, for maison's own wrappers, its canonical name), with args.
func (s *Service) Plan(ctx context.Context, tool string, args map[string]any) (*Plan, error) {
	in := IntentOfTool(tool)
	switch in.How {
	case Reads, Bounded:
		return &Plan{Intent: in, Args: args, Whole: true}, nil
	case NotModeled:
		if !s.Offers(tool) {
			return nil, &Refusal{Reason: NotKnown, Intent: in.Name}
		}
		return &Plan{Intent: in, Args: args, Whole: true}, nil
	}
	call, values, err := in.Read(args)
	var ae *ArgError
	if errors.As(err, &ae) {
		return nil, &Refusal{Reason: ArgRefused, Arg: ae}
	}
	if call.Name == "" && call.Area == "" && call.Floor == "" && in.Domains == nil && call.Domain == nil && call.DeviceClass == nil {
		return nil, &Refusal{Reason: NoTarget}
	}
	house, err := s.House(ctx)
	if err != nil {
		return nil, err
	}
	m := house.Match(in, call)
	switch {
	case m.Unfoldable:
		return nil, &Refusal{Reason: Unfoldable, Call: call}
	case len(m.Unsure) > 0:
		s.log.Info("a call was refused: its words reach entities maison cannot tell about", "intent", in.Name, "entities", len(m.Unsure))
		return nil, &Refusal{Reason: Unsure, Call: call}
	case m.Failure != Matched:
		return nil, &Refusal{Reason: NoMatch, Failure: m.Failure, Call: call}
	}
	p := &Plan{Intent: in, Call: call, Values: values, Args: sent(call, values)}
	for _, id := range m.IDs {
		e, _ := house.Entity(id)
		p.Reached = append(p.Reached, house.device(e))
		if ef := house.effect(in, values, e, s.cfg.Safe); ef.Change != NoChange {
			p.Sensitive = append(p.Sensitive, ef)
		}
	}
	p.Whole = len(p.Sensitive) == 0 && len(p.Reached) > 1 && house.harmlessBound(in, call, values, s.cfg.Safe)
	return p, nil
}

// sent is the arguments a call is sent with as it came: its target as
// read, and its values.
func sent(c Call, values map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range map[string]string{"name": c.Name, "area": c.Area, "floor": c.Floor} {
		if v != "" {
			out[k] = v
		}
	}
	if c.Domain != nil {
		out["domain"] = c.Domain
	}
	if c.DeviceClass != nil {
		out["device_class"] = c.DeviceClass
	}
	for k, v := range values {
		out[k] = v
	}
	return out
}

// harmlessBound reports whether every exposed entity of the domains a call
// may touch (its own domains, else its intent's, else every domain) could
// be acted on without a person: then, however Home Assistant reads the
// call's other words, it acts on nothing sensitive.
func (h House) harmlessBound(in Intent, c Call, values map[string]any, safe []string) bool {
	domains := in.Domains
	if c.Domain != nil {
		domains = c.Domain
	}
	for _, e := range h.Entities {
		if e.Exposed == No || domains != nil && !slices.Contains(domains, e.Domain) {
			continue
		}
		if h.effect(in, values, e, safe).Change != NoChange {
			return false
		}
	}
	return true
}

// Outcome is what Home Assistant reports a call did.
type Outcome struct {
	// Done and Failed are the entities Home Assistant reports it acted on,
	// and those it could not act on, as it names them.
	Done, Failed []Target
	// Errors are Home Assistant's answers to calls that failed as a whole,
	// as it wrote them.
	Errors []homeassistant.ToolResult
	// Results are the raw answers (a call that reads or is bounded: one).
	Results []homeassistant.ToolResult
	// Unexpected are entities Home Assistant reports acting on that the
	// plan did not reach; Missing those the plan reached that it reports
	// nothing of. Either is an alarm, logged as such.
	Unexpected, Missing []string
}

// Target is one entity Home Assistant names in its answer.
type Target struct{ ID, Name string }

// Act carries out a plan: as one call when it goes whole, else once for
// each entity it reaches, by entity id, so that Home Assistant can act on
// nothing else. It then compares what Home Assistant reports with the plan.
func (s *Service) Act(ctx context.Context, p *Plan) (Outcome, error) {
	var o Outcome
	if p.Whole {
		res, err := s.cfg.HA.CallAssist(ctx, p.Intent.Tool, p.Args)
		if err != nil {
			return o, err
		}
		o.add(res)
	} else {
		for _, d := range p.Reached {
			args := map[string]any{"name": d.ID, "domain": []string{d.Domain}}
			for k, v := range p.Values {
				args[k] = v
			}
			res, err := s.cfg.HA.CallAssist(ctx, p.Intent.Tool, args)
			if err != nil {
				if len(o.Results) == 0 {
					return o, err
				}
				o.Missing = append(o.Missing, d.ID) // said, after what was done
				continue
			}
			o.add(res)
		}
	}
	s.cfg.Live.Forget()
	if p.Intent.How == Resolved {
		s.compare(p, &o)
	}
	return o, nil
}

// add reads one answer of Home Assistant's into the outcome.
func (o *Outcome) add(res homeassistant.ToolResult) {
	o.Results = append(o.Results, res)
	var r struct {
		Data struct {
			Success []struct{ Name, Type, ID string } `json:"success"`
			Failed  []struct{ Name, Type, ID string } `json:"failed"`
		} `json:"data"`
	}
	if res.IsError || json.Unmarshal([]byte(res.Text), &r) != nil {
		o.Errors = append(o.Errors, res)
		return
	}
	for _, t := range r.Data.Success {
		if t.Type == "entity" {
			o.Done = append(o.Done, Target{ID: t.ID, Name: t.Name})
		}
	}
	for _, t := range r.Data.Failed {
		if t.Type == "entity" {
			o.Failed = append(o.Failed, Target{ID: t.ID, Name: t.Name})
		}
	}
}

// compare holds what Home Assistant reports against the plan: an entity it
// acted on that the plan did not reach is an alarm, and so is one the plan
// reached that it says nothing of when it answered without an error.
func (s *Service) compare(p *Plan, o *Outcome) {
	want := p.IDs()
	var got []string
	for _, t := range append(slices.Clone(o.Done), o.Failed...) {
		got = append(got, t.ID)
		if !slices.Contains(want, t.ID) && !slices.Contains(o.Unexpected, t.ID) {
			o.Unexpected = append(o.Unexpected, t.ID)
		}
	}
	if len(o.Errors) == 0 {
		for _, id := range want {
			if !slices.Contains(got, id) && !slices.Contains(o.Missing, id) {
				o.Missing = append(o.Missing, id)
			}
		}
	}
	if len(o.Unexpected) > 0 {
		s.log.Error("ALARM: Home Assistant reports acting on entities the call was not resolved to",
			"intent", p.Intent.Name, "unexpected", strings.Join(o.Unexpected, ","), "resolved", strings.Join(want, ","))
	}
	if len(o.Missing) > 0 {
		s.log.Warn("Home Assistant reports nothing of entities the call was resolved to",
			"intent", p.Intent.Name, "missing", strings.Join(o.Missing, ","))
	}
}
