package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/homeassistant"
	"maison/voice"
)

// guardedIn is an action's target plus the confirmation a sensitive action needs.
type guardedIn struct {
	targetIn
	Confirmation string `json:"confirmation,omitempty" jsonschema:"only for unlocking, opening a garage door, gate or door, disarming or opening a valve: the code from the proposal this tool returned, once the person has agreed"`
}

// sensitiveTargets names what a call would do that needs a confirmation:
// unlock a lock, open a garage door, gate or door, disarm an alarm, open a
// valve. It fails closed: Home Assistant matches names more loosely than
// maison can see (entity ids, aliases, area ids), so a target maison cannot
// match, in a house where such a device exists, counts as sensitive too.
// canonical anyAction asks whether the call could touch such a device at all.
func (s *server) sensitiveTargets(ctx context.Context, canonical string, in targetIn) ([]string, error) {
	if len(in.Domain) > 0 && !slices.ContainsFunc(in.Domain, isSensitiveDomain) {
		return nil, nil // the call itself rules out every sensitive kind of device
	}
	ents, err := s.deps.Live.Entities(ctx)
	if err != nil && !errors.Is(err, assist.ErrNoMatch) {
		return nil, err
	}
	states := s.deps.HA.States()
	name := strings.TrimSpace(in.Name)
	if strings.Contains(name, ".") { // an entity id: find the name it goes by
		if st, ok := s.deps.HA.State(name); ok {
			name = st.Name()
		}
	}
	var out []string
	matched, sensitiveExists := false, false
	for _, e := range ents {
		what := s.sensitiveAction(canonical, e, states)
		if what != "" && domainAllowed(in.Domain, e.Domain) {
			sensitiveExists = true
		}
		if !couldTarget(e, name, in) {
			continue
		}
		matched = true
		if what != "" {
			out = append(out, what)
		}
	}
	if !matched && sensitiveExists && (name == "" || namesSensitive(states, name)) {
		target := assist.Name(in.Name)
		if target == "" {
			target = assist.Name(in.Area + in.Floor)
		}
		out = append(out, s.pick("act on “"+target+"”, which could be a lock or a door", "agir sur « "+target+" », qui pourrait être une serrure ou une porte"))
	}
	return out, nil
}

// namesSensitive reports whether name could be Home Assistant's for a lock,
// cover, valve or alarm that Assist did not describe to maison under that
// name: by friendly name, entity id or object id, case and spacing aside.
func namesSensitive(states []homeassistant.State, name string) bool {
	want := loose(name)
	for _, st := range states {
		domain, object, _ := strings.Cut(st.EntityID, ".")
		if !isSensitiveDomain(domain) {
			continue
		}
		if loose(st.Name()) == want || strings.EqualFold(st.EntityID, name) || loose(strings.ReplaceAll(object, "_", " ")) == want {
			return true
		}
	}
	return false
}

// anyAction, as canonical, stands for an action whose effect maison does not know.
const anyAction = ""

// sensitiveAction says what canonical would do to e that needs a
// confirmation, or "". A cover whose kind is unknown counts as a door.
func (s *server) sensitiveAction(canonical string, e assist.Entity, states []homeassistant.State) string {
	name := assist.Name(e.Name())
	class := assist.FactsFrom(states, e).DeviceClass
	openable := e.Domain == "valve" || e.Domain == "cover" && (class == "" || slices.Contains([]string{"garage", "gate", "door"}, class))
	switch {
	case (canonical == "HassTurnOff" || canonical == anyAction) && e.Domain == "lock":
		return s.pick("unlock the "+name, "déverrouiller "+name)
	case (canonical == "HassTurnOff" || canonical == anyAction) && e.Domain == "alarm_control_panel":
		return s.pick("disarm the "+name, "désarmer "+name)
	case (canonical == "HassTurnOn" || canonical == anyAction) && openable:
		return s.pick("open the "+name, "ouvrir "+name)
	}
	return ""
}

func isSensitiveDomain(d string) bool {
	switch d {
	case "lock", "cover", "valve", "alarm_control_panel":
		return true
	}
	return false
}

func domainAllowed(filter []string, domain string) bool {
	return len(filter) == 0 || slices.Contains(filter, domain)
}

