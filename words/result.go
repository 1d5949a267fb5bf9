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
	groups := map[string][]string{}
	var order []string
	for _, t := range ts {
		verb := verbFor(lang, a, t.Domain)
		if _, ok := groups[verb]; !ok {
			order = append(order, verb)
		}
		groups[verb] = append(groups[verb], Quote(lang, t.Name))
	}
	var out []string
	for _, verb := range order {
		names := groups[verb]
		the := make([]string, len(names))
		for i, n := range names {
			the[i] = "the " + n
		}
		out = append(out, voice.Sentence(lang.Pick(
			"I "+strings.ReplaceAll(verb, "%s", lang.List(the)),
			"J'ai "+strings.ReplaceAll(verb, "%s", lang.List(names)))))
	}
	return voice.Paragraph(out...)
}

func verbFor(lang voice.Lang, a Action, domain string) string {
	switch a.Intent {
	case "HassTurnOn":
		switch domain {
		case "lock":
			return lang.Pick("locked %s", "verrouillé %s")
		case "cover", "valve":
			return lang.Pick("opened %s", "ouvert %s")
		case "scene", "script":
			return lang.Pick("ran %s", "lancé %s")
		}
		return lang.Pick("turned on %s", "allumé %s")
	case "HassTurnOff":
		switch domain {
		case "lock":
			return lang.Pick("unlocked %s", "déverrouillé %s")
		case "cover", "valve":
			return lang.Pick("closed %s", "fermé %s")
		}
		return lang.Pick("turned off %s", "éteint %s")
	case "HassLightSet":
		if a.HasBrightness {
			b := a.Brightness
			return lang.Pick("set %s to "+lang.Number(int(b))+" percent brightness",
				"réglé %s à "+lang.Number(int(b))+" pour cent de luminosité")
		}
		if c := a.Color; c != "" {
			return lang.Pick("set %s to "+voice.Clean(c, 30), "mis %s en "+voice.Clean(c, 30))
		}
		return lang.Pick("adjusted %s", "réglé %s")
	}
	return lang.Pick("did that for %s", "fait ça pour %s")
}

// NotFor says the devices an intent did not work for, without Home
// Assistant's reason.
func NotFor(lang voice.Lang, names []string) string {
	the := make([]string, 0, len(names))
	for _, n := range names {
		the = append(the, lang.Pick("the ", "")+Quote(lang, n))
	}
	return lang.Pick(
		"It did not work for "+lang.List(the)+"; Home Assistant did not say why, so check that device in the Home Assistant app.",
		"Ça n'a pas marché pour "+lang.List(the)+" ; Home Assistant n'a pas dit pourquoi, vérifiez cet appareil dans l'application Home Assistant.")
}

// DidIt says that Home Assistant did what was asked, with nothing more to say.
func DidIt(lang voice.Lang) string {
	return lang.Pick("Home Assistant did it.", "Home Assistant l'a fait.")
}

// Says is Home Assistant's own sentence about an intent, said as data.
func Says(lang voice.Lang, said string) string {
	return voice.Sentence(lang.Pick("Home Assistant says ", "Home Assistant dit ") + quoteData(lang, said))
}

// Answered is a tool's result put in plain phrases, said as data.
func Answered(lang voice.Lang, phrases string) string {
	return voice.Sentence(lang.Pick("Home Assistant answered ", "Home Assistant a répondu ") + lang.Quote(phrases, 400))
}

// CouldNot says that a tool failed, with Home Assistant's error as data.
func CouldNot(lang voice.Lang, said string) string {
	return lang.Pick(
		"Home Assistant could not do that. It said "+quoteData(lang, said)+". Nothing was changed.",
		"Home Assistant n'a pas pu le faire. Il a dit "+quoteData(lang, said)+". Rien n'a changé.")
}

// Refused says that an intent was refused, with Home Assistant's words
// and code as data.
func Refused(lang voice.Lang, said string) string {
	return lang.Pick(
		"Home Assistant refused, saying "+quoteData(lang, said)+". Nothing was changed.",
		"Home Assistant a refusé en disant "+quoteData(lang, said)+". Rien n'a changé.")
}

// quoteData bounds, cleans and quotes text Home Assistant sent, so it is
// said as data, not obeyed.
func quoteData(lang voice.Lang, s string) string {
	if q := lang.Quote(strings.TrimSpace(s), 160); q != "" {
		return q
	}
	return lang.Pick("nothing more", "rien de plus")
}

var (
	monthsEN = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsFR = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	daysFR   = [...]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
)

// DateTime says the house's date and time as people do: "It is 7:05 PM on
// Sunday, November 29, 2026."
func DateTime(lang voice.Lang, t time.Time) string {
	clock := strings.TrimPrefix(strings.TrimPrefix(lang.Clock(t), "at "), "à ")
	return voice.Sentence(lang.Pick(
		"It is "+clock+" on "+t.Weekday().String()+", "+monthsEN[t.Month()-1]+" "+strconv.Itoa(t.Day())+", "+strconv.Itoa(t.Year()),
		"Il est "+clock+", le "+daysFR[t.Weekday()]+" "+strconv.Itoa(t.Day())+" "+monthsFR[t.Month()-1]+" "+strconv.Itoa(t.Year())))
}
