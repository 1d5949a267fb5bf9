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
	"maison/assist"
	"maison/confirm"
	"maison/homeassistant"
	"maison/voice"
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

// sensitiveTargets names what a call would do that needs a confirmation:
// unlock a lock, open a garage door, gate or door, disarm an alarm, open a
// valve, or operate anything whose name says it might. It decides from what
// is exposed, read afresh (a lock renamed or exposed a moment ago counts),
// and from the words of the call alone, never from an entity that is not
// exposed: a name that only a hidden lock has and a name that nothing has
// are the same to it. It fails closed: Home Assistant matches names more
// loosely than maison can see, so a target that matches nothing exposed but
// reads like a lock, a door, a gate, an alarm or a valve (in its words or
// its entity id), or that names only sensitive kinds of device, counts as
// sensitive too. canonical anyAction asks whether the call could touch such
// a device at all. It also returns every exposed device the call could
// reach, sensitive or not (see identity): a confirmation is bound to them;
// and the names of those among them that are not sensitive (others), which
// guarded refuses to mix with a sensitive action.
func (s *server) sensitiveTargets(ctx context.Context, canonical string, in targetIn) (actions, reached, others []string, err error) {
	ents, err := s.deps.Live.Fresh(ctx)
	if err != nil && !errors.Is(err, assist.ErrNoMatch) {
		return nil, nil, nil, err
	}
	name := strings.TrimSpace(in.Name)
	if strings.TrimSpace(in.Area) != "" || strings.TrimSpace(in.Floor) != "" {
		// An area word names every area whose id, name or alias it is, a
		// floor word every such floor, and Home Assistant acts on all of
		// them: a call that reaches no area acts on nothing, and one that
		// does is compared by every name of every area it reaches.
		at, none := s.areaTarget(in.Area, in.Floor)
		if none {
			return nil, nil, nil, nil
		}
		in.Area, in.Floor, in.areaNames = at.Area, at.Floor, at.areaNames
	}
	ents = append(ents, s.unlisted(ents)...)
	var out []string
	sensitiveExposed := false
	for _, e := range ents {
		what := s.sensitiveAction(canonical, e)
		if what != "" && domainAllowed(in.Domain, e.Domain) {
			sensitiveExposed = true
		}
		// Home Assistant takes an entity id as a name too: both count.
		byID := e.ID != "" && looksLikeEntityID(name) && strings.EqualFold(e.ID, name) && domainAllowed(in.Domain, e.Domain) && inAreas(e, in.areaNames)
		if !byID && !couldTarget(e, name, in) {
			continue
		}
		reached = append(reached, identity(e))
		if what != "" {
			out = append(out, what)
		} else {
			others = append(others, s.proposalName(e, ""))
		}
	}
	if len(reached) > 0 {
		return out, reached, others, nil
	}
	if len(in.areaNames) > 0 && name == "" {
		return nil, nil, nil, nil // a known area where nothing exposed fits: Home Assistant acts on nothing there
	}
	if in.empty() && len(in.areaNames) == 0 {
		// Aimed by kind alone: every exposed device of that kind was
		// looked at above, and none fits, so Home Assistant acts on none.
		return nil, nil, nil, nil
	}
	onlySensitiveKinds := len(in.Domain) > 0 && slices.ContainsFunc(in.Domain, isSensitiveDomain) || slices.ContainsFunc(in.DeviceClass, isSensitiveClass)
	if (name != "" && (looksSensitive(name) || onlySensitiveKinds)) || (name == "" && (sensitiveExposed || onlySensitiveKinds)) {
		target := in.Name
		if strings.TrimSpace(target) == "" {
			target = strings.TrimSpace(in.Area + " " + in.Floor)
		}
		out = append(out, words.ActOnMaybeLock(s.deps.Lang, s.deps.Lang.Quote(target, proposalName)))
	}
	return out, nil, nil, nil
}

