package words

import (
	"slices"
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
		return lang.Pick("In the last hour", "Depuis une heure")
	case p.Hours%24 == 0 && p.Hours > 24:
		if p.Hours == 168 {
			return lang.Pick("In the last week", "Depuis une semaine")
		}
		return lang.Pick("In the last "+lang.Number(p.Hours/24)+" days", "Ces "+lang.Number(p.Hours/24)+" derniers jours")
	case p.Hours > 0:
		return lang.Pick("In the last "+lang.Number(p.Hours)+" hours", "Ces "+lang.Number(p.Hours)+" dernières heures")
	}
	return lang.Pick("Since ", "Depuis ") + strings.TrimPrefix(strings.TrimPrefix(when(lang, p.Start, p.End, loc), "at "), "à ")
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
	lead := lang.Pick("Nothing changed among the doors, locks, lights and sensors shared with me", "Rien n'a changé parmi les portes, serrures, lumières et capteurs qui me sont partagés")
	if len(hs) == 0 {
		return voice.Sentence(p.Say(lang, loc) + ", " + lowerFirst(lead))
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
	out := []string{p.Say(lang, loc) + ", " + lowerFirst(first.text)}
	for _, h := range rest {
		out = append(out, h.text)
	}
	untold := len(hs) - len(told)
	if untold > 0 {
		out = append(out, lang.Pick(
			"There were also "+lang.Count(untold, voice.Noun{One: "other change"})+"; ask about one room or one device to hear them.",
			"Il y a eu aussi "+lang.Count(untold, voice.Noun{One: "autre changement", Many: "autres changements"})+"; demandez une pièce ou un appareil pour les entendre."))
	}
	return voice.Paragraph(out...)
}

