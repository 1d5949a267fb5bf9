package assist

import (
	"slices"
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// SayHappened says what changed over the period in the exposed part of the
// house (words.Happened), from entities, their facts and hist, the states
// of each entity id from the period's start, as Happened reads them. Times
// are said in loc.
func SayHappened(lang voice.Lang, loc *time.Location, p words.Period, ents []Entity, facts func(Entity) Facts, hist map[string][]homeassistant.Change, limit int) string {
	told, untold := Happened(p, devices(ents, facts), hist, limit)
	return words.Happened(lang, loc, p, told, untold)
}

// Tellable reports whether an entity's history says something maison tells.
func Tellable(e Entity, f Facts) bool { return kind(Device(e, f)) != kindOther }

// Happened reads what changed over the period from the history of devices
// known by identity, and chooses what to tell: the most important event
// first, one that alone answers "what happened?", then the rest in time
// order, at most limit events; untold counts what the limit leaves out,
// always the least important. Alarms and smoke come first, then doors,
// windows, gates and locks (and whether they are still open), then
// presence and motion, counted, then lights left on and cameras that went
// unavailable, and last anything else a device did (a light turned on and
// off, a door closed, an alarm armed), so that asking about one device
// tells it. hist holds, per entity id, the states from the period's start
// (its first entry the state held then).
func Happened(p words.Period, devices []words.Device, hist map[string][]homeassistant.Change, limit int) (told []words.Event, untold int) {
	var hs []happening
	for _, d := range devices {
		if d.ID == "" {
			continue // only a device known by identity has a history of its own
		}
		if ch := hist[d.ID]; len(ch) > 0 {
			hs = append(hs, happened(p, d, ch)...)
		}
	}
	if len(hs) == 0 {
		return nil, 0
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
	kept := hs[:max(1, min(limit, len(hs)))]
	rest := slices.Clone(kept[1:])
	slices.SortStableFunc(rest, func(a, b happening) int { return a.last.Compare(b.last) })
	told = append(told, kept[0].Event)
	for _, h := range rest {
		told = append(told, h.Event)
	}
	return told, len(hs) - len(kept)
}

// happening is one event of one entity over the period, with its rank.
type happening struct {
	words.Event
	rank int       // 0 told first
	last time.Time // its latest moment, for time order
}

// happened reads what one entity did over the period: nothing when it did
// nothing worth a word (a camera recording, a motion sensor going quiet).
func happened(p words.Period, d words.Device, ch []homeassistant.Change) []happening {
	ev := func(rank int, last time.Time, e words.Event) []happening {
		e.Device = d
		return []happening{{Event: e, rank: rank, last: last}}
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
	// minor reads, least important of all, what the entity did that is
	// none of the above: told when the limit leaves room, as when one
	// device or room is asked about, and only counted otherwise.
	minor := func() []happening {
		// Only gone and back: told as such.
		before := ""
		if from > 0 {
			before = ch[0].State
		}
		onlyAway := slices.ContainsFunc(changes, func(c homeassistant.Change) bool { return !known(c.State) }) &&
			!slices.ContainsFunc(changes, func(c homeassistant.Change) bool { return known(c.State) && c.State != before })
		if t := firstOf("unavailable", "unknown"); onlyAway && !t.IsZero() {
			if !known(now) {
				return ev(rankMinor, t, words.Event{What: words.Unavailable, At: t})
			}
			back := changes[len(changes)-1].At
			return ev(rankMinor, back, words.Event{What: words.Unavailable, At: t, Until: back})
		}
		last := changes[len(changes)-1]
		return ev(rankMinor, last.At, words.Event{What: words.Changed, At: last.At, Times: len(changes), State: last.State})
	}
	switch kind(d) {
	case kindSafety:
		if n, t := count("on"); n > 0 {
			return ev(0, t, words.Event{What: words.Alarmed, At: t})
		}
	case kindAlarm:
		if n, t := count("triggered"); n > 0 {
			return ev(0, t, words.Event{What: words.WentOff, At: t})
		}
		if t := lastOf("disarmed"); !t.IsZero() {
			return ev(2, t, words.Event{What: words.Disarmed, At: t})
		}
		return minor()
	case kindOpening, kindLock:
		open, shut := []string{"on", "open", "opening"}, []string{"off", "closed"}
		opened, closed := words.Opened, words.Closed
		var out []happening
		if kind(d) == kindLock {
			// A lock that jammed neither locked nor unlocked: told apart.
			open, shut = []string{"unlocking", "unlocked", "opening", "open"}, []string{"locked"}
			opened, closed = words.Unlocked, words.Locked
			if jams := entered(ch, from, "jammed"); len(jams) > 0 {
				t := jams[len(jams)-1]
				out = append(out, ev(1, t, words.Event{What: words.Jammed, At: t, Still: now == "jammed"})...)
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
				return ev(rankMinor, t, words.Event{What: closed, At: t})
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
		return append(out, ev(1, t, words.Event{What: opened, At: t, Times: n, Still: stillOpen, Until: shutAt})...)
	case kindPresence, kindMotion:
		seen := entered(ch, from, "on")
		n := len(seen)
		if n == 0 {
			return nil
		}
		t := seen[n-1]
		what, rank := words.Seen, 3
		if kind(d) == kindMotion {
			what, rank = words.Moved, 4
		}
		return ev(rank, t, words.Event{What: what, At: t, Times: n})
	case kindLight:
		if ons := entered(ch, from, "on"); now == "on" && len(ons) > 0 {
			t := ons[len(ons)-1]
			return ev(5, t, words.Event{What: words.LightOn, At: t, Times: 1, Still: true})
		}
		ons, offs := entered(ch, from, "on"), entered(ch, from, "off")
		switch {
		case len(ons) == 1 && now == "off" && len(offs) > 0:
			t, off := ons[0], offs[len(offs)-1]
			return ev(rankMinor, off, words.Event{What: words.LightOn, At: t, Times: 1, Until: off})
		case len(ons) > 1 && now == "off":
			t := ons[len(ons)-1]
			return ev(rankMinor, t, words.Event{What: words.LightOn, At: t, Times: len(ons)})
		case len(ons) == 0 && now == "off" && len(offs) > 0:
			off := offs[len(offs)-1]
			return ev(rankMinor, off, words.Event{What: words.LightOff, At: off})
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
		if back.IsZero() {
			return ev(6, t, words.Event{What: words.Unavailable, At: t})
		}
		return ev(6, back, words.Event{What: words.Unavailable, At: t, Until: back})
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
func kind(d words.Device) entityKind {
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
		switch {
		case slices.Contains(openingClasses, d.Class):
			return kindOpening
		case slices.Contains(presenceClasses, d.Class):
			return kindPresence
		case slices.Contains(motionClasses, d.Class):
			return kindMotion
		case slices.Contains(safetyClasses, d.Class):
			return kindSafety
		}
	}
	return kindOther
}
