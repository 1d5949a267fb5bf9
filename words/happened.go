package words

import (
	"strconv"
	"strings"
	"time"

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

// Event is one thing a device did over a period, as assist read it from
// its history.
type Event struct {
	Device Device
	What   EventKind
	At     time.Time // its moment, or its last
	// Until is when what began at At ended: an opening shut, a light
	// turned off, a device back; zero when it did not.
	Until time.Time
	Times int    // how many times it happened
	Still bool   // it still holds at the period's end: still open, on or jammed
	State string // for Changed: the state it changed to last
}

// EventKind is what a device did.
type EventKind int

// The kinds of events.
const (
	Alarmed     EventKind = iota // a safety sensor raised an alarm
	WentOff                      // an alarm went off
	Disarmed                     // an alarm was disarmed
	Jammed                       // a lock jammed (Still: it still is)
	Opened                       // a door, window, gate, cover or valve was opened (Times, Still, Until)
	Closed                       // it was closed, and had not been opened
	Unlocked                     // a lock was unlocked (Times, Still, Until)
	Locked                       // it was locked, and had not been unlocked
	Seen                         // a presence sensor saw someone (Times)
	Moved                        // a motion sensor detected movement (Times)
	LightOn                      // a light was turned on (Still, Until: off, or Times and off now)
	LightOff                     // a light was turned off
	Unavailable                  // the device (a camera) was unavailable from At (Until: back)
	Changed                      // the device changed Times, last to State
)

// Happened says what changed over the period, from the events assist
// chose to tell, in its order: the first in a sentence that alone answers
// "what happened?", after the period's words; untold counts the events
// left out. Times are said in loc.
func Happened(lang voice.Lang, loc *time.Location, p Period, told []Event, untold int) string {
	if len(told) == 0 {
		return voice.Sentence(say(lang, "happened.lead", "period", p.Say(lang, loc), "first", say(lang, "happened.nothing")))
	}
	out := []string{say(lang, "happened.lead", "period", p.Say(lang, loc), "first", told[0].say(lang, loc, p))}
	for _, e := range told[1:] {
		out = append(out, e.say(lang, loc, p))
	}
	if untold > 0 {
		out = append(out, sayN(lang, "happened.untold", untold, "n", lang.Number(untold)))
	}
	return voice.Paragraph(out...)
}

// say says one event in a sentence.
func (e Event) say(lang voice.Lang, loc *time.Location, p Period) string {
	d := e.Device
	name := Quote(lang, d.Name())
	unnamed := name == "" // a name made only of what cannot be said
	if unnamed {
		name = say(lang, "happened.unnamed")
	}
	at := func(t time.Time) string { return when(lang, t, p.End, loc) }
	bare := func(t time.Time) string { return whenBare(lang, t, p.End, loc) }
	var text string
	switch e.What {
	case Alarmed:
		text = say(lang, "happened.safety", "name", name, "at", at(e.At))
	case WentOff:
		text = say(lang, "happened.alarm.went_off", "name", name, "at", at(e.At))
	case Disarmed:
		text = say(lang, "happened.alarm.disarmed", "name", name, "at", at(e.At))
	case Jammed:
		k := Key("happened.lock.jammed")
		if e.Still {
			k = "happened.lock.jammed_still"
		}
		text = say(lang, k, "name", name, "at", at(e.At))
	case Opened, Unlocked:
		k := "happened.opening."
		if e.What == Unlocked {
			k = "happened.lock."
		}
		switch {
		case e.Times == 1 && e.Still:
			text = say(lang, Key(k+"once_still"), "name", name, "at", at(e.At))
		case e.Times == 1 && !e.Until.IsZero():
			text = say(lang, Key(k+"once_shut"), "name", name, "at", at(e.At), "shut_at", at(e.Until))
		case e.Times == 1:
			text = say(lang, Key(k+"once"), "name", name, "at", at(e.At))
		case e.Still:
			text = say(lang, Key(k+"many_still"), "name", name, "times", timesWord(lang, e.Times), "at", at(e.At))
		default:
			text = say(lang, Key(k+"many"), "name", name, "times", timesWord(lang, e.Times), "at", at(e.At))
		}
	case Closed:
		text = say(lang, "happened.opening.shut", "name", name, "at", at(e.At))
	case Locked:
		text = say(lang, "happened.lock.shut", "name", name, "at", at(e.At))
	case Seen, Moved:
		k := "happened.presence."
		if e.What == Moved {
			k = "happened.motion."
		}
		if e.Times == 1 {
			text = say(lang, Key(k+"once"), "name", name, "at", at(e.At))
		} else {
			text = say(lang, Key(k+"many"), "name", name, "times", timesWord(lang, e.Times), "at", at(e.At))
		}
	case LightOn:
		switch {
		case e.Still:
			text = say(lang, "happened.light.still_on", "name", name, "at", at(e.At))
		case !e.Until.IsZero():
			text = say(lang, "happened.light.on_off", "name", name, "at", at(e.At), "off_at", at(e.Until))
		default:
			text = say(lang, "happened.light.many_off", "name", name, "times", timesWord(lang, e.Times), "at", at(e.At))
		}
	case LightOff:
		text = say(lang, "happened.light.off", "name", name, "at", at(e.At))
	case Unavailable:
		what := say(lang, "device.the", "name", name)
		if d.Domain == "camera" {
			what = say(lang, "happened.camera", "name", name)
			if unnamed {
				what = say(lang, "happened.camera_unnamed")
			}
		}
		if e.Until.IsZero() {
			return voice.Sentence(say(lang, "happened.unavailable_since", "what", what, "gone", bare(e.At)))
		}
		return voice.Sentence(say(lang, "happened.unavailable_from", "what", what, "gone", bare(e.At), "back", bare(e.Until)))
	case Changed:
		st := stateWords(lang, e.State)
		if e.Times == 1 {
			changedTo := Key("happened.changed_to")
			if d.Domain == "alarm_control_panel" {
				changedTo = "happened.alarm_changed_to" // une alarme, in French
			}
			text = say(lang, changedTo, "name", name, "state", st, "at", at(e.At))
		} else {
			text = say(lang, "happened.changed", "name", name, "times", timesWord(lang, e.Times), "state", st, "at", at(e.At))
		}
	}
	return voice.Sentence(text)
}

// timesWord says "twice", "three times"; « deux fois ».
func timesWord(lang voice.Lang, n int) string {
	if n == 2 {
		return say(lang, "happened.twice")
	}
	said := lang.Number(n)
	if strings.Trim(said, "0123456789") == "" {
		return say(lang, "happened.times.digits", "n", said) // 101-mal, not 101mal
	}
	return say(lang, "happened.times", "n", said)
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
