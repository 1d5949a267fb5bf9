package words

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/voice"
)

// Device is one device exposed to Assist, as a sentence says it: the facts
// assist gathers from Home Assistant's live context and websocket states.
type Device struct {
	// ID is the entity id when the device is known by identity; "" when
	// only its words are known: it is then counted, never said.
	ID         string
	Doubt      Doubt             // why ID is "": 0 when known by identity
	Names      []string          // its name first, then its aliases
	Area       string            // its area's name, or ""
	Domain     string            // light, lock, camera, ...
	State      string            // as Home Assistant says it: "on", "locked", "21.5"
	Attributes map[string]string // brightness, unit_of_measurement, ...
	Class      string            // its device class, or ""
	Changed    time.Time         // its last change; zero when unknown
}

// Name is the device's first name, or "".
func (d Device) Name() string {
	if len(d.Names) == 0 {
		return ""
	}
	return d.Names[0]
}

// Doubt is why a device exposed to Assist is known by its words only: it
// could not be tied to one entity id (assist.Resolve).
type Doubt int

const (
	// DoubtNoMatch: no entity has these words (a name format maison does
	// not know, or a state that came and went).
	DoubtNoMatch Doubt = iota + 1
	// DoubtShared: several entities have these words.
	DoubtShared
	// DoubtUnknownExposure: the one entity with these words has no registry
	// entry, or its entry stores no choice, so its exposure cannot be read.
	DoubtUnknownExposure
	// DoubtChanged: only its words are known to maison, and its state or
	// device class differs from the one entity with the same words.
	DoubtChanged
)

// maxName bounds a name read from Home Assistant before it is spoken.
const maxName = 80

// Name makes a name read from Home Assistant safe to say: cleaned and bounded.
// Answers carry it through Quote, as quoted data.
func Name(s string) string { return voice.Clean(s, maxName) }

// Quote is a name, state or other text read from Home Assistant as an
// answer carries it: cleaned, bounded and delimited as quoted data (“…” in
// English, « … » in French), its own quotation marks neutralised.
func Quote(lang voice.Lang, s string) string { return lang.Quote(s, maxName) }

// State says one device's state in a sentence, or "" when there is
// nothing worth saying.
func State(lang voice.Lang, d Device, now time.Time) string {
	name := Quote(lang, d.Name())
	if name == "" {
		return ""
	}
	ago := ""
	if !d.Changed.IsZero() {
		ago = lang.Ago(now.Sub(d.Changed))
	}
	on := d.State == "on"
	switch d.Domain {
	case "binary_sensor":
		switch d.Class {
		case "motion", "moving":
			if on {
				return voice.Sentence(say(lang, "house.state.motion_now", "name", name))
			}
			if ago != "" {
				return voice.Sentence(say(lang, "house.state.motion_last", "name", name, "ago", ago))
			}
			return voice.Sentence(say(lang, "house.state.motion_none", "name", name))
		case "occupancy", "presence":
			if on {
				return voice.Sentence(say(lang, "house.state.presence_now", "name", name))
			}
			if ago != "" {
				return voice.Sentence(say(lang, "house.state.presence_last", "name", name, "ago", ago))
			}
			return voice.Sentence(say(lang, "house.state.presence_none", "name", name))
		case "door", "window", "garage_door", "opening":
			if on {
				return voice.Sentence(say(lang, "house.state.opening_open", "name", name))
			}
			return voice.Sentence(say(lang, "house.state.opening_closed", "name", name))
		case "smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety":
			if on {
				return voice.Sentence(say(lang, "house.state.safety_alarm", "name", name))
			}
			return voice.Sentence(say(lang, "house.state.safety_clear", "name", name))
		}
	case "light":
		if on {
			if b, err := strconv.ParseFloat(d.Attributes["brightness"], 64); err == nil && b > 0 {
				pct := int(math.Round(b / 255 * 100))
				return voice.Sentence(say(lang, "house.state.light_percent", "name", name, "pct", lang.Number(pct)))
			}
			return voice.Sentence(say(lang, "house.state.light_on", "name", name))
		}
		return voice.Sentence(say(lang, "house.state.light_off", "name", name))
	case "lock":
		return voice.Sentence(say(lang, "house.state.lock", "name", name, "state", stateWords(lang, d.State)))
	case "cover":
		return voice.Sentence(say(lang, "house.state.cover", "name", name, "state", stateWords(lang, d.State)))
	case "sensor":
		if v, err := strconv.ParseFloat(d.State, 64); err == nil {
			unit := d.Attributes["unit_of_measurement"]
			return voice.Sentence(say(lang, "house.state.sensor", "name", name, "measure", lang.Measure(v, unit)))
		}
	case "camera":
		return voice.Sentence(say(lang, "house.state.camera", "name", name, "state", stateWords(lang, d.State)))
	case "todo":
		// A to-do list's state is how many of its items are not done.
		if n, err := strconv.Atoi(d.State); err == nil && n >= 0 {
			if n == 0 {
				return voice.Sentence(say(lang, "house.state.todo_none", "name", name))
			}
			return voice.Sentence(sayN(lang, "house.state.todo", n, "name", name, "n", lang.Number(n)))
		}
	case "media_player":
		if title := Quote(lang, d.Attributes["media_title"]); title != "" && d.State == "playing" {
			if artist := Quote(lang, d.Attributes["media_artist"]); artist != "" {
				return voice.Sentence(say(lang, "house.state.media_by", "name", name, "title", title, "artist", artist))
			}
			return voice.Sentence(say(lang, "house.state.media", "name", name, "title", title))
		}
	}
	if d.State == "" || d.State == "unknown" {
		return voice.Sentence(say(lang, "house.state.unknown", "name", name))
	}
	s := say(lang, "house.state.other", "name", name, "state", stateWords(lang, d.State))
	if more := settings(lang, d); len(more) > 0 {
		s += ", " + lang.List(more)
	}
	return voice.Sentence(s)
}

