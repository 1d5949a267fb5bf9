package words

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// Period is the stretch of time a history answer covers, as the person gave it.
type Period struct {
	Start, End time.Time
	Hours      int // the last N hours, or 0 when Start was given as a time
}

// Say says the period as the first words of an answer: "In the last twelve
// hours", "Since 8 AM today".
func (p Period) Say(lang voice.Lang, loc *time.Location) string {
	switch {
	case p.Hours == 1:
		return say(lang, "happened.period.hour")
	case p.Hours%24 == 0 && p.Hours > 24:
		if p.Hours == 168 {
			return say(lang, "happened.period.week")
		}
		return say(lang, "happened.period.days", "n", lang.Number(p.Hours/24))
	case p.Hours > 0:
		return say(lang, "happened.period.hours", "n", lang.Number(p.Hours))
	}
	return say(lang, "happened.period.since", "when", whenBare(lang, p.Start, p.End, loc))
}

// happening is one thing to say about one entity over the period.
type happening struct {
	rank int       // 0 said first
	last time.Time // its latest moment, for time order
	text string    // a sentence
}

// Happened says what changed over the period in the exposed part of the
// house, from the history of entities known by identity: the most important
// thing first, in a sentence that alone answers "what happened?", then the
// rest in time order, at most limit sentences, the remainder counted. Alarms
// and smoke come first, then doors, windows, gates and locks (and whether
// they are still open), then presence and motion, counted ("three times,
// last at 2:02 PM"), then lights left on and cameras that went unavailable,
// and last anything else a device did (a light turned on and off, a door
// closed, an alarm armed), so that asking about one device tells it.
// hist holds, per entity id, the states from the period's start (its first
// entry the state held then). Times are said in loc.
func Happened(lang voice.Lang, loc *time.Location, p Period, devices []Device, hist map[string][]homeassistant.Change, limit int) string {
	var hs []happening
	for _, d := range devices {
		if d.ID == "" {
			continue // only a device known by identity has a history of its own
		}
		ch := hist[d.ID]
		if len(ch) == 0 {
			continue
		}
		hs = append(hs, happened(lang, loc, p, d, ch)...)
	}
	lead := say(lang, "happened.nothing")
	if len(hs) == 0 {
		return voice.Sentence(say(lang, "happened.lead", "period", p.Say(lang, loc), "first", lead))
	}
	// The most important first; among equals, the latest.
	slices.SortStableFunc(hs, func(a, b happening) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return b.last.Compare(a.last)
	})
	// What the limit leaves out is the least important, never whatever
	// happened last; what is told after the first is in time order.
	told := hs[:max(1, min(limit, len(hs)))]
	first, rest := told[0], slices.Clone(told[1:])
	slices.SortStableFunc(rest, func(a, b happening) int { return a.last.Compare(b.last) })
	out := []string{say(lang, "happened.lead", "period", p.Say(lang, loc), "first", first.text)}
	for _, h := range rest {
		out = append(out, h.text)
	}
	untold := len(hs) - len(told)
	if untold > 0 {
		out = append(out, sayN(lang, "happened.untold", untold, "n", lang.Number(untold)))
	}
	return voice.Paragraph(out...)
}

