// Why an Assist call failed, in words: no match for a name or an area, a
// name shared by several devices, details refused, an action gone.

package words

import (
	"strings"

	"maison/voice"
)

// AreaKnown says what the area registry says of an area asked for.
type AreaKnown int

const (
	AreaUnknown AreaKnown = iota // the registry was not asked, or could not be read
	AreaExists                   // the area exists
	AreaMissing                  // no area by that name, alias or id
)

// NoMatch says that nothing shared with Assist fits a call, the same words
// whatever Home Assistant's reason was: with a name, that nothing shared by
// that name can do it; with an area alone, what the area registry says of
// the area, which tells nothing of devices.
func NoMatch(lang voice.Lang, name, area string, known AreaKnown) string {
	none := nothing(lang)
	if strings.TrimSpace(name) != "" || strings.TrimSpace(area) == "" {
		return say(lang, "failure.no_match.name", "name", q(lang, name), "none", none)
	}
	a := q(lang, area)
	switch known {
	case AreaMissing:
		return say(lang, "failure.no_match.area_missing", "area", a, "none", none)
	case AreaExists:
		return say(lang, "failure.no_match.area_exists", "area", a, "none", none)
	}
	return say(lang, "failure.no_match.area", "area", a, "none", none)
}

// nothing is said after each failure: the call changed nothing.
func nothing(lang voice.Lang) string { return say(lang, "failure.nothing") }

// SharedName says that more than one device goes by the name asked for.
func SharedName(lang voice.Lang, name string) string {
	return say(lang, "failure.shared_name", "name", q(lang, name), "nothing", nothing(lang))
}

// SeveralTargets says that a call matched several devices where Home
// Assistant acts on one.
func SeveralTargets(lang voice.Lang) string {
	return say(lang, "failure.several_targets", "nothing", nothing(lang))
}

// ActionGone says that Home Assistant no longer offers the action called.
func ActionGone(lang voice.Lang) string {
	return say(lang, "failure.action_gone", "nothing", nothing(lang))
}

// DetailsRefused says that Home Assistant did not accept a call's details,
// with its words as data.
func DetailsRefused(lang voice.Lang, said string) string {
	return say(lang, "failure.details_refused", "said", voice.Stopped(quoteData(lang, said)), "nothing", nothing(lang))
}

// Failed says that a call failed for a reason Home Assistant did not make clear.
func Failed(lang voice.Lang) string {
	return say(lang, "failure.failed", "nothing", nothing(lang))
}

// q puts a name in quotes as data, or says "that" when there is none.
func q(lang voice.Lang, s string) string {
	if t := Quote(lang, s); t != "" {
		return t
	}
	return say(lang, "failure.that")
}
