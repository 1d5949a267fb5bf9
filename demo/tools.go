package demo

import (
	"unicode"

	"fmt"
	"golang.org/x/text/cases"
	"math"
	"slices"
	"strconv"
	"strings"
)

// assistTool is one tool of the Assist LLM API.
type assistTool struct {
	plain       string // HA ≤ 2026.8 name
	prefixed    string // HA 2026.9+ name
	description string
	schema      map[string]any
	run         func(h *House, u *user, args map[string]any) (text string, isErr bool)
}

func (t assistTool) advertised(n Naming) string {
	if n == NamingPrefixed {
		return t.prefixed
	}
	return t.plain
}

var (
	strProp    = map[string]any{"type": "string"}
	domainEnum = []any{"alarm_control_panel", "binary_sensor", "camera", "climate", "cover", "fan", "light", "lock", "sensor", "switch", "valve"}
	classEnum  = []any{"awning", "blind", "curtain", "door", "garage", "gate", "shade", "shutter", "window", "outlet", "switch"}
)

// assistTools lists the house's Assist tools. Schemas carry properties and,
// as in Home Assistant, no "required".
func assistTools() []assistTool {
	target := func(extra map[string]any) map[string]any {
		props := map[string]any{
			"name":         strProp,
			"area":         strProp,
			"floor":        strProp,
			"domain":       map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": domainEnum}},
			"device_class": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": classEnum}},
		}
		for k, v := range extra {
			props[k] = v
		}
		return map[string]any{"type": "object", "properties": props}
	}
	return []assistTool{
		{
			plain: "HassTurnOn", prefixed: "intent__HassTurnOn",
			description: "Turns on, opens or locks a device, found by name or area: lights switch on, covers open, locks lock.",
			schema:      target(nil),
			run:         func(h *House, u *user, a map[string]any) (string, bool) { return h.onOff(u, a, true) },
		},
		{
			plain: "HassTurnOff", prefixed: "intent__HassTurnOff",
			description: "Turns off, closes or unlocks a device, found by name or area: lights switch off, covers close, locks unlock.",
			schema:      target(nil),
			run:         func(h *House, u *user, a map[string]any) (string, bool) { return h.onOff(u, a, false) },
		},
		{
			plain: "HassLightSet", prefixed: "light__HassLightSet",
			description: "Sets the brightness of lights found by name or area; brightness is a percentage.",
			schema: target(map[string]any{
				"brightness":  map[string]any{"type": "integer", "minimum": 0, "maximum": 100},
				"color":       strProp,
				"temperature": map[string]any{"type": "integer", "minimum": 0},
			}),
			run: (*House).lightSet,
		},
		{
			plain: "HassSetPosition", prefixed: "intent__HassSetPosition",
			description: "Sets the position of a cover or a valve found by name or area; position is a percentage, 0 closed and 100 open.",
			schema: target(map[string]any{
				"position": map[string]any{"type": "integer", "minimum": 0, "maximum": 100},
			}),
			run: (*House).setPosition,
		},
		{
			plain: "GetLiveContext", prefixed: "homeassistant__GetLiveContext",
			description: "Reports the current state of the exposed devices with their areas; filter by name, domain or area to keep it short.",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"name":   strProp,
				"domain": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"area":   strProp,
			}},
			run: (*House).getLiveContext,
		},
		{
			plain: "GetDateTime", prefixed: "llm__GetDateTime",
			description: "Reports the current date, time, weekday and time zone of the home.",
			schema:      map[string]any{"type": "object", "properties": map[string]any{}},
			run:         (*House).getDateTime,
		},
	}
}

// callTool runs a tool the way HA's MCP server does: unknown names and
// Home Assistant errors become "Error calling tool: …" error results, input
// that breaks the schema "Input validation error: …".
func (h *House) callTool(u *user, name string, args map[string]any) (string, bool) {
	h.mu.Lock()
	h.assistCalls = append(h.assistCalls, name)
	naming := h.naming
	h.mu.Unlock()
	var tool *assistTool
	for _, t := range assistTools() {
		if name == t.plain || (naming == NamingPrefixed && name == t.prefixed) {
			tool = &t
			break
		}
	}
	if tool == nil {
		return `Error calling tool: Tool "` + name + `" not found`, true
	}
	if args == nil {
		args = map[string]any{}
	}
	if msg := validateArgs(tool.schema, args); msg != "" {
		return "Input validation error: " + msg, true
	}
	h.log.Debug("assist tool", "tool", name)
	return tool.run(h, u, args)
}

