// What an Assist call did and why it failed, in words: the intent's
// outcome, the verb each domain takes, the date and time, Home Assistant's
// own words said as data.

package words

import (
	"strconv"
	"strings"
	"time"

	"maison/voice"
)

// Action is what an Assist intent was asked to do, for the verb its
// result takes.
type Action struct {
	Intent        string  // the stable tool name: HassTurnOn, HassLightSet, ...
	Brightness    float64 // HassLightSet's brightness in percent, when HasBrightness
	HasBrightness bool
	Color         string // HassLightSet's colour, or ""
}

// Target is one device an intent acted on, as Home Assistant named it.
type Target struct{ Name, Domain string }

// Done says what an intent did to its targets, with the verb their domain takes.
func Done(lang voice.Lang, a Action, ts []Target) string {
	groups := map[Key][]string{}
	var order []Key
	for _, t := range ts {
		k := doneKey(a, t.Domain)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], say(lang, "device.the", "name", Quote(lang, t.Name)))
	}
	var out []string
	for _, k := range order {
		out = append(out, voice.Sentence(say(lang, k, "names", lang.List(groups[k]),
			"percent", lang.Number(int(a.Brightness)), "colour", voice.Clean(a.Color, 30))))
	}
	return voice.Paragraph(out...)
}

// doneKey is the sentence of what an intent did to a device of domain.
func doneKey(a Action, domain string) Key {
	switch a.Intent {
	case "HassTurnOn":
		switch domain {
		case "lock":
			return "result.done.locked"
		case "cover", "valve":
			return "result.done.opened"
		case "scene", "script":
			return "result.done.ran"
		}
		return "result.done.turned_on"
	case "HassTurnOff":
		switch domain {
		case "lock":
			return "result.done.unlocked"
		case "cover", "valve":
			return "result.done.closed"
		}
		return "result.done.turned_off"
	case "HassLightSet":
		if a.HasBrightness {
			return "result.done.brightness"
		}
		if a.Color != "" {
			return "result.done.colour"
		}
		return "result.done.adjusted"
	}
	return "result.done.other"
}

// NotFor says the devices an intent did not work for, without Home
// Assistant's reason.
func NotFor(lang voice.Lang, names []string) string {
	the := make([]string, 0, len(names))
	for _, n := range names {
		the = append(the, say(lang, "device.the", "name", Quote(lang, n)))
	}
	return say(lang, "result.not_for", "the", lang.List(the))
}

// DidIt says that Home Assistant did what was asked, with nothing more to say.
func DidIt(lang voice.Lang) string {
	return say(lang, "result.did_it")
}

// Says is Home Assistant's own sentence about an intent, said as data.
func Says(lang voice.Lang, said string) string {
	return voice.Sentence(say(lang, "result.says", "said", quoteData(lang, said)))
}

// Answered is a tool's result put in plain phrases, said as data.
func Answered(lang voice.Lang, phrases string) string {
	return voice.Sentence(say(lang, "result.answered", "said", lang.Quote(phrases, 400)))
}

// AnsweredNothing says that a tool's result held nothing to say: an empty
// list.
func AnsweredNothing(lang voice.Lang) string {
	return say(lang, "result.answered_nothing")
}

// CouldNot says that a tool failed, with Home Assistant's error as data.
func CouldNot(lang voice.Lang, said string) string {
	return say(lang, "result.could_not", "said", voice.Stopped(quoteData(lang, said)))
}

// Refused says that an intent was refused, with Home Assistant's words
// and code as data.
func Refused(lang voice.Lang, said string) string {
	return say(lang, "result.refused", "said", voice.Stopped(quoteData(lang, said)))
}

// quoteData bounds, cleans and quotes text Home Assistant sent, so it is
// said as data, not obeyed.
func quoteData(lang voice.Lang, s string) string {
	if q := lang.Quote(strings.TrimSpace(s), 160); q != "" {
		return q
	}
	return say(lang, "result.nothing_more")
}

// DateTime says the house's date and time as people do: "It is 7:05 PM on
// Sunday, November 29, 2026."
func DateTime(lang voice.Lang, t time.Time) string {
	return voice.Sentence(say(lang, "result.date_time", "clock", lang.TimeOfDay(t), "weekday", weekdays[t.Weekday()].In(lang),
		"month", months[t.Month()-1].In(lang), "day", strconv.Itoa(t.Day()), "year", strconv.Itoa(t.Year())))
}
