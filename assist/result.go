// What an Assist call did, read from its result and said with words: the
// intent's outcome, the date and time, any other result as plain phrases.
// Why a call failed is failure.go's.

package assist

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// Name makes a name read from Home Assistant safe to say (words.Name).
func Name(s string) string { return words.Name(s) }

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
		return sayData(lang, text)
	}
	if r.ResponseType == "error" {
		return Outcome{Text: words.Refused(lang, r.Speech.Plain.Speech+" "+r.Data.Code), IsError: true}
	}
	var parts []string
	if len(r.Data.Success) > 0 {
		parts = append(parts, words.Done(lang, action(canonical, args), targets(r.Data.Success)))
	}
	if len(r.Data.Failed) > 0 {
		names := make([]string, len(r.Data.Failed))
		for i, t := range r.Data.Failed {
			names[i] = t.Name
		}
		parts = append(parts, words.NotFor(lang, names))
	}
	if len(parts) == 0 {
		if s := r.Speech.Plain.Speech; s != "" {
			return Outcome{Text: words.Says(lang, s)}
		}
		return Outcome{Text: words.DidIt(lang)}
	}
	return Outcome{Text: voice.Paragraph(parts...), IsError: len(r.Data.Success) == 0}
}

// sayData says an answer that is not an intent's: a tool's envelope
// ({"success", "result", "error"}), data of its own (a to-do list's
// {"items": […]}, a calendar's events), or text. Anything that may say a
// failure (an error, a success that is not true) is said as one; nothing
// is said as done unless Home Assistant said so.
func sayData(lang voice.Lang, text string) Outcome {
	if strings.TrimSpace(text) == "" {
		return Outcome{Text: words.DidIt(lang)}
	}
	var data any
	if json.Unmarshal([]byte(text), &data) != nil {
		return Outcome{Text: words.Says(lang, text)} // plain text: Home Assistant's words
	}
	obj, isObject := data.(map[string]any)
	if !isObject {
		if said := flatten(data, 400); said != "" {
			return Outcome{Text: words.Answered(lang, said)}
		}
		return Outcome{Text: words.AnsweredNothing(lang)}
	}
	errVal, hasErr := obj["error"]
	success, hasSuccess := obj["success"]
	if (hasErr && !emptyValue(errVal)) || (hasSuccess && success != true) {
		why := flatten(errVal, 160)
		if why == "" {
			why = flatten(obj["result"], 160)
		}
		return Outcome{Text: words.CouldNot(lang, why), IsError: true}
	}
	if result, ok := obj["result"]; ok && (hasSuccess || len(obj) == 1 || hasErr) {
		if said := flatten(result, 400); said != "" {
			return Outcome{Text: words.Answered(lang, said)}
		}
		return Outcome{Text: words.DidIt(lang)} // Home Assistant said it succeeded, with nothing more
	}
	if hasSuccess && len(obj) == 1 {
		return Outcome{Text: words.DidIt(lang)}
	}
	if said := flatten(data, 400); said != "" {
		return Outcome{Text: words.Answered(lang, said)}
	}
	return Outcome{Text: words.AnsweredNothing(lang)}
}

// emptyValue reports whether v says nothing: null, false, "", [] or {}.
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// SayResults says several answers to one action, sent once for each
// device it reaches: what was done, what did not work, and why the calls
// that failed as a whole failed, each said once.
func SayResults(lang voice.Lang, canonical string, args map[string]any, results []homeassistant.ToolResult) Outcome {
	if len(results) == 1 {
		return SayResult(lang, canonical, args, results[0].Text, results[0].IsError)
	}
	var success, failed []target
	var failures []string
	for _, res := range results {
		var r intentResponse
		if res.IsError || json.Unmarshal([]byte(res.Text), &r) != nil || r.ResponseType == "" || r.ResponseType == "error" {
			if said := SayResult(lang, canonical, args, res.Text, res.IsError).Text; !slices.Contains(failures, said) {
				failures = append(failures, said)
			}
			continue
		}
		for _, t := range r.Data.Success {
			if t.Type == "entity" || t.Type == "" {
				success = append(success, t)
			}
		}
		failed = append(failed, r.Data.Failed...)
	}
	var parts []string
	if len(success) > 0 {
		parts = append(parts, words.Done(lang, action(canonical, args), targets(success)))
	}
	if len(failed) > 0 {
		names := make([]string, len(failed))
		for i, t := range failed {
			names[i] = t.Name
		}
		parts = append(parts, words.NotFor(lang, names))
	}
	parts = append(parts, failures...)
	if len(parts) == 0 {
		return Outcome{Text: words.DidIt(lang)}
	}
	return Outcome{Text: voice.Paragraph(parts...), IsError: len(success) == 0}
}

// targets are the devices an intent acted on, with their domains.
func targets(ts []target) []words.Target {
	out := make([]words.Target, len(ts))
	for i, t := range ts {
		d, _, _ := strings.Cut(t.ID, ".")
		out[i] = words.Target{Name: t.Name, Domain: d}
	}
	return out
}

// action is what an intent was asked, for the verb its result takes.
func action(canonical string, args map[string]any) words.Action {
	a := words.Action{Intent: canonical}
	if canonical != "HassLightSet" {
		return a
	}
	a.Brightness, a.HasBrightness = number(args["brightness"])
	a.Color, _ = args["color"].(string)
	return a
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

// dateTime is GetDateTime's result.
type dateTime struct {
	Date     string `json:"date"`
	Time     string `json:"time"`
	Timezone string `json:"timezone"`
	Weekday  string `json:"weekday"`
}

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
	return words.DateTime(lang, t), true
}

// maxPhrases bounds what flatten looks at, said or not: a tool's
// answer can be megabytes.
const maxPhrases = 200

// programKeys are the keys whose values are for programs, not people.
var programKeys = []string{"uid", "id", "unique id", "context id"}

// flatten is v in plain phrases ("summary Oat milk, status needs
// action"), keys before their values, cut at limit runes.
func flatten(v any, limit int) string {
	var parts []string
	size, seen := 0, 0
	var walk func(key string, v any)
	walk = func(key string, v any) {
		if seen >= maxPhrases || size > limit {
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
				if seen >= maxPhrases || size > limit {
					return
				}
				name := voice.Clean(k, 40) // underscores said as spaces
				if slices.Contains(programKeys, strings.ToLower(name)) {
					seen++
					continue
				}
				walk(name, x[k])
			}
		case []any:
			for _, e := range x {
				if seen >= maxPhrases || size > limit {
					return
				}
				walk(key, e)
			}
		case nil:
			seen++
		default:
			seen++
			val := voice.Clean(fmt.Sprint(x), 80)
			if key != "" {
				val = key + " " + val
			}
			parts = append(parts, val)
			size += len(val) + 2
		}
	}
	walk("", v)
	return voice.Clean(strings.Join(parts, ", "), limit)
}