// happened says what one entity did over the period: nothing when it did
// nothing worth a word (a camera recording, a motion sensor going quiet).
func happened(lang voice.Lang, loc *time.Location, p Period, d Device, ch []homeassistant.Change) []happening {
	name := Quote(lang, d.Name())
	unnamed := name == "" // a name made only of what cannot be said
	if unnamed {
		name = say(lang, "happened.unnamed")
	}
	// The first entry is the state at the start when it is no later than it.
	from := 0
	if !ch[0].At.After(p.Start.Add(time.Second)) {
		from = 1
	}
	changes := ch[from:]
	if len(changes) == 0 {
		return nil
	}
	at := func(t time.Time) string { return when(lang, t, p.End, loc) }
	bare := func(t time.Time) string { return whenBare(lang, t, p.End, loc) }
	now := ch[len(ch)-1].State
	count := func(states ...string) (n int, last time.Time) {
		for _, c := range changes {
			if slices.Contains(states, c.State) {
				n, last = n+1, c.At
			}
		}
		return n, last
	}
	firstOf := func(states ...string) time.Time {
		for _, c := range changes {
			if slices.Contains(states, c.State) {
				return c.At
			}
		}
		return time.Time{}
	}
	lastOf := func(states ...string) time.Time {
		var t time.Time
		for _, c := range changes {
			if slices.Contains(states, c.State) {
				t = c.At
			}
		}
		return t
	}
	// minor says, least important of all, what the entity did that is
	// none of the above: told when the limit leaves room, as when one
	// device or room is asked about, and only counted otherwise.
	minor := func() []happening {
		// Only gone and back: said as such.
		before := ""
		if from > 0 {
			before = ch[0].State
		}
		onlyAway := slices.ContainsFunc(changes, func(c homeassistant.Change) bool { return !known(c.State) }) &&
			!slices.ContainsFunc(changes, func(c homeassistant.Change) bool { return known(c.State) && c.State != before })
		if t := firstOf("unavailable", "unknown"); onlyAway && !t.IsZero() {
			if !known(now) {
				return []happening{{rankMinor, t, unavailableWords(lang, say(lang, "device.the", "name", name), bare, t, time.Time{})}}
			}
			back := changes[len(changes)-1].At
			return []happening{{rankMinor, back, unavailableWords(lang, say(lang, "device.the", "name", name), bare, t, back)}}
		}
		last := changes[len(changes)-1]
		st, t := stateWords(lang, last.State), last.At
		if len(changes) == 1 {
			changedTo := Key("happened.changed_to")
			if kind(d) == kindAlarm {
				changedTo = "happened.alarm_changed_to" // une alarme, in French
			}
			return []happening{{rankMinor, t, voice.Sentence(say(lang, changedTo, "name", name, "state", st, "at", at(t)))}}
		}
		return []happening{{rankMinor, t, voice.Sentence(say(lang, "happened.changed", "name", name, "times", timesWord(lang, len(changes)), "state", st, "at", at(t)))}}
	}
	switch kind(d) {
	case kindSafety:
		if n, t := count("on"); n > 0 {
			return []happening{{0, t, voice.Sentence(say(lang, "happened.safety", "name", name, "at", at(t)))}}
		}
	case kindAlarm:
		if n, t := count("triggered"); n > 0 {
			return []happening{{0, t, voice.Sentence(say(lang, "happened.alarm.went_off", "name", name, "at", at(t)))}}
		}
		if t := lastOf("disarmed"); !t.IsZero() {
			return []happening{{2, t, voice.Sentence(say(lang, "happened.alarm.disarmed", "name", name, "at", at(t)))}}
		}
		return minor()
	case kindOpening, kindLock:
		open, shut := []string{"on", "open", "opening"}, []string{"off", "closed"}
		k := "happened.opening."
		var out []happening
		if kind(d) == kindLock {
			// A lock that jammed neither locked nor unlocked: said apart.
			open, shut = []string{"unlocking", "unlocked", "opening", "open"}, []string{"locked"}
			k = "happened.lock."
			if jams := entered(ch, from, "jammed"); len(jams) > 0 {
				t := jams[len(jams)-1]
				jammed := Key("happened.lock.jammed")
				if now == "jammed" {
					jammed = "happened.lock.jammed_still"
				}
				out = append(out, happening{1, t, voice.Sentence(say(lang, jammed, "name", name, "at", at(t)))})
			}
		}
		opens := entered(ch, from, open...)
		n := len(opens)
		if n == 0 {
			if len(out) > 0 {
				return out
			}
			if shuts := entered(ch, from, shut...); len(shuts) > 0 && slices.Contains(shut, now) {
				t := shuts[len(shuts)-1]
				return []happening{{rankMinor, t, voice.Sentence(say(lang, Key(k+"shut"), "name", name, "at", at(t)))}}
			}
			return minor()
		}
		t := opens[n-1]
		stillOpen := slices.Contains(open, now)
		var shutAt time.Time
		if !stillOpen {
			for _, c := range changes {
				if c.At.After(t) && slices.Contains(shut, c.State) {
					shutAt = c.At
					break
				}
			}
		}
		var text string
		switch {
		case n == 1 && stillOpen:
			text = say(lang, Key(k+"once_still"), "name", name, "at", at(t))
		case n == 1 && !shutAt.IsZero():
			text = say(lang, Key(k+"once_shut"), "name", name, "at", at(t), "shut_at", at(shutAt))
		case n == 1:
			text = say(lang, Key(k+"once"), "name", name, "at", at(t))
		case stillOpen:
			text = say(lang, Key(k+"many_still"), "name", name, "times", timesWord(lang, n), "at", at(t))
		default:
			text = say(lang, Key(k+"many"), "name", name, "times", timesWord(lang, n), "at", at(t))
		}
		return append(out, happening{1, t, voice.Sentence(text)})
	case kindPresence, kindMotion:
		seen := entered(ch, from, "on")
		n := len(seen)
		if n == 0 {
			return nil
		}
		t := seen[n-1]
		k, rank := "happened.presence.", 3
		if kind(d) == kindMotion {
			k, rank = "happened.motion.", 4
		}
		if n == 1 {
			return []happening{{rank, t, voice.Sentence(say(lang, Key(k+"once"), "name", name, "at", at(t)))}}
		}
		return []happening{{rank, t, voice.Sentence(say(lang, Key(k+"many"), "name", name, "times", timesWord(lang, n), "at", at(t)))}}
	case kindLight:
		if ons := entered(ch, from, "on"); now == "on" && len(ons) > 0 {
			t := ons[len(ons)-1]
			return []happening{{5, t, voice.Sentence(say(lang, "happened.light.still_on", "name", name, "at", at(t)))}}
		}
		ons, offs := entered(ch, from, "on"), entered(ch, from, "off")
		switch {
		case len(ons) == 1 && now == "off" && len(offs) > 0:
			t, off := ons[0], offs[len(offs)-1]
			return []happening{{rankMinor, off, voice.Sentence(say(lang, "happened.light.on_off", "name", name, "at", at(t), "off_at", at(off)))}}
		case len(ons) > 1 && now == "off":
			t := ons[len(ons)-1]
			return []happening{{rankMinor, t, voice.Sentence(say(lang, "happened.light.many_off", "name", name, "times", timesWord(lang, len(ons)), "at", at(t)))}}
		case len(ons) == 0 && now == "off" && len(offs) > 0:
			off := offs[len(offs)-1]
			return []happening{{rankMinor, off, voice.Sentence(say(lang, "happened.light.off", "name", name, "at", at(off)))}}
		}
		return minor()
	case kindCamera:
		t := firstOf("unavailable")
		if t.IsZero() {
			return nil
		}
		back := time.Time{}
		for _, c := range changes {
			if c.At.After(t) && c.State != "unavailable" {
				back = c.At
				break
			}
		}
		cam := say(lang, "happened.camera", "name", name)
		if unnamed {
			cam = say(lang, "happened.camera_unnamed")
		}
		if back.IsZero() {
			return []happening{{6, t, unavailableWords(lang, cam, bare, t, back)}}
		}
		return []happening{{6, back, unavailableWords(lang, cam, bare, t, back)}}
	}
	return minor()
}

