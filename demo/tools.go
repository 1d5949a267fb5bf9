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
	title       string
	description string
	hints       toolHints
	schema      map[string]any
	run         func(h *House, u *user, args map[string]any) (text string, isErr bool)
}

func (t assistTool) advertised(n Naming) string {
	if n == NamingPrefixed {
		return t.prefixed
	}
	return t.plain
}

// toolHints are a tool's MCP annotations (helpers/llm.py, ToolAnnotations).
type toolHints struct{ readOnly, destructive, idempotent, openWorld bool }

// json is the annotations as the MCP server lists them.
func (a toolHints) json() map[string]any {
	return map[string]any{"readOnlyHint": a.readOnly, "destructiveHint": a.destructive, "idempotentHint": a.idempotent, "openWorldHint": a.openWorld}
}

var (
	strProp = map[string]any{"type": "string"}
	// The device classes HassTurnOn and HassTurnOff accept: button, cover,
	// media player, switch and valve classes, in Home Assistant's order.
	onOffClasses = []any{"identify", "restart", "update", "awning", "blind", "curtain", "damper", "door", "garage", "gate",
		"shade", "shutter", "window", "tv", "speaker", "receiver", "projector", "outlet", "switch", "water", "gas"}
	// The cover and valve classes HassSetPosition accepts.
	positionClasses = []any{"awning", "blind", "curtain", "damper", "door", "garage", "gate", "shade", "shutter", "window", "water", "gas"}
)

// assistTools lists the house's Assist tools as Home Assistant 2026.11
// lists them: its titles, descriptions, annotations and schemas.
func assistTools() []assistTool {
	target := func(classes []any, extra map[string]any) map[string]any {
		props := map[string]any{
			"name":   strProp,
			"area":   strProp,
			"floor":  strProp,
			"domain": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		}
		if classes != nil {
			props["device_class"] = map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": classes}}
		}
		for k, v := range extra {
			props[k] = v
		}
		return map[string]any{"type": "object", "properties": props}
	}
	action := toolHints{destructive: true}
	idempotent := toolHints{destructive: true, idempotent: true}
	reading := toolHints{readOnly: true, destructive: true}
	position := target(positionClasses, map[string]any{
		"position": map[string]any{"allOf": []any{
			map[string]any{"type": "integer"},
			map[string]any{"type": "number", "minimum": 0, "maximum": 100},
		}},
	})
	position["required"] = []any{"position"}
	return []assistTool{
		{
			plain: "HassTurnOn", prefixed: "intent__HassTurnOn", title: "Turn on", hints: action,
			description: "Turns on/opens/presses a device or entity. For locks, this performs a 'lock' action. Use for requests like 'turn on', 'activate', 'enable', or 'lock'.",
			schema:      target(onOffClasses, nil),
			run:         func(h *House, u *user, a map[string]any) (string, bool) { return h.onOff(u, a, true) },
		},
		{
			plain: "HassTurnOff", prefixed: "intent__HassTurnOff", title: "Turn off", hints: idempotent,
			description: "Turns off/closes a device or entity. For locks, this performs an 'unlock' action. Use for requests like 'turn off', 'deactivate', 'disable', or 'unlock'.",
			schema:      target(onOffClasses, nil),
			run:         func(h *House, u *user, a map[string]any) (string, bool) { return h.onOff(u, a, false) },
		},
		{
			plain: "HassLightSet", prefixed: "light__HassLightSet", title: "Set light", hints: idempotent,
			description: "Sets the brightness percentage or color of a light",
			schema: target(nil, map[string]any{
				"domain": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"light"}}},
				"brightness": map[string]any{"type": "integer", "minimum": 0, "maximum": 100,
					"description": "The brightness percentage of the light between 0 and 100, where 0 is off and 100 is fully lit"},
				"color":       strProp,
				"temperature": map[string]any{"type": "integer", "minimum": 0},
			}),
			run: (*House).lightSet,
		},
		{
			plain: "HassSetPosition", prefixed: "intent__HassSetPosition", title: "Set position", hints: idempotent,
			description: "Sets the position of a device or entity",
			schema:      position,
			run:         (*House).setPosition,
		},
		{
			plain: "GetLiveContext", prefixed: "homeassistant__GetLiveContext", title: "Get live context", hints: reading,
			description: "Provides real-time information about the CURRENT state, value, or mode of devices, sensors, entities, or areas. " +
				"Use this tool for: 1. Answering questions about current conditions (e.g., 'Is the light on?'). " +
				"2. As the first step in conditional actions (e.g., 'If the weather is rainy, turn off sprinklers' requires checking the weather first). " +
				"You may filter for devices by name, domain, and area, including combining those filters. " +
				"Prefer filtering by domain when searching for multiple devices of the same type.",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"name": map[string]any{"type": "string", "description": "Filter entities by name or alias (case-insensitive)."},
				"domain": map[string]any{
					"anyOf":       []any{strProp, map[string]any{"type": "array", "items": strProp}},
					"description": "Filter entities by domain (e.g. 'light', 'sensor'). Accepts a single domain or a list.",
				},
				"area": map[string]any{"type": "string", "description": "Filter entities by area name or alias (case-insensitive)."},
			}},
			run: (*House).getLiveContext,
		},
		{
			plain: "GetDateTime", prefixed: "llm__GetDateTime", title: "Get date and time", hints: reading,
			description: "Provides the current date and time.",
			schema:      map[string]any{"type": "object", "properties": map[string]any{}},
			run:         (*House).getDateTime,
		},
	}
}