// unlisted are the scripts that may be exposed, which Home Assistant's live
// context leaves out though its intents reach them by name, area and floor
// as any entity (a script in the shed that releases the side gate runs on
// "turn on the shed"). maison knows them from the state cache and the
// registries, and counts those whose registry entry says they are exposed:
// a hidden script and an absent one stay alike. Those already in live are
// not repeated.
func (s *server) unlisted(live []assist.Entity) []assist.Entity {
	var out []assist.Entity
	for _, st := range s.deps.HA.States() {
		domain, _, _ := strings.Cut(st.EntityID, ".")
		if domain != "script" || slices.ContainsFunc(live, func(e assist.Entity) bool { return e.ID == st.EntityID }) {
			continue
		}
		en, ok := s.deps.HA.Entry(st.EntityID)
		if !ok || en.Exposure != homeassistant.Exposed {
			continue
		}
		e := assist.Entity{ID: st.EntityID, Domain: domain, State: st.State, NamesText: st.Name(), Names: append([]string{st.Name()}, en.Aliases...)}
		if en.Area != "" {
			e.Areas = append([]string{en.Area}, en.AreaAliases...)
			e.AreasText = strings.Join(e.Areas, ", ")
		}
		out = append(out, e)
	}
	return out
}

// identity names an exposed device for binding a confirmation: its entity
// id, else (known only by its words) its domain, names and areas.
func identity(e assist.Entity) string {
	if e.ID != "" {
		return e.ID
	}
	return "words\x00" + e.Domain + "\x00" + e.NamesText + "\x00" + e.AreasText
}

// proposalName bounds a name in a proposal: longer than in other answers,
// so that two devices whose names begin alike are told apart when the
// person is asked.
const proposalName = 240

// looksLikeEntityID reports whether s is shaped like an entity id (light.kitchen).
func looksLikeEntityID(s string) bool {
	d, obj, ok := strings.Cut(s, ".")
	return ok && d != "" && obj != "" && !strings.ContainsAny(s, " ,")
}

// sensitiveStems are the stems of names that read like a lock, a door, a
// gate, a garage, a valve or an alarm, in the languages a house is named
// in, folded as voice.Fold folds them. A stem counts anywhere in a word
// (Frontdoor, Smartlock, Voordeur), except the words in notSensitive.
var sensitiveStems = []string{
	"lock", "latch", "deadbolt", "door", "gate", "garage", "valve", "alarm", "security", "shutoff", "shut off",
	"serrure", "verrou", "porte", "portail", "portillon", "barriere", "vanne", "alarme", "securite", "robinet",
	"schloss", "tuer", "ventil", "puerta", "cerradura", "porton", "valvula", "alarma",
	"serratura", "cancello", "valvola", "allarme", "deur", "poort", "klep",
}

// notSensitive are words that hold a stem without meaning it.
var notSensitive = strings.NewReplacer("outdoor", " ", "indoor", " ", "clock", " ", "block", " ", "unlocked", " unlock ", "navigate", " ", "aggregate", " ")

// stemEndings are short stems that count only at the end of a word after a
// consonant: Haustür, Hoftor, Garagentor, Gartentür (not motor, monitor,
// temperatur, doctor).
var stemEndings = []string{"tor", "tur", "slot"}

// looksSensitive reports whether a target's words read like a sensitive
// device, as stored or as a person reading them sees them (voice.Clean:
// invisible characters gone, in display order), so that a name made to
// display as "front lock" counts as the front lock.
func looksSensitive(name string) bool {
	return readsSensitive(name) || readsSensitive(voice.Clean(name, 0))
}

// readsSensitive reports whether text reads like a sensitive device: a
// sensitive domain's entity id, or a sensitive stem in the name.
func readsSensitive(name string) bool {
	if d, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(name)), "."); ok && isSensitiveDomain(d) {
		return true
	}
	folded := notSensitive.Replace(voice.Fold(voice.Loose(name)))
	joined := strings.ReplaceAll(folded, " ", "")
	for _, w := range sensitiveStems {
		if strings.Contains(folded, w) || strings.Contains(joined, strings.ReplaceAll(w, " ", "")) {
			return true
		}
	}
	for _, word := range strings.Fields(folded) {
		for _, end := range stemEndings {
			if word == end {
				return true
			}
			if before, ok := strings.CutSuffix(word, end); ok && before != "" && !strings.ContainsRune("aeiouyc", rune(before[len(before)-1])) {
				return true
			}
		}
	}
	return false
}

// namesSensitive reports whether any of an exposed entity's names, or its
// entity id, reads like a sensitive device.
func namesSensitive(e assist.Entity) bool {
	return looksSensitive(e.NamesText) || slices.ContainsFunc(e.Names, looksSensitive) || e.ID != "" && looksSensitive(strings.ReplaceAll(e.ID, "_", " "))
}