// entered returns the moments, after ch[from-1], when the entity came into
// one of states from a known state outside them (or from no known state):
// unavailable and unknown between two such states are Home Assistant or the
// device restarting, not a new opening, and a cover's opening then open is
// one opening.
func entered(ch []homeassistant.Change, from int, states ...string) []time.Time {
	last := ""
	if from > 0 && known(ch[0].State) {
		last = ch[0].State
	}
	var out []time.Time
	for _, c := range ch[from:] {
		if !known(c.State) {
			continue
		}
		if slices.Contains(states, c.State) && !slices.Contains(states, last) {
			out = append(out, c.At)
		}
		last = c.State
	}
	return out
}

// known reports whether a state says something of the device itself.
func known(state string) bool { return state != "unavailable" && state != "unknown" }

// rankMinor ranks what is told last of all, and counted when there is no
// room for it.
const rankMinor = 7

// timesWord says "twice", "three times"; « deux fois ».
func timesWord(lang voice.Lang, n int) string {
	if n == 2 {
		return say(lang, "happened.twice")
	}
	return say(lang, "happened.times", "n", lang.Number(n))
}

// entityKind is what history says of an entity.
type entityKind int

const (
	kindOther entityKind = iota
	kindSafety
	kindAlarm
	kindOpening
	kindLock
	kindPresence
	kindMotion
	kindLight
	kindCamera
)