// callTool runs a tool the way HA's MCP server does: unknown names and
// Home Assistant errors become "Error calling tool: …" error results. The
// MCP package (2.x) checks no argument against the schema: each tool reads
// its own, an intent through its slot schema (intentSlots).
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
	switch {
	case strings.HasPrefix(tool.plain, "Hass"):
		slots, ok := intentSlots(tool.schema, args)
		if !ok {
			return intentError("Received invalid slot info for " + tool.plain)
		}
		args = slots
	case tool.plain == "GetLiveContext":
		read, msg := liveContextArgs(args)
		if msg != "" {
			return intentError(msg)
		}
		args = read
	}
	h.log.Debug("assist tool", "tool", name)
	return tool.run(h, u, args)
}

// intentSlots reads a tool call's arguments as Home Assistant 2026.11's
// IntentTool and intent handler do: blank values (None, blank text) are
// left out, then the slot schema coerces and checks the rest (name, area,
// floor as non-empty text; domain and device class as lists within their
// choices; brightness and position as whole percentages;
// the schema's required slots). ok is false where the schema refuses, which
// Home Assistant reports as invalid slot info.
func intentSlots(schema, args map[string]any) (slots map[string]any, ok bool) {
	props, _ := schema["properties"].(map[string]any)
	slots = map[string]any{}
	for k, v := range args {
		if s, isStr := v.(string); v == nil || isStr && strings.TrimSpace(s) == "" {
			continue
		}
		slots[k] = v
	}
	for k, v := range slots {
		if _, known := props[k]; !known {
			continue // extra slots are allowed and ignored
		}
		switch k {
		case "name", "area", "floor":
			s, isStr := cvString(v)
			if !isStr || strings.TrimSpace(s) == "" {
				return nil, false
			}
			slots[k] = s
		case "domain", "device_class":
			p, _ := props[k].(map[string]any)
			items, _ := p["items"].(map[string]any)
			enum, limited := items["enum"].([]any)
			list, isList := v.([]any)
			if !isList {
				list = []any{v}
			}
			out := make([]any, 0, len(list))
			for _, x := range list {
				s, isStr := x.(string)
				if !limited {
					s, isStr = cvString(x)
				}
				if !isStr || limited && !slices.Contains(enum, any(s)) {
					return nil, false
				}
				out = append(out, s)
			}
			slots[k] = out
		case "brightness", "position":
			n, isInt := pyInt(v)
			if !isInt || n < 0 || n > 100 {
				return nil, false
			}
			slots[k] = float64(n)
		case "temperature":
			n, isInt := pyInt(v)
			if !isInt || n < 0 {
				return nil, false
			}
			slots[k] = float64(n)
		}
	}
	required, _ := schema["required"].([]any)
	for _, r := range required {
		if _, has := slots[r.(string)]; !has {
			return nil, false
		}
	}
	return slots, true
}

// liveContextArgs reads GetLiveContext's arguments as its probatio schema
// does: name and area as text, domain as text or a list of text (cv.string
// turns numbers into text). A non-empty message is the schema's refusal,
// in probatio's words.
func liveContextArgs(args map[string]any) (map[string]any, string) {
	out := map[string]any{}
	for k, v := range args {
		switch k {
		case "name", "area", "domain":
			if list, isList := v.([]any); isList && k == "domain" {
				items := make([]any, 0, len(list))
				for _, x := range list {
					s, isStr := cvString(x)
					if !isStr {
						return nil, fmt.Sprintf("value should be a string at 'domain[%d]'", len(items))
					}
					items = append(items, s)
				}
				out[k] = items
				continue
			}
			s, isStr := cvString(v)
			switch {
			case v == nil:
				return nil, "string value is None at '" + k + "'"
			case !isStr:
				return nil, "value should be a string at '" + k + "'"
			}
			out[k] = s
		default:
			return nil, "not a valid option at '" + k + "'"
		}
	}
	return out, ""
}

