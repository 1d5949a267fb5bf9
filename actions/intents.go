package actions

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"maison/internal/pystr"
)

// How is how maison knows what an Assist tool does.
type How int

const (
	// NotModeled: maison does not know what the tool acts on. It is
	// refused unless it only reads.
	NotModeled How = iota
	// Reads: the tool only reads (GetLiveContext, GetDateTime).
	Reads
	// Resolved: a target-matching intent (helpers/intent.py,
	// DynamicServiceIntentHandler) whose matching maison models exactly:
	// the call is resolved to the entities it reaches before it is sent.
	Resolved
	// Bounded: an intent with matching of its own that acts only on
	// entities of Domains, none of which can open, unlock or disarm
	// anything (a media player, a thermostat, a shopping list).
	Bounded
)

// Intent is what maison knows of one Assist tool.
type Intent struct {
	Name string // the canonical name: HassTurnOn
	// Tool is the name the tool is called by: the one Home Assistant
	// advertises (intent__HassTurnOn, script__goodnight), or for maison's
	// own wrappers the one it advertises from 2026.9.
	Tool string
	// Script is the object id of a script offered as a tool of its own.
	Script string
	How    How
	// Domains are the handler's required domains: the only domains it
	// matches (Resolved) or acts on (Bounded); nil for any.
	Domains []string
	// Features and States are the handler's required features and states.
	Features int
	States   []string
	// DeviceClasses are the values its device_class slot accepts; nil when
	// it has no such slot (a device_class is then refused).
	DeviceClasses []string
	// Values are the other arguments it takes, each checked before sending.
	Values map[string]Value
	// From is the integration that offers it, the prefix of the name Home
	// Assistant advertises from 2026.9 (intent__HassTurnOn); "" means
	// intent.
	From string
}

// Value checks one argument that is not part of the target.
type Value struct {
	Required bool
	Check    func(v any) (any, bool) // the value as sent, or false
}

// The device classes Home Assistant's on/off intents accept (intent
// component, ONOFF_DEVICE_CLASSES), and its cover and valve intents.
var (
	onOffClasses = []string{"awning", "blind", "curtain", "damper", "door", "garage", "gas", "gate", "identify", "outlet",
		"projector", "receiver", "restart", "shade", "shutter", "speaker", "switch", "tv", "update", "water", "window"}
	positionClasses = []string{"awning", "blind", "curtain", "damper", "door", "garage", "gas", "gate", "shade", "shutter", "water", "window"}
	mediaClasses    = []string{"projector", "receiver", "speaker", "tv"}
)

// percent accepts a whole number from 0 to 100 (probatio.Percentage after
// Coerce(int); a fraction is refused rather than rounded as Python would).
func percent(v any) (any, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || f < 0 || f > 100 {
		return nil, false
	}
	return int(f), true
}

func wholeAtLeast0(v any) (any, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		return nil, false
	}
	return int(f), true
}

// number reads a JSON number, or an integer maison's own tools set.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}

func text(v any) (any, bool) {
	s, ok := v.(string)
	return s, ok && strings.TrimSpace(s) != ""
}