// kind sorts an entity by its domain and device class.
func kind(d Device) entityKind {
	switch d.Domain {
	case "lock":
		return kindLock
	case "alarm_control_panel":
		return kindAlarm
	case "cover":
		switch d.Class {
		case "awning", "blind", "curtain", "damper", "shade", "shutter":
			return kindOther // light and air, not a way in: a minor change
		}
		return kindOpening
	case "valve":
		return kindOpening
	case "light":
		return kindLight
	case "camera":
		return kindCamera
	case "binary_sensor":
		switch d.Class {
		case "door", "window", "garage_door", "opening":
			return kindOpening
		case "occupancy", "presence":
			return kindPresence
		case "motion", "moving":
			return kindMotion
		case "smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety":
			return kindSafety
		}
	}
	return kindOther
}

// Tellable reports whether a device's history says something maison tells.
func Tellable(d Device) bool { return kind(d) != kindOther }

// unavailableWords says that what (a device or a camera, as a sentence
// names it) has been unavailable since gone, or, when back is set, from
// gone to back; bare says a moment after "since" and "from".
func unavailableWords(lang voice.Lang, what string, bare func(time.Time) string, gone, back time.Time) string {
	if back.IsZero() {
		return voice.Sentence(say(lang, "happened.unavailable_since", "what", what, "gone", bare(gone)))
	}
	return voice.Sentence(say(lang, "happened.unavailable_from", "what", what, "gone", bare(gone), "back", bare(back)))
}

// when says a moment to follow a verb, in loc and relative to now: "at 2:02
// PM", "yesterday at 9:10 PM", "on Monday at 8 AM"; « à 14 h 02 », « hier à
// 21 h 10 », « lundi à 8 h ».
func when(lang voice.Lang, t, now time.Time, loc *time.Location) string {
	return moment(lang, t, now, loc, lang.Clock(t.In(loc)))
}

// whenBare is when, for a moment today said as a time of day alone: "since
// 2:02 PM", « depuis 14 h 02 ».
func whenBare(lang voice.Lang, t, now time.Time, loc *time.Location) string {
	return moment(lang, t, now, loc, lang.TimeOfDay(t.In(loc)))
}

// moment says t by its day relative to now's, and today as today, with its
// clock time as said.
func moment(lang voice.Lang, t, now time.Time, loc *time.Location, today string) string {
	t, now = t.In(loc), now.In(loc)
	clock := lang.Clock(t)
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	midnight := time.Date(ny, nm, nd, 0, 0, 0, 0, loc)
	day := time.Date(ty, tm, td, 0, 0, 0, 0, loc)
	switch days := int(midnight.Sub(day).Hours()/24 + 0.5); {
	case days <= 0:
		return today
	case days == 1:
		return say(lang, "when.yesterday", "clock", clock)
	case days < 7:
		return say(lang, "when.weekday", "weekday", weekdays[t.Weekday()].In(lang), "clock", clock)
	}
	return say(lang, "when.date", "weekday", weekdays[t.Weekday()].In(lang), "month", months[t.Month()-1].In(lang),
		"day", strconv.Itoa(t.Day()), "clock", clock)
}

// weekdays and months name the days of the week, from Sunday, and the
// months of the year.
var (
	weekdays = [...]Key{"weekday.sunday", "weekday.monday", "weekday.tuesday", "weekday.wednesday", "weekday.thursday",
		"weekday.friday", "weekday.saturday"}
	months = [...]Key{"month.january", "month.february", "month.march", "month.april", "month.may", "month.june",
		"month.july", "month.august", "month.september", "month.october", "month.november", "month.december"}
)

// lowerFirst lowers the first letter of s, when it is an ASCII capital: a
// sentence said after another's first words.
func lowerFirst(s string) string {
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			return s[:i] + strings.ToLower(string(r)) + s[i+1:]
		}
		return s
	}
	return s
}