// cvString is Home Assistant's cv.string: text stays, numbers and booleans
// become their str(), None, lists and objects are refused.
func cvString(v any) (string, bool) {
	switch v.(type) {
	case nil, []any, map[string]any:
		return "", false
	case float64:
		f := v.(float64)
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return strconv.FormatInt(int64(f), 10), true // a JSON integer is a Python int
		}
	}
	return pyStr(v), true
}

// pyInt is probatio.Coerce(int): Python's int() of a decoded JSON value.
func pyInt(v any) (int, bool) {
	switch t := v.(type) {
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	case float64:
		if math.IsNaN(t) || math.Abs(t) > 1e15 {
			return 0, false
		}
		return int(t), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(t))
		return n, err == nil
	}
	return 0, false
}

// target is the matching part of an intent's slots.
type target struct {
	name, area, floor string
	domains, classes  []string // nil: no constraint
}

// intentTarget reads the slots intentSlots checked into match
// constraints, as DynamicServiceIntentHandler does ("all" names nothing); a
// non-empty message is its refusal when nothing constrains the match.
func intentTarget(args map[string]any) (target, string) {
	t := target{domains: stringList(args["domain"]), classes: stringList(args["device_class"])}
	t.name, _ = args["name"].(string)
	t.area, _ = args["area"].(string)
	t.floor, _ = args["floor"].(string)
	if t.name == "all" {
		t.name = ""
	}
	if t.name == "" && t.area == "" && t.floor == "" && t.domains == nil && t.classes == nil {
		return t, "Service handler cannot target all devices"
	}
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

// matchFailureReasons are the sentences of Home Assistant's
// _MATCH_FAILURE_REASONS (helpers/intent.py), by MatchFailedReason.
var matchFailureReasons = map[string]string{
	"NAME":             "No entities matched the name",
	"AREA":             "No entities were in the area",
	"FLOOR":            "No entities were on the floor",
	"DOMAIN":           "No entities matched the domain",
	"DEVICE_CLASS":     "No entities matched the device class",
	"FEATURE":          "No entities supported the required features",
	"STATE":            "No entities were in the required state",
	"ASSISTANT":        "No matching entities are exposed to the assistant",
	"INVALID_AREA":     "The area does not exist",
	"INVALID_FLOOR":    "The floor does not exist",
	"DUPLICATE_NAME":   "Multiple entities share the name",
	"MULTIPLE_TARGETS": "Multiple entities matched, but a single target is required",
}

// matchFailure is str() of Home Assistant's MatchFailedError
// (_match_failure_message): the reason's sentence, then the constraints
// that were set, as _describe_constraints lists them. The failing name is
// not repeated: the constraints already hold it.
func matchFailure(reason string, _ string, t target) string {
	msg := cmpOr(matchFailureReasons[reason], "No entities matched")
	var given []string
	for _, c := range []struct{ label, value string }{{"name", t.name}, {"area", t.area}, {"floor", t.floor}} {
		if c.value != "" {
			given = append(given, c.label+" "+pyRepr(c.value))
		}
	}
	for _, c := range []struct {
		label  string
		values []string
	}{{"domains", t.domains}, {"device classes", t.classes}} {
		if len(c.values) > 0 {
			v := slices.Clone(c.values)
			slices.Sort(v)
			given = append(given, c.label+" "+strings.Join(slices.Compact(v), ", "))
		}
	}
	if len(given) == 0 {
		return msg
	}
	return msg + " (given " + strings.Join(given, ", ") + ")"
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
	if _, ok := args["domain"]; !ok {
		args["domain"] = []any{"light"} // the handler's required domain
	}
	t, msg := intentTarget(args)
	if msg != "" {
		return intentError(msg)
	}
	pct := -1
	if b, ok := args["brightness"].(float64); ok {
		pct = int(b)
	}
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
		// A ToolResult with error set: the MCP server marks it an error.
		return pyDumps(obj{{"error", errText}}), true
	}
	return pyDumps(obj{{"result", text}}), false
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
	return pyDumps(obj{
		{"date", now.Format("2006-01-02")},
		{"time", now.Format("15:04:05")},
		{"timezone", now.Format("MST")},
		{"weekday", now.Weekday().String()},
	}), false
}
