// What an Assist call did, in words: the intent's outcome, the verb each
// domain takes, the date and time, any other result said as plain phrases.
// Why a call failed is failure.go's.

package assist

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/voice"
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

// intentResponse is the JSON text of an intent tool's result.
type intentResponse struct {
	Speech struct {
		Plain struct {
			Speech string `json:"speech"`
		} `json:"plain"`
	} `json:"speech"`
	ResponseType string `json:"response_type"`
	Data         struct {
		Code    string   `json:"code"`
		Success []target `json:"success"`
		Failed  []target `json:"failed"`
	} `json:"data"`
}

type target struct {
	Name string `json:"name"`
	Type string `json:"type"`
	ID   string `json:"id"`
}

// Outcome is what an Assist tool call did, in words.
type Outcome struct {
	Text    string // sentences for the ear
	IsError bool   // the action did not happen
}

// SayResult turns the raw text of an Assist tool result into sentences. canonical
// is the stable tool name (HassTurnOn), args what was asked, isError what
// Home Assistant flagged.
func SayResult(lang voice.Lang, canonical string, args map[string]any, text string, isError bool) Outcome {
	if isError || strings.HasPrefix(text, "Error calling tool") || strings.HasPrefix(text, "Input validation error") {
		return Outcome{Text: failure(lang, args, text), IsError: true}
	}
	if canonical == "GetDateTime" {
		// Up to 2026.10 the date comes in {"success", "result"}; from
		// 2026.11 bare, {"date": …, "time": …}.
		raw := json.RawMessage(text)
		if env := (toolEnvelope{}); json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
			raw = env.Result
		}
		if t, ok := sayDateTime(lang, raw); ok {
			return Outcome{Text: t}
		}
	}
	var r intentResponse
	if err := json.Unmarshal([]byte(text), &r); err != nil || r.ResponseType == "" {
		var env toolEnvelope
		if json.Unmarshal([]byte(text), &env) == nil && env.known() {
			if env.failed() {
				return Outcome{Text: lang.Pick(
					"Home Assistant could not do that. It said "+quoteData(lang, env.Error)+". Nothing was changed.",
					"Home Assistant n'a pas pu le faire. Il a dit "+quoteData(lang, env.Error)+". Rien n'a changé."), IsError: true}
			}
			if said := flatten(env.Result, 400); said != "" {
				return Outcome{Text: voice.Sentence(lang.Pick("Home Assistant answered ", "Home Assistant a répondu ") + lang.Quote(said, 400))}
			}
		}
		return Outcome{Text: lang.Pick("Home Assistant did it.", "Home Assistant l'a fait.")}
	}
	if r.ResponseType == "error" {
		return Outcome{Text: lang.Pick(
			"Home Assistant refused, saying "+quoteData(lang, r.Speech.Plain.Speech+" "+r.Data.Code)+". Nothing was changed.",
			"Home Assistant a refusé en disant "+quoteData(lang, r.Speech.Plain.Speech+" "+r.Data.Code)+". Rien n'a changé."), IsError: true}
	}
	var parts []string
	if len(r.Data.Success) > 0 {
		parts = append(parts, done(lang, canonical, args, r.Data.Success))
	}
	if len(r.Data.Failed) > 0 {
		names := targetNames(lang, r.Data.Failed)
		parts = append(parts, lang.Pick(
			"It did not work for "+lang.List(names)+"; Home Assistant did not say why, so check that device in the Home Assistant app.",
			"Ça n'a pas marché pour "+lang.List(names)+" ; Home Assistant n'a pas dit pourquoi, vérifiez cet appareil dans l'application Home Assistant."))
	}
	if len(parts) == 0 {
		if s := r.Speech.Plain.Speech; s != "" {
			return Outcome{Text: voice.Sentence(lang.Pick("Home Assistant says ", "Home Assistant dit ") + quoteData(lang, s))}
		}
		return Outcome{Text: lang.Pick("Home Assistant did it.", "Home Assistant l'a fait.")}
	}
	return Outcome{Text: voice.Paragraph(parts...), IsError: len(r.Data.Success) == 0}
}

func targetNames(lang voice.Lang, ts []target) []string {
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, lang.Pick("the ", "")+Quote(lang, t.Name))
	}
	return names
}