// acts reports whether Home Assistant's turn on and turn off can operate an
// entity of this domain (sensors, cameras and the like only report).
func acts(domain string) bool {
	switch domain {
	case "sensor", "binary_sensor", "camera", "weather", "person", "device_tracker", "event", "update", "ai_task",
		"zone", "sun", "calendar", "todo", "image", "conversation", "tts", "stt", "wake_word":
		return false
	}
	return true
}

// anyAction, as canonical, stands for an action whose effect maison does not know.
const anyAction = ""

// sensitiveAction says what canonical would do to e that needs a
// confirmation, or "". Its facts are e's own: its state when it is known by
// identity, else the words Home Assistant gave for it. A cover whose kind is
// unknown counts as a door; anything that acts and whose name reads like a
// door, a gate, a lock, an alarm or a valve counts too (a garage door opener
// on a switch, a gate buzzer), except closing it or locking it.
func (s *server) sensitiveAction(canonical string, e assist.Entity) string {
	class := assist.FactsOf(s.deps.HA, e).DeviceClass
	openable := e.Domain == "valve" || e.Domain == "cover" && (class == "" || isSensitiveClass(class))
	name := s.proposalName(e, class)
	on, off := canonical == "HassTurnOn" || canonical == anyAction, canonical == "HassTurnOff" || canonical == anyAction
	switch {
	case off && e.Domain == "lock":
		return words.Unlock(s.deps.Lang, name)
	case off && e.Domain == "alarm_control_panel":
		return words.Disarm(s.deps.Lang, name)
	case on && openable:
		return words.Open(s.deps.Lang, name)
	}
	closing := canonical == "HassTurnOff" && (e.Domain == "cover" || e.Domain == "valve")
	locking := canonical == "HassTurnOn" && e.Domain == "lock"
	if acts(e.Domain) && !closing && !locking && namesSensitive(e) {
		return words.Operate(s.deps.Lang, name)
	}
	return ""
}

// proposalName names e for the person asked: its name, or, when Home
// Assistant gives it none (as it does once its registry entry was edited
// back), its entity id; then, for what opens, what kind of thing it is when
// the name does not say it ("the “Lamp”, a garage door").
func (s *server) proposalName(e assist.Entity, class string) string {
	said := e.Name()
	if strings.TrimSpace(said) == "" {
		said = e.ID
	}
	name := s.deps.Lang.Quote(said, proposalName)
	var kind words.Pair
	cue := ""
	switch {
	case e.Domain == "valve":
		kind, cue = words.KindValve, "valve"
	case e.Domain == "cover" && class == "garage":
		kind, cue = words.KindGarageDoor, "garage"
	case e.Domain == "cover" && class == "gate":
		kind, cue = words.KindGate, "gate"
	case e.Domain == "cover" && class == "door":
		kind, cue = words.KindDoor, "door"
	}
	if cue == "" || strings.Contains(strings.ToLower(said), cue) {
		return name
	}
	return words.WithKind(s.deps.Lang, name, kind)
}

func isSensitiveDomain(d string) bool {
	switch d {
	case "lock", "cover", "valve", "alarm_control_panel":
		return true
	}
	return false
}

// isSensitiveClass reports whether a cover of this class opens the house.
func isSensitiveClass(c string) bool { return c == "garage" || c == "gate" || c == "door" }

func domainAllowed(filter []string, domain string) bool {
	return len(filter) == 0 || slices.Contains(filter, domain)
}