// validateArgs checks arguments against a tool schema and returns the
// jsonschema library's message for the first violation, or "".
func validateArgs(schema, args map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, ok := props[k].(map[string]any)
		if !ok {
			continue
		}
		if msg := validateValue(p, args[k]); msg != "" {
			return msg
		}
	}
	return ""
}

func validateValue(p map[string]any, v any) string {
	switch p["type"] {
	case "string":
		s, ok := v.(string)
		if !ok {
			return pyValueRepr(v) + " is not of type 'string'"
		}
		if enum, ok := p["enum"].([]any); ok && !slices.Contains(enum, any(s)) {
			return pyValueRepr(v) + " is not one of " + pyValueRepr(enum)
		}
	case "integer":
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			return pyValueRepr(v) + " is not of type 'integer'"
		}
		if mx, ok := p["maximum"].(int); ok && f > float64(mx) {
			return fmt.Sprintf("%s is greater than the maximum of %d", pyValueRepr(v), mx)
		}
		if mn, ok := p["minimum"].(int); ok && f < float64(mn) {
			return fmt.Sprintf("%s is less than the minimum of %d", pyValueRepr(v), mn)
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return pyValueRepr(v) + " is not of type 'array'"
		}
		ip, _ := p["items"].(map[string]any)
		for _, it := range items {
			if msg := validateValue(ip, it); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// pyValueRepr is Python's repr() of a decoded JSON value.
func pyValueRepr(v any) string {
	switch t := v.(type) {
	case nil:
		return "None"
	case bool:
		if t {
			return "True"
		}
		return "False"
	case string:
		return pyRepr(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1e15 {
			return strconv.FormatInt(int64(t), 10)
		}
		return pyFloat(t)
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = pyValueRepr(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyRepr(k) + ": " + pyValueRepr(t[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// target is the matching part of an intent's slots.
type target struct {
	name, area, floor string
	domains, classes  []string // nil: no constraint
}

// intentTarget reads and checks the slots as the intent's voluptuous schema
// does; a non-empty message is the error text.
func intentTarget(args map[string]any) (target, string) {
	var t target
	for _, k := range []string{"name", "area", "floor"} {
		v, present := args[k]
		if !present {
			continue
		}
		s, _ := v.(string)
		if strings.TrimSpace(s) == "" {
			return t, "string value is empty for dictionary value @ data['" + k + "']"
		}
		switch k {
		case "name":
			t.name = s
		case "area":
			t.area = s
		case "floor":
			t.floor = s
		}
	}
	if t.name == "" && t.area == "" && t.floor == "" {
		return t, "must contain at least one of name, area, floor."
	}
	t.domains = stringList(args["domain"])
	t.classes = stringList(args["device_class"])
	return t, ""
}

// stringList reads a string or an array of strings; nil when absent or empty.
func stringList(v any) []string {
	switch t := v.(type) {
	case string:
		if t != "" {
			return []string{t}
		}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// normalize is Home Assistant's _normalize_name: Python's strip, then
// casefold (ß is ss, ligatures come apart). Inner spaces stay as they are.
func normalize(s string) string {
	return cases.Fold().String(strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }))
}

// Reasons of MatchFailedError, numbered as Home Assistant's enum.
var matchReasons = []string{"NAME", "AREA", "FLOOR", "DOMAIN", "DEVICE_CLASS", "FEATURE", "STATE", "ASSISTANT",
	"INVALID_AREA", "INVALID_FLOOR", "DUPLICATE_NAME", "MULTIPLE_TARGETS"}

// matchFailure renders Home Assistant's MatchFailedError as str() shows it.
func matchFailure(reason string, noMatchName string, t target) string {
	n := slices.Index(matchReasons, reason) + 1
	return fmt.Sprintf("<MatchFailedError result=MatchTargetsResult(is_match=False, no_match_reason=<MatchFailedReason.%s: %d>, states=[], no_match_name=%s, areas=[], floors=[]), "+
		"constraints=MatchTargetsConstraints(name=%s, area_name=%s, floor_name=%s, domains=%s, device_classes=%s, features=None, states=None, assistant='conversation', allow_duplicate_names=False, single_target=False), "+
		"preferences=MatchTargetsPreferences(area_id=None, floor_id=None)>",
		reason, n, pyOptRepr(noMatchName), pyOptRepr(t.name), pyOptRepr(t.area), pyOptRepr(t.floor), pySetRepr(t.domains), pySetRepr(t.classes))
}

// matchLocked finds the entities an intent targets, in Home Assistant's
// order of checks (helpers/intent.py, async_match_targets): domain; without
// a name, device class, area or floor, exposure at once; else name (or
// alias, or entity id), device class, floor, area, and only then exposure,
// then duplicate names. A floor word targets every floor it names
// (find_floors), an area word every area (find_areas), and the match keeps
// what is in any of them. A hidden entity can therefore change which reason
// a failed match gives, as in Home Assistant. h.mu must be held.
func (h *House) matchLocked(t target) ([]*entity, targeted, string) {
	var cands []*entity
	for _, id := range h.order {
		cands = append(cands, h.entities[id])
	}
	keep := func(f func(e *entity) bool) {
		cands = slices.DeleteFunc(cands, func(e *entity) bool { return !f(e) })
	}
	if t.domains != nil {
		keep(func(e *entity) bool { return slices.Contains(t.domains, entityDomain(e.id)) })
		if len(cands) == 0 {
			return nil, targeted{}, matchFailure("DOMAIN", "", t)
		}
	}
	if t.name == "" && t.classes == nil && t.area == "" && t.floor == "" {
		keep(func(e *entity) bool { return e.exposed })
		if len(cands) == 0 {
			return nil, targeted{}, matchFailure("ASSISTANT", "", t)
		}
		return cands, targeted{}, ""
	}
	if t.name != "" {
		keep(func(e *entity) bool { return e.namedAs(t.name) || e.id == t.name })
		if len(cands) == 0 {
			return nil, targeted{}, matchFailure("NAME", t.name, t)
		}
	}
	if t.classes != nil {
		keep(func(e *entity) bool {
			dc, _ := e.cur.attrs["device_class"].(string)
			return slices.Contains(t.classes, dc)
		})
		if len(cands) == 0 {
			return nil, targeted{}, matchFailure("DEVICE_CLASS", "", t)
		}
	}
	var tg targeted
	if t.floor != "" {
		for i := range h.floors {
			if f := &h.floors[i]; namedAs(t.floor, f.id, f.name, f.aliases) {
				tg.floors = append(tg.floors, f)
			}
		}
		if len(tg.floors) == 0 {
			return nil, tg, matchFailure("INVALID_FLOOR", t.floor, t)
		}
		keep(func(e *entity) bool {
			a := h.areaByID(e.area)
			return a != nil && slices.ContainsFunc(tg.floors, func(f *floor) bool { return a.floor == f.id })
		})
		if len(cands) == 0 {
			return nil, tg, matchFailure("FLOOR", "", t)
		}
	}
	if t.area != "" {
		tg.areas = h.areasCalledLocked(t.area)
		if len(tg.areas) == 0 {
			return nil, tg, matchFailure("INVALID_AREA", t.area, t)
		}
		keep(func(e *entity) bool { return inAreas(e, tg.areas) })
		if len(cands) == 0 {
			return nil, tg, matchFailure("AREA", "", t)
		}
	}
	keep(func(e *entity) bool { return e.exposed })
	if len(cands) == 0 {
		return nil, targeted{}, matchFailure("ASSISTANT", "", t)
	}
	if t.name != "" && len(cands) > 1 && tg.areas == nil && tg.floors == nil {
		return nil, targeted{}, matchFailure("DUPLICATE_NAME", t.name, t)
	}
	return cands, tg, ""
}

// targeted are the floors and areas a match was narrowed to: every one its
// words name (find_floors, find_areas), as MatchTargetsResult lists them.
type targeted struct {
	floors []*floor
	areas  []*area
}

// areasCalledLocked returns every area name names, in the registry's order,
// as Home Assistant's find_areas yields them. h.mu must be held.
func (h *House) areasCalledLocked(name string) []*area {
	var out []*area
	for i := range h.areas {
		if h.areas[i].namedAs(name) {
			out = append(out, &h.areas[i])
		}
	}
	return out
}

// inAreas reports whether e is in one of ars.
func inAreas(e *entity, ars []*area) bool {
	return slices.ContainsFunc(ars, func(a *area) bool { return e.area == a.id })
}

func intentError(msg string) (string, bool) { return "Error calling tool: " + msg, true }

// onOff is HassTurnOn (on) and HassTurnOff.
func (h *House) onOff(u *user, args map[string]any, on bool) (string, bool) {
	t, msg := intentTarget(args)
	if msg != "" {
		return intentError(msg)
	}
	service := "turn_off"
	if on {
		service = "turn_on"
	}
	return h.act(u, t, service, func(e *entity) (action, int, bool) {
		act, _, ok := onOffAction(entityDomain(e.id), on)
		return act, -1, ok
	})
}

// lightSet is HassLightSet: brightness in percent on lights.
func (h *House) lightSet(u *user, args map[string]any) (string, bool) {
	t, msg := intentTarget(args)
	if msg != "" {
		return intentError(msg)
	}
	_, hasB := args["brightness"]
	_, hasC := args["color"]
	_, hasT := args["temperature"]
	if !hasB && !hasC && !hasT {
		return intentError("must contain at least one of brightness, color, temperature.")
	}
	pct := -1
	if b, ok := args["brightness"].(float64); ok {
		pct = int(b)
	}
	t.domains = []string{"light"}
	return h.act(u, t, "turn_on", func(*entity) (action, int, bool) { return actTurnOn, pct, true })
}

// setPosition is HassSetPosition: covers and valves open above 0 percent
// and close at 0.
func (h *House) setPosition(u *user, args map[string]any) (string, bool) {
	t, msg := intentTarget(args)
	if msg != "" {
		return intentError(msg)
	}
	pos, ok := args["position"].(float64)
	if !ok {
		return intentError("required key not provided @ data['position']")
	}
	if t.domains == nil {
		t.domains = []string{"cover", "valve"}
	}
	act := actClose
	if pos > 0 {
		act = actOpen
	}
	return h.act(u, t, "set_position", func(e *entity) (action, int, bool) {
		d := entityDomain(e.id)
		return act, -1, d == "cover" || d == "valve"
	})
}

// act runs an intent on what t names, as u: each matched entity gets the
// action, brightness (-1 for none) and support that do returns, and the
// intent response names those that support service as done, the others as
// failed.
func (h *House) act(u *user, t target, service string, do func(e *entity) (act action, brightnessPct int, supported bool)) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ents, tg, fail := h.matchLocked(t)
	if fail != "" {
		return intentError(fail)
	}
	var changed []*entity
	defer func() { h.notifyLocked(changed...) }()
	return h.actLocked(ents, tg, service, func(e *entity) bool {
		act, pct, ok := do(e)
		if ok && h.applyLocked(e, act, pct, u.id) {
			changed = append(changed, e)
		}
		return ok
	})
}

// actLocked runs do on each entity and renders the intent response: the
// floors targeted, else the areas, then entities under success, those that
// do not support the service under failed; when nothing succeeded it is an
// IntentHandleError. h.mu must be held.
func (h *House) actLocked(ents []*entity, tg targeted, service string, do func(*entity) bool) (string, bool) {
	success, failed := []any{}, []any{}
	var failedRepr []string
	for _, f := range tg.floors {
		success = append(success, obj{{"name", f.name}, {"type", "floor"}, {"id", f.id}})
	}
	if tg.floors == nil { // the floors alone are listed when there are any
		for _, ar := range tg.areas {
			success = append(success, obj{{"name", ar.name}, {"type", "area"}, {"id", ar.id}})
		}
	}
	done := 0
	for _, e := range ents {
		item := obj{{"name", e.stateName()}, {"type", "entity"}, {"id", e.id}}
		if do(e) {
			success = append(success, item)
			done++
			continue
		}
		failed = append(failed, item)
		failedRepr = append(failedRepr, fmt.Sprintf("IntentResponseTarget(name=%s, type=<IntentResponseTargetType.ENTITY: 'entity'>, id=%s)", pyRepr(e.stateName()), pyRepr(e.id)))
	}
	if done == 0 {
		return intentError("Failed to call " + service + " for: [" + strings.Join(failedRepr, ", ") + "]")
	}
	return pyDumps(obj{
		{"speech", obj{}},
		{"response_type", "action_done"},
		{"data", obj{{"targets", []any{}}, {"success", success}, {"failed", failed}}},
	}), false
}

// getLiveContext is GetLiveContext: exposed entities only, no entity ids,
// numbers as strings, PyYAML layout.
func (h *House) getLiveContext(_ *user, args map[string]any) (string, bool) {
	name, _ := args["name"].(string)
	area, _ := args["area"].(string)
	text, errText := h.liveContextText(name, stringList(args["domain"]), area)
	if errText != "" {
		return pyDumps(obj{{"success", false}, {"error", errText}}), false
	}
	return pyDumps(obj{{"success", true}, {"result", text}}), false
}

// liveContextText renders the live context, or an error text when a filter
// matches nothing, in the words of Home Assistant's _live_context_match_error.
// Reading it stores the exposure of every entry that had none, as Home
// Assistant's async_should_expose does.
func (h *House) liveContextText(name string, domains []string, areaName string) (string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.storeExposureLocked()
	ents := h.liveEntitiesLocked()
	if len(ents) == 0 {
		return "", noEntitiesPrompt
	}
	for i, d := range domains {
		domains[i] = strings.ToLower(strings.TrimSpace(d))
	}
	domains = slices.DeleteFunc(domains, func(d string) bool { return d == "" })
	var ars []*area
	if areaName != "" {
		ars = h.areasCalledLocked(areaName)
		if len(ars) == 0 {
			return "", "Area '" + areaName + "' does not exist"
		}
	}
	if len(domains) > 0 {
		ents = slices.DeleteFunc(ents, func(e *entity) bool { return !slices.Contains(domains, entityDomain(e.id)) })
		if len(ents) == 0 {
			return "", "No exposed entities found in domain(s): " + strings.Join(domains, ", ")
		}
	}
	if name != "" {
		ents = slices.DeleteFunc(ents, func(e *entity) bool { return !e.namedAs(name) })
		if len(ents) == 0 {
			return "", "No exposed entities matched name '" + name + "'"
		}
	}
	if ars != nil {
		ents = slices.DeleteFunc(ents, func(e *entity) bool { return !inAreas(e, ars) })
		if len(ents) == 0 {
			return "", "No exposed entities found in area '" + areaName + "'"
		}
	}
	live := make([]LiveEntity, len(ents))
	for i, e := range ents {
		live[i] = h.liveLocked(e)
	}
	return LiveContext(live), ""
}

// noEntitiesPrompt is GetLiveContext's error when nothing is exposed.
const noEntitiesPrompt = "Only if the user wants to control a device, tell them to expose entities to their voice assistant in Home Assistant."

// pyStr is Python's str() of an attribute value.
func pyStr(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case int:
		return strconv.Itoa(t)
	case float64:
		return pyFloat(t)
	case bool:
		if t {
			return "True"
		}
		return "False"
	}
	return fmt.Sprint(v)
}

// getDateTime is GetDateTime in the house's time zone.
func (h *House) getDateTime(_ *user, _ map[string]any) (string, bool) {
	now := h.now().In(h.loc)
	return pyDumps(obj{{"success", true}, {"result", obj{
		{"date", now.Format("2006-01-02")},
		{"time", now.Format("15:04:05")},
		{"timezone", now.Format("MST")},
		{"weekday", now.Weekday().String()},
	}}}), false
}