// settings are what the live context says of a thermostat, a water heater
// or a humidifier beyond its mode: what it reads and what it aims for.
func settings(lang voice.Lang, d Device) []string {
	unit, reading, aim := d.Attributes["temperature_unit"], "current_temperature", "temperature"
	switch d.Domain {
	case "climate", "water_heater":
	case "humidifier":
		unit, reading, aim = "%", "current_humidity", "humidity"
	default:
		return nil
	}
	var out []string
	for _, c := range []struct {
		attr string
		key  Key
	}{{reading, "house.state.reading"}, {aim, "house.state.aiming"}} {
		if v, err := strconv.ParseFloat(d.Attributes[c.attr], 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			out = append(out, say(lang, c.key, "measure", lang.Measure(v, unit)))
		}
	}
	return out
}

// stateWords says a state Home Assistant reported: a state maison knows in
// its own words, any other text as quoted data.
func stateWords(lang voice.Lang, s string) string {
	if k, ok := stateKeys[s]; ok {
		return k.In(lang)
	}
	return Quote(lang, s)
}

// stateKeys are the states maison says in its own words.
var stateKeys = map[string]Key{
	"on":             "state.on",
	"off":            "state.off",
	"open":           "state.open",
	"closed":         "state.closed",
	"opening":        "state.opening",
	"closing":        "state.closing",
	"locked":         "state.locked",
	"unlocked":       "state.unlocked",
	"jammed":         "state.jammed",
	"locking":        "state.locking",
	"unlocking":      "state.unlocking",
	"disarmed":       "state.disarmed",
	"armed_away":     "state.armed_away",
	"armed_home":     "state.armed_home",
	"armed_night":    "state.armed_night",
	"armed_vacation": "state.armed_vacation",
	"arming":         "state.arming",
	"pending":        "state.pending",
	"triggered":      "state.triggered",
	"idle":           "state.idle",
	"recording":      "state.recording",
	"streaming":      "state.streaming",
	"unavailable":    "state.unavailable",
	// Media players, vacuums, mowers, thermostats' modes, people.
	"playing":   "state.playing",
	"paused":    "state.paused",
	"standby":   "state.standby",
	"buffering": "state.buffering",
	"docked":    "state.docked",
	"cleaning":  "state.cleaning",
	"returning": "state.returning",
	"mowing":    "state.mowing",
	"heat":      "state.heat",
	"cool":      "state.cool",
	"heat_cool": "state.heat_cool",
	"dry":       "state.dry",
	"fan_only":  "state.fan_only",
	"home":      "state.home",
	"not_home":  "state.not_home",
}