// couldTarget reports whether a call could act on e, matching at least as
// loosely as Home Assistant does on what maison can see: every name and
// alias (and every part of a name that holds a comma), every area and its
// aliases, compared as Home Assistant compares them (casefolded, stripped)
// with spacing aside. A name is narrowed by the areas resolved for the
// call (areaNames) only; an area or floor word the registries could not
// resolve could hold anything that bears the name, and a floor anything.
func couldTarget(e assist.Entity, name string, in targetIn) bool {
	if !domainAllowed(in.Domain, e.Domain) {
		return false
	}
	if name != "" {
		named := loose(e.NamesText) == loose(name) || slices.ContainsFunc(e.Names, func(n string) bool { return loose(n) == loose(name) })
		return named && inAreas(e, in.areaNames)
	}
	if a := strings.TrimSpace(in.Area); a != "" {
		return loose(e.AreasText) == loose(a) || slices.ContainsFunc(e.Areas, func(n string) bool { return loose(n) == loose(a) })
	}
	if len(in.areaNames) > 0 {
		return inAreas(e, in.areaNames)
	}
	if strings.TrimSpace(in.Floor) != "" {
		return true
	}
	// No name, area nor floor: a domain or a device class alone reaches
	// every exposed device of that kind, as Home Assistant matches them.
	return (len(in.Domain) > 0 || len(in.DeviceClass) > 0) && (len(in.DeviceClass) == 0 || slices.Contains(in.DeviceClass, e.Attributes["device_class"]))
}

// inAreas reports whether e is in an area called by one of names, or
// names is empty: no area was resolved to narrow with.
func inAreas(e assist.Entity, names []string) bool {
	return len(names) == 0 || slices.ContainsFunc(names, func(a string) bool {
		return slices.ContainsFunc(e.Areas, func(n string) bool { return loose(n) == loose(a) })
	})
}

// areaTarget is what area and floor words target: every area they reach
// (homeassistant.AreasReached, after Home Assistant's find_areas and
// find_floors), each by all its names, which the live context gives its
// entities; the words alone when the registries could not be read. none
// reports that they reach no area at all.
func (s *server) areaTarget(area, floor string) (t targetIn, none bool) {
	area, floor = strings.TrimSpace(area), strings.TrimSpace(floor)
	if area == "" && floor == "" {
		return targetIn{}, false // no words: nothing to narrow by
	}
	areas, known := s.deps.HA.AreasReached(area, floor)
	if !known {
		return targetIn{Area: area, Floor: floor}, false
	}
	for _, a := range areas {
		t.areaNames = append(append(t.areaNames, a.Name), a.Aliases...)
	}
	return t, len(areas) == 0
}

// loose compares names as Home Assistant does, and a little more loosely.
func loose(s string) string { return voice.Loose(s) }

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
// running it only with a valid confirmation, and only while the call still
// reaches the devices it reached when the person was asked. Where the client
// can ask the person, the question goes to the person and the model never
// holds the confirmation; elsewhere the model receives it with the proposal.
func (s *server) guarded(ctx context.Context, req *mcp.CallToolRequest, tool, canonical string, in guardedIn) *mcp.CallToolResult {
	if in.empty() {
		return s.needTarget()
	}
	what, reached, others, err := s.sensitiveTargets(ctx, canonical, in.targetIn)
	if err != nil {
		return sayError(s.beforeAction(err))
	}
	if len(what) == 0 {
		return s.act(ctx, canonical, in.args())
	}
	g := guard{who: caller(req), tool: tool, canonical: canonical, in: in.targetIn, action: s.deps.Lang.List(what), reached: reached, note: noteOf(ctx)}
	if len(others) > 0 {
		// The person is asked about the sensitive action alone, so what
		// they approve is all that happens: a call that would also act on
		// other devices (a whole room with its lock) is refused.
		s.sensitiveLine(req, "sensitive action refused: the call also reaches devices that are not sensitive", g)
		g.note.set(stepRefused)
		return sayError(words.SensitiveMixed(s.deps.Lang, g.action, others))
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
	in                   targetIn
	action               string
	reached              []string
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
	code, _, err := s.deps.Confirm.Propose(g.who, g.tool, g.in, g.reached)
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
	switch err := s.deps.Confirm.Redeem(g.who, g.tool, g.in, g.reached, code); {
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
	return s.act(ctx, g.canonical, g.in.args())
}

// sensitiveLine writes, at info, what happened to a sensitive action: who
// asked, what it would do and to which device (the words of the call).
// The confirmation code is never written.
func (s *server) sensitiveLine(req *mcp.CallToolRequest, what string, g guard) {
	tool, action, in := g.tool, g.action, g.in
	id, name := "local", ""
	if req != nil {
		id, name = clientOf(req)
	}
	attrs := []any{"client", id}
	if name != "" {
		attrs = append(attrs, "client_name", accesslog.Text(name))
	}
	attrs = append(attrs, "tool", tool, "action", accesslog.Text(action))
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