// happened says what one entity did over the period: nothing when it did
// nothing worth a word (a camera recording, a motion sensor going quiet).
func happened(lang voice.Lang, loc *time.Location, p Period, d Device, ch []homeassistant.Change) []happening {
	name := Quote(lang, d.Name())
	the := func(s string) string { return lang.Pick("the "+s, s) }
	unnamed := name == "" // a name made only of what cannot be said
	if unnamed {
		name = lang.Pick("device with no name I can say", "un appareil sans nom lisible")
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
				return []happening{{rankMinor, t, unavailableWords(lang, the(name), name, at, t, time.Time{})}}
			}
			back := changes[len(changes)-1].At
			return []happening{{rankMinor, back, unavailableWords(lang, the(name), name, at, t, back)}}
		}
		last := changes[len(changes)-1]
		st, t := stateWords(lang, last.State), last.At
		passed := " est passé à l'état "
		if kind(d) == kindAlarm {
			passed = " est passée à l'état " // une alarme
		}
		if len(changes) == 1 {
			return []happening{{rankMinor, t, voice.Sentence(lang.Pick(the(name)+" changed to "+st+" "+at(t), name+passed+st+" "+at(t)))}}
		}
		return []happening{{rankMinor, t, voice.Sentence(lang.Pick(
			the(name)+" changed "+timesWord(lang, len(changes))+", last to "+st+" "+at(t),
			name+" a changé "+timesWord(lang, len(changes))+", en dernier pour l'état "+st+" "+at(t)))}}
	}
	switch kind(d) {
	case kindSafety:
		if n, t := count("on"); n > 0 {
			return []happening{{0, t, voice.Sentence(lang.Pick(the(name)+" raised an alarm "+at(t), name+" a signalé une alerte "+at(t)))}}
		}
	case kindAlarm:
		if n, t := count("triggered"); n > 0 {
			return []happening{{0, t, voice.Sentence(lang.Pick(the(name)+" went off "+at(t), name+" s'est déclenchée "+at(t)))}}
		}
		if t := lastOf("disarmed"); !t.IsZero() {
			return []happening{{2, t, voice.Sentence(lang.Pick(the(name)+" was disarmed "+at(t), name+" a été désarmée "+at(t)))}}
		}
		return minor()
	case kindOpening, kindLock:
		open, shut := []string{"on", "open", "opening"}, []string{"off", "closed"}
		opened, closed := lang.Pick("opened", "ouvert"), lang.Pick("closed", "fermé")
		var out []happening
		if kind(d) == kindLock {
			// A lock that jammed neither locked nor unlocked: said apart.
			open, shut = []string{"unlocking", "unlocked", "opening", "open"}, []string{"locked"}
			opened, closed = lang.Pick("unlocked", "déverrouillé"), lang.Pick("locked again", "reverrouillé")
			if jams := entered(ch, from, "jammed"); len(jams) > 0 {
				t := jams[len(jams)-1]
				still := ""
				if now == "jammed" {
					still = lang.Pick(" and is still jammed", " et l'est toujours")
				}
				out = append(out, happening{1, t, voice.Sentence(lang.Pick(the(name)+" jammed "+at(t)+still, name+" s'est bloquée "+at(t)+still))})
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
				return []happening{{rankMinor, t, voice.Sentence(lang.Pick(the(name)+" was "+shutWord(lang, kind(d))+" "+at(t), name+" a été "+shutWord(lang, kind(d))+" "+at(t)))}}
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
			text = lang.Pick(
				the(name)+" was "+opened+" "+at(t)+" and is still "+stillWord(lang, kind(d)),
				name+" a été "+opened+" "+at(t)+" et l'est toujours")
		case n == 1 && !shutAt.IsZero():
			text = lang.Pick(
				the(name)+" was "+opened+" "+at(t)+" and "+closed+" "+at(shutAt),
				name+" a été "+opened+" "+at(t)+" puis "+closed+" "+at(shutAt))
		case n == 1:
			text = lang.Pick(the(name)+" was "+opened+" "+at(t), name+" a été "+opened+" "+at(t))
		case stillOpen:
			text = lang.Pick(
				the(name)+" was "+opened+" "+timesWord(lang, n)+", last "+at(t)+", and is still "+stillWord(lang, kind(d)),
				name+" a été "+opened+" "+timesWord(lang, n)+", la dernière "+at(t)+", et l'est toujours")
		default:
			text = lang.Pick(
				the(name)+" was "+opened+" "+timesWord(lang, n)+", last "+at(t),
				name+" a été "+opened+" "+timesWord(lang, n)+", la dernière "+at(t))
		}
		return append(out, happening{1, t, voice.Sentence(text)})
	case kindPresence, kindMotion:
		seen := entered(ch, from, "on")
		n := len(seen)
		if n == 0 {
			return nil
		}
		t := seen[n-1]
		what := lang.Pick("saw someone", "a détecté une présence")
		if kind(d) == kindMotion {
			what = lang.Pick("detected movement", "a détecté du mouvement")
		}
		rank := 3
		if kind(d) == kindMotion {
			rank = 4
		}
		if n == 1 {
			return []happening{{rank, t, voice.Sentence(lang.Pick(the(name)+" "+what+" once, "+at(t), name+" "+what+" une fois, "+at(t)))}}
		}
		return []happening{{rank, t, voice.Sentence(lang.Pick(
			the(name)+" "+what+" "+timesWord(lang, n)+", last "+at(t),
			name+" "+what+" "+timesWord(lang, n)+", la dernière "+at(t)))}}
	case kindLight:
		if ons := entered(ch, from, "on"); now == "on" && len(ons) > 0 {
			t := ons[len(ons)-1]
			return []happening{{5, t, voice.Sentence(lang.Pick(
				the(name)+" was turned on "+at(t)+" and is still on",
				name+" a été allumée "+at(t)+" et l'est toujours"))}}
		}
		ons, offs := entered(ch, from, "on"), entered(ch, from, "off")
		switch {
		case len(ons) == 1 && now == "off" && len(offs) > 0:
			t, off := ons[0], offs[len(offs)-1]
			return []happening{{rankMinor, off, voice.Sentence(lang.Pick(
				the(name)+" was turned on "+at(t)+" and off "+at(off),
				name+" a été allumée "+at(t)+" puis éteinte "+at(off)))}}
		case len(ons) > 1 && now == "off":
			t := ons[len(ons)-1]
			return []happening{{rankMinor, t, voice.Sentence(lang.Pick(
				the(name)+" was turned on "+timesWord(lang, len(ons))+", last "+at(t)+", and is off now",
				name+" a été allumée "+timesWord(lang, len(ons))+", la dernière "+at(t)+", et elle est éteinte"))}}
		case len(ons) == 0 && now == "off" && len(offs) > 0:
			off := offs[len(offs)-1]
			return []happening{{rankMinor, off, voice.Sentence(lang.Pick(the(name)+" was turned off "+at(off), name+" a été éteinte "+at(off)))}}
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
		cam := lang.Pick("the "+name+" camera", "la caméra "+name)
		if unnamed {
			cam = lang.Pick("a camera with no name I can say", "une caméra sans nom lisible")
		}
		if back.IsZero() {
			return []happening{{6, t, unavailableWords(lang, cam, cam, at, t, back)}}
		}
		return []happening{{6, back, unavailableWords(lang, cam, cam, at, t, back)}}
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

// shutWord says a door shut or a lock locked: "closed", « verrouillé ».
func shutWord(lang voice.Lang, k entityKind) string {
	if k == kindLock {
		return lang.Pick("locked", "verrouillé")
	}
	return lang.Pick("closed", "fermé")
}

func stillWord(lang voice.Lang, k entityKind) string {
	if k == kindLock {
		return lang.Pick("unlocked", "déverrouillé")
	}
	return lang.Pick("open", "ouvert")
}

// timesWord says "twice", "three times"; « deux fois ».
func timesWord(lang voice.Lang, n int) string {
	en := lang.Number(n) + " times"
	if n == 2 {
		en = "twice"
	}
	return lang.Pick(en, lang.Number(n)+" fois")
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

// unavailableWords says that a thing (en and fr name it) has been
// unavailable since gone, or, when back is set, from gone to back; at says
// a moment as "at 8:05" / « à 8 h 05 », whose "at" is dropped after "since"
// and "from".
func unavailableWords(lang voice.Lang, en, fr string, at func(time.Time) string, gone, back time.Time) string {
	bare := func(t time.Time) string { return strings.TrimPrefix(strings.TrimPrefix(at(t), "at "), "à ") }
	if back.IsZero() {
		return voice.Sentence(lang.Pick(en+" has been unavailable since "+bare(gone), fr+" est indisponible depuis "+bare(gone)))
	}
	return voice.Sentence(lang.Pick(
		en+" was unavailable from "+bare(gone)+" to "+bare(back),
		fr+" a été indisponible de "+bare(gone)+" à "+bare(back)))
}

// when says a moment to follow a verb, in loc and relative to now: "at 2:02
// PM", "yesterday at 9:10 PM", "on Monday at 8 AM"; « à 14 h 02 », « hier à
// 21 h 10 », « lundi à 8 h ».
func when(lang voice.Lang, t, now time.Time, loc *time.Location) string {
	t, now = t.In(loc), now.In(loc)
	clock := lang.Clock(t)
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	today := time.Date(ny, nm, nd, 0, 0, 0, 0, loc)
	day := time.Date(ty, tm, td, 0, 0, 0, 0, loc)
	switch days := int(today.Sub(day).Hours()/24 + 0.5); {
	case days <= 0:
		return clock
	case days == 1:
		return lang.Pick("yesterday "+clock, "hier "+clock)
	case days < 7:
		return lang.Pick("on "+t.Weekday().String()+" "+clock, daysFR[t.Weekday()]+" "+clock)
	}
	return lang.Pick(
		"on "+t.Weekday().String()+", "+monthsEN[t.Month()-1]+" "+itoa(t.Day())+", "+clock,
		"le "+daysFR[t.Weekday()]+" "+itoa(t.Day())+" "+monthsFR[t.Month()-1]+" "+clock)
}

func itoa(n int) string { return voice.English.Decimal(float64(n), 0) }

func lowerFirst(s string) string {
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			return s[:i] + strings.ToLower(string(r)) + s[i+1:]
		}
		return s
	}
	return s
}