// Home is the house as assist reads it for a sentence: what the first
// sentence names, and the devices said one by one, in the order that
// matters to a person coming home.
type Home struct {
	Empty    bool     // nothing at all is shared with Assist
	Open     []Device // open doors, windows, gates, covers and valves
	Unlocked []Device // locks not locked
	LightsOn int      // lights that are on
	Others   []Device // the devices said one by one, most important first
	Cameras  []Device // named together, last; a state said only when it tells something
}

// House says the state of the house, with a first sentence that is enough
// on its own, then the other devices in their order. At most limit devices
// are described; the rest are counted, by the rooms that hold them.
func House(lang voice.Lang, h Home, now time.Time, limit int) string {
	if h.Empty {
		return say(lang, "house.nothing_shared")
	}
	named := max(limit/3, 1) // of each group named together; the others counted
	// names are the devices with a name, the first of them named, the
	// others counted; count is how many have one.
	names := func(ds []Device) (out []string, count int) {
		for _, d := range ds {
			if q := Quote(lang, d.Name()); q != "" {
				if count < named {
					out = append(out, q)
				}
				count++
			}
		}
		out = the(lang, out)
		if n := count - len(out); n > 0 {
			out = append(out, say(lang, "house.others", "n", lang.Number(n)))
		}
		return out, count
	}
	open, unlocked := h.Open, h.Unlocked
	var first []string
	if len(open) > 0 {
		said, _ := names(open)
		first = append(first, sayN(lang, "house.summary.open", len(open), "names", lang.List(said)))
	}
	if len(unlocked) > 0 {
		said, _ := names(unlocked)
		first = append(first, sayN(lang, "house.summary.unlocked", len(unlocked), "names", lang.List(said)))
	}
	if len(open) == 0 && len(unlocked) == 0 {
		first = append(first, say(lang, "house.summary.all_closed"))
	}
	switch h.LightsOn {
	case 0:
		first = append(first, say(lang, "house.summary.no_lights"))
	case 1:
		first = append(first, say(lang, "house.summary.one_light"))
	default:
		first = append(first, say(lang, "house.summary.lights", "n", lang.Number(h.LightsOn)))
	}
	out := []string{voice.Sentence(strings.Join(first, say(lang, "house.summary.and")))}
	said := 0
	var rest []Device
	for _, d := range h.Others {
		s := State(lang, d, now)
		switch {
		case s == "": // no name to say it by
		case said == limit:
			rest = append(rest, d)
		default:
			out = append(out, s)
			said++
		}
	}
	if len(rest) > 0 {
		out = append(out, more(lang, rest))
	}
	if len(h.Cameras) > 0 {
		// Named together: an idle camera's state says nothing, and may not
		// even say whether it is on (Home Assistant says idle of a camera
		// turned off); the camera tools tell more.
		if cams, n := names(h.Cameras); n > 0 {
			out = append(out, voice.Sentence(sayN(lang, "house.cameras", n, "names", lang.List(cams))))
		}
		told := 0
		for _, d := range h.Cameras {
			if told < named && d.State != "idle" && d.State != "" {
				told++
				if s := State(lang, d, now); s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return voice.Paragraph(out...)
}

// more says how many devices an answer leaves out and which rooms hold
// them, by name, so that the one asking can ask for one room.
func more(lang voice.Lang, rest []Device) string {
	place := func(area string) string {
		if area == "" {
			return say(lang, "house.more.no_place")
		}
		return say(lang, "house.more.place", "room", Quote(lang, area))
	}
	if len(rest) == 1 {
		return sayN(lang, "house.more", 1, "rest", lang.Number(1), "places", place(rest[0].Area))
	}
	var areas []string
	count := map[string]int{}
	for _, d := range rest {
		if count[d.Area] == 0 {
			areas = append(areas, d.Area)
		}
		count[d.Area]++
	}
	// The rooms holding most first; the devices in no room last.
	slices.SortStableFunc(areas, func(a, b string) int {
		switch {
		case a == "" || b == "":
			return strings.Compare(b, a)
		}
		return count[b] - count[a]
	})
	places := make([]string, len(areas))
	for i, a := range areas {
		places[i] = say(lang, "house.more.count", "n", lang.Number(count[a]), "place", place(a))
	}
	return sayN(lang, "house.more", len(rest), "rest", lang.Number(len(rest)), "places", lang.List(places))
}

// the is each quoted name as a sentence names a device: "the “Lamp”" in
// English; in French, the name alone.
func the(lang voice.Lang, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = say(lang, "device.the", "name", n)
	}
	return out
}