// couldTarget reports whether a call could act on e, matching as loosely as
// Home Assistant does on what maison can see: every name and alias, every
// area, case and spacing aside. A floor could hold anything.
func couldTarget(e assist.Entity, name string, in targetIn) bool {
	if !domainAllowed(in.Domain, e.Domain) {
		return false
	}
	if name != "" {
		return slices.ContainsFunc(e.Names, func(n string) bool { return loose(n) == loose(name) })
	}
	if a := strings.TrimSpace(in.Area); a != "" {
		return slices.ContainsFunc(e.Areas, func(n string) bool { return loose(n) == loose(a) })
	}
	return strings.TrimSpace(in.Floor) != ""
}

// loose folds case and spacing, as Home Assistant's name matching does.
func loose(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

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

// guarded runs an intent, first proposing when the action is sensitive and
// running it only with a valid confirmation. Where the client can ask the
// person, the question goes to the person and the model never holds the
// confirmation; elsewhere the model receives it with the proposal.
func (s *server) guarded(ctx context.Context, req *mcp.CallToolRequest, tool, canonical string, in guardedIn) *mcp.CallToolResult {
	if in.empty() {
		return s.needTarget()
	}
	what, err := s.sensitiveTargets(ctx, canonical, in.targetIn)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	if len(what) == 0 {
		return s.act(ctx, canonical, in.args())
	}
	who := caller(req)
	action := s.deps.Lang.List(what)
	if req != nil && req.Params != nil && (req.Params.RequestState != "" || req.Params.InputResponses != nil) {
		return s.personAnswered(ctx, req, who, tool, canonical, in)
	}
	if in.Confirmation == "" {
		code, _, err := s.deps.Confirm.Propose(who, tool, in.targetIn)
		if err != nil {
			return sayError(s.haTrouble(err))
		}
		if asksThePerson(req) {
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{askID: &mcp.ElicitParams{
					Mode:    "form",
					Message: voice.Sentence(s.pick("Do you want me to "+action+"? Nothing happens unless you confirm", "Voulez-vous que je fasse ceci : "+action+"? Rien ne se passe sans votre accord")),
					RequestedSchema: map[string]any{
						"type": "object",
						"properties": map[string]any{
							"confirm": map[string]any{"type": "boolean", "title": s.pick("Yes, "+action, "Oui, "+action)},
						},
						"required": []string{"confirm"},
					},
				}},
				RequestState: code,
			}
		}
		return say(s.pick(
			"To "+action+" I need the person's go-ahead, so nothing was done yet. Ask them plainly whether to "+action+". Only if they say yes, call this same tool again with the same details and the confirmation "+code+". It works once, for this action only, for two minutes.",
			"Pour "+action+", il me faut l'accord de la personne; rien n'a encore été fait. Demandez-lui clairement s'il faut "+action+". Seulement si elle dit oui, appelez le même outil de nouveau avec les mêmes détails et la confirmation "+code+". Elle ne sert qu'une fois, pour cette action, pendant deux minutes."))
	}
	if err := s.deps.Confirm.Redeem(who, tool, in.targetIn, in.Confirmation); err != nil {
		return s.invalidConfirmation()
	}
	return s.act(ctx, canonical, in.args())
}

// personAnswered handles the retry that carries the person's answer.
func (s *server) personAnswered(ctx context.Context, req *mcp.CallToolRequest, who, tool, canonical string, in guardedIn) *mcp.CallToolResult {
	ans, _ := req.Params.InputResponses[askID].(*mcp.ElicitResult)
	if ans == nil || ans.Action != "accept" || ans.Content["confirm"] != true {
		return sayError(s.pick(
			"The person did not confirm, so nothing was done.",
			"La personne n'a pas confirmé; rien n'a été fait."))
	}
	if err := s.deps.Confirm.Redeem(who, tool, in.targetIn, req.Params.RequestState); err != nil {
		return s.invalidConfirmation()
	}
	return s.act(ctx, canonical, in.args())
}

// invalidConfirmation is the one answer to a confirmation that is unknown,
// expired, someone else's, already used or made for another action.
func (s *server) invalidConfirmation() *mcp.CallToolResult {
	return sayError(s.pick(
		"That confirmation cannot be used, so nothing was done. Confirmations work once, for one action, for two minutes. To go ahead, call the same tool again without a confirmation to get a new proposal, and ask the person first.",
		"Cette confirmation ne peut pas servir; rien n'a été fait. Une confirmation ne sert qu'une fois, pour une action, pendant deux minutes. Pour continuer, rappelez le même outil sans confirmation pour obtenir une nouvelle proposition, et demandez d'abord à la personne."))
}