// intents are the Assist tools maison knows, by canonical name, as Home
// Assistant 2026.11 defines them (held to Home Assistant's own handlers by
// the real-house tests: realhouse/resolve_test.go).
var intents = map[string]Intent{
	"HassTurnOn":     {How: Resolved, DeviceClasses: onOffClasses},
	"HassTurnOff":    {How: Resolved, DeviceClasses: onOffClasses},
	"HassToggle":     {How: Resolved, DeviceClasses: onOffClasses},
	"HassOpenCover":  {How: Resolved, Domains: []string{"cover"}, DeviceClasses: positionClasses},
	"HassCloseCover": {How: Resolved, Domains: []string{"cover"}, DeviceClasses: positionClasses},
	"HassSetPosition": {How: Resolved, DeviceClasses: positionClasses,
		Values: map[string]Value{"position": {Required: true, Check: percent}}},
	"HassStopMoving": {How: Resolved, DeviceClasses: positionClasses},
	"HassLightSet": {From: "light", How: Resolved, Domains: []string{"light"},
		Values: map[string]Value{"brightness": {Check: percent}, "color": {Check: text}, "temperature": {Check: wholeAtLeast0}}},
	"HassFanSetSpeed": {From: "fan", How: Resolved, Domains: []string{"fan"},
		Values: map[string]Value{"percentage": {Required: true, Check: percent}}},
	"HassVacuumStart":          {From: "vacuum", How: Resolved, Domains: []string{"vacuum"}, Features: 8192},
	"HassVacuumReturnToBase":   {From: "vacuum", How: Resolved, Domains: []string{"vacuum"}, Features: 16},
	"HassLawnMowerStartMowing": {From: "lawn_mower", How: Resolved, Domains: []string{"lawn_mower"}, Features: 1},
	"HassLawnMowerDock":        {From: "lawn_mower", How: Resolved, Domains: []string{"lawn_mower"}, Features: 4},

	"HassMediaPause":            {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaUnpause":          {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaNext":             {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaPrevious":         {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassSetVolume":             {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassSetVolumeRelative":     {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaPlayerMute":       {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaPlayerUnmute":     {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassMediaSearchAndPlay":    {From: "media_player", How: Bounded, Domains: []string{"media_player"}},
	"HassClimateSetTemperature": {From: "climate", How: Bounded, Domains: []string{"climate"}},
	"HassClimateSetFanMode":     {From: "climate", How: Bounded, Domains: []string{"climate"}},
	"HassHumidifierSetpoint":    {From: "humidifier", How: Bounded, Domains: []string{"humidifier"}},
	"HassHumidifierMode":        {From: "humidifier", How: Bounded, Domains: []string{"humidifier"}},
	"HassVacuumCleanArea":       {From: "vacuum", How: Bounded, Domains: []string{"vacuum"}},
	"HassListAddItem":           {From: "todo", How: Bounded, Domains: []string{"todo"}},
	"HassListCompleteItem":      {From: "todo", How: Bounded, Domains: []string{"todo"}},
	"HassListRemoveItem":        {From: "todo", How: Bounded, Domains: []string{"todo"}},
	"HassShoppingListAddItem":   {From: "shopping_list", How: Bounded, Domains: []string{"todo"}},
	"HassCancelAllTimers":       {How: Bounded, Domains: []string{}},

	"GetLiveContext":            {From: "homeassistant", How: Reads},
	"GetDateTime":               {From: "llm", How: Reads},
	"HassGetState":              {How: Reads},
	"HassGetWeather":            {From: "weather", How: Reads},
	"HassGetCurrentDate":        {How: Reads},
	"HassGetCurrentTime":        {How: Reads},
	"HassClimateGetTemperature": {From: "climate", How: Reads},
	"todo_get_items":            {From: "todo", How: Reads},
	"get_items":                 {From: "todo", How: Reads},
	"calendar_get_events":       {From: "calendar", How: Reads},
	"HassShoppingListLastItems": {From: "shopping_list", How: Reads},
}

// IntentOf returns what maison knows of the Assist tool canonical; an
// unknown one is NotModeled.
func IntentOf(canonical string) Intent {
	in, ok := intents[canonical]
	if !ok {
		return Intent{Name: canonical, Tool: canonical, How: NotModeled}
	}
	// The name Home Assistant gives it from 2026.9; the bare name of
	// earlier releases is found from it (homeassistant.Client.CallAssist),
	// and a tool of any other origin never is.
	in.Name, in.Tool = canonical, in.origin()+"__"+canonical
	return in
}

// origin is the prefix of the name Home Assistant advertises in from 2026.9.
func (in Intent) origin() string {
	if in.From == "" {
		return "intent"
	}
	return in.From
}

// IntentOfTool returns what maison knows of a tool by the name Home
// Assistant advertises. A script is offered as a tool of its own, named
// after its object id (script__todo_get_items from 2026.9, the bare object
// id before), which can be the name of a tool maison knows: a script is
// never taken for one. A prefixed name is a script only by its prefix; a
// bare lowercase name could be a script's as well as a tool's, so maison
// models none (the names of intents have capitals, which an object id
// cannot).
func IntentOfTool(advertised string) Intent {
	prefix, canonical := "", advertised
	if i := strings.LastIndex(advertised, "__"); i >= 0 && i+2 < len(advertised) {
		prefix, canonical = advertised[:i], advertised[i+2:]
	}
	if prefix == "script" || strings.HasSuffix(prefix, "__script") {
		return Intent{Name: canonical, Tool: advertised, Script: canonical, How: NotModeled}
	}
	in := IntentOf(canonical)
	if prefix != "" {
		in.Tool = advertised
	}
	switch {
	case prefix == "" && strings.ToLower(canonical) == canonical:
		return Intent{Name: canonical, Tool: advertised, Script: canonical, How: NotModeled}
	case prefix != "" && prefix != in.origin():
		// Another integration's tool, or the owner's own intent
		// (intent_script__…), that bears a known tool's name: what it
		// does cannot be read.
		return Intent{Name: canonical, Tool: advertised, How: NotModeled}
	}
	return in
}

// BareName is what Home Assistant called the tool advertised before 2026.9,
// when it prefixed none (homeassistant.Config.BareName): an intent maison
// models, offered by its own integration, had its canonical name alone. A
// script's tool, another integration's of the same canonical name, or a
// name that could be a script's (lowercase) had none of its own.
func BareName(advertised string) (string, bool) {
	i := strings.LastIndex(advertised, "__")
	if i < 0 || i+2 >= len(advertised) {
		return "", false
	}
	prefix, canonical := advertised[:i], advertised[i+2:]
	in := IntentOfTool(canonical)
	if in.How == NotModeled || in.Script != "" || prefix != in.origin() {
		return "", false
	}
	return canonical, true
}

// ArgError is an argument maison does not send: one the intent does not
// take, or a value it does not accept.
type ArgError struct {
	Arg    string
	Reason string // "unknown", "value", "missing"
}

func (e *ArgError) Error() string { return fmt.Sprintf("actions: argument %q: %s", e.Arg, e.Reason) }

// targetKeys are the arguments that name what a call acts on.
var targetKeys = []string{"name", "area", "floor", "domain", "device_class"}

// Read checks a Resolved intent's arguments and splits them into the
// target and the other values, as they will be sent: text arguments that
// Python's strip leaves empty are left out, as Home Assistant's tool layer
// leaves them out (helpers/llm.py, is_blank_slot_value); anything it does
// not model (preferred_area_id, a number where a name goes, a value out of
// range) is an *ArgError.
func (in Intent) Read(args map[string]any) (Call, map[string]any, error) {
	var c Call
	values := map[string]any{}
	for k, v := range args {
		switch k {
		case "name", "area", "floor":
			s, ok := v.(string)
			if !ok {
				return Call{}, nil, &ArgError{Arg: k, Reason: "value"}
			}
			if blank(s) {
				continue
			}
			switch k {
			case "name":
				c.Name = s
			case "area":
				c.Area = s
			default:
				c.Floor = s
			}
		case "domain", "device_class":
			list, ok := stringList(v)
			if !ok {
				return Call{}, nil, &ArgError{Arg: k, Reason: "value"}
			}
			if len(list) == 0 {
				continue // not sent
			}
			if k == "domain" {
				if in.Domains != nil && slices.ContainsFunc(list, func(d string) bool { return !slices.Contains(in.Domains, d) }) {
					return Call{}, nil, &ArgError{Arg: k, Reason: "value"}
				}
				c.Domain = list
			} else {
				if in.DeviceClasses == nil || slices.ContainsFunc(list, func(d string) bool { return !slices.Contains(in.DeviceClasses, d) }) {
					return Call{}, nil, &ArgError{Arg: k, Reason: "value"}
				}
				c.DeviceClass = list
			}
		default:
			spec, ok := in.Values[k]
			if !ok {
				return Call{}, nil, &ArgError{Arg: k, Reason: "unknown"}
			}
			val, ok := spec.Check(v)
			if !ok {
				return Call{}, nil, &ArgError{Arg: k, Reason: "value"}
			}
			values[k] = val
		}
	}
	for k, spec := range in.Values {
		if _, ok := values[k]; spec.Required && !ok {
			return Call{}, nil, &ArgError{Arg: k, Reason: "missing"}
		}
	}
	return c, values, nil
}

// stringList reads a list of strings; a lone string counts as a list of
// one (probatio.EnsureList).
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case string:
		return []string{l}, true
	case []string:
		return slices.Clone(l), true
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// blank is Home Assistant's is_blank_slot_value for text: nothing left
// once Python strips it.
func blank(s string) bool { return pystr.Strip(s) == "" }