// done says what an intent did to its targets, with the verb their domain takes.
func done(lang voice.Lang, canonical string, args map[string]any, ts []target) string {
	groups := map[string][]string{}
	var order []string
	for _, t := range ts {
		verb := verbFor(lang, canonical, domainOf(t.ID), args)
		if _, ok := groups[verb]; !ok {
			order = append(order, verb)
		}
		groups[verb] = append(groups[verb], Quote(lang, t.Name))
	}
	var out []string
	for _, verb := range order {
		names := groups[verb]
		if lang == voice.French {
			out = append(out, voice.Sentence("J'ai "+strings.ReplaceAll(verb, "%s", lang.List(names))))
		} else {
			the := make([]string, len(names))
			for i, n := range names {
				the[i] = "the " + n
			}
			out = append(out, voice.Sentence("I "+strings.ReplaceAll(verb, "%s", lang.List(the))))
		}
	}
	return voice.Paragraph(out...)
}

func domainOf(entityID string) string {
	d, _, _ := strings.Cut(entityID, ".")
	return d
}

func verbFor(lang voice.Lang, canonical, domain string, args map[string]any) string {
	switch canonical {
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
		if b, ok := number(args["brightness"]); ok {
			return lang.Pick("set %s to "+lang.Number(int(b))+" percent brightness",
				"réglé %s à "+lang.Number(int(b))+" pour cent de luminosité")
		}
		if c, ok := args["color"].(string); ok && c != "" {
			return lang.Pick("set %s to "+voice.Clean(c, 30), "mis %s en "+voice.Clean(c, 30))
		}
		return lang.Pick("adjusted %s", "réglé %s")
	}
	return lang.Pick("did that for %s", "fait ça pour %s")
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// quoteData bounds, cleans and quotes text Home Assistant sent, so it is
// said as data, not obeyed.
func quoteData(lang voice.Lang, s string) string {
	if q := lang.Quote(strings.TrimSpace(s), 160); q != "" {
		return q
	}
	return lang.Pick("nothing more", "rien de plus")
}

// dateTime is GetDateTime's result.
type dateTime struct {
	Date     string `json:"date"`
	Time     string `json:"time"`
	Timezone string `json:"timezone"`
	Weekday  string `json:"weekday"`
}

var (
	monthsEN = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsFR = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	daysFR   = [...]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
)

// sayDateTime says the house's date and time as people do.
func sayDateTime(lang voice.Lang, raw json.RawMessage) (string, bool) {
	var dt dateTime
	if json.Unmarshal(raw, &dt) != nil {
		return "", false
	}
	t, err := time.Parse("2006-01-02 15:04:05", dt.Date+" "+dt.Time)
	if err != nil {
		if t, err = time.Parse("2006-01-02 15:04", dt.Date+" "+dt.Time); err != nil {
			return "", false
		}
	}
	if lang == voice.French {
		return voice.Sentence("Il est " + strings.TrimPrefix(lang.Clock(t), "à ") + ", le " + daysFR[t.Weekday()] + " " + strconv.Itoa(t.Day()) + " " + monthsFR[t.Month()-1] + " " + strconv.Itoa(t.Year())), true
	}
	return voice.Sentence("It is " + strings.TrimPrefix(lang.Clock(t), "at ") + " on " + t.Weekday().String() + ", " + monthsEN[t.Month()-1] + " " + strconv.Itoa(t.Day()) + ", " + strconv.Itoa(t.Year())), true
}

// flatten says a JSON value as plain phrases ("name, value; name, value"),
// cleaned and bounded: no braces, quotes or keys in code form reach the ear.
func flatten(raw json.RawMessage, limit int) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var parts []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		if len(parts) > 40 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(strings.ReplaceAll(k, "_", " "), x[k])
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case nil:
		default:
			val := voice.Clean(fmt.Sprint(x), 80)
			if key != "" {
				val = key + " " + val
			}
			// Timestamps, ids and addresses are for programs, not the ear.
			if voice.Speakable(val+".") == nil {
				parts = append(parts, val)
			}
		}
	}
	walk("", v)
	return voice.Clean(strings.Join(parts, ", "), limit)
}
