// Why an Assist call failed, read from Home Assistant's text in either era
// and said with words: no match for a name or an area, a name shared by
// several devices, details refused, an action gone.

package assist

import (
	"regexp"
	"strings"

	"maison/voice"
	"maison/words"
)

// What a failed Assist call's text says: the match failure's reason, the
// name and area it was asked for, a tool that no longer exists.
//
// Up to 2026.10 Home Assistant wrote the failure's repr
// ("<MatchFailedError result=MatchTargetsResult(…, no_match_reason=
// <MatchFailedReason.NAME: 1>, …), constraints=MatchTargetsConstraints(
// name='x', area_name='y', …)>"); from 2026.11 a sentence per reason with
// the constraints given ("No entities matched the name (given name 'x',
// area 'y')", helpers/intent.py _match_failure_message). Both are read.
var (
	reasonRE  = regexp.MustCompile(`MatchFailedReason\.([A-Z_]+)`)
	nameRE    = regexp.MustCompile(`constraints=MatchTargetsConstraints\(name='((?:[^'\\]|\\.)*)'`)
	areaRE    = regexp.MustCompile(`area_name='((?:[^'\\]|\\.)*)'`)
	givenName = regexp.MustCompile(`\(given name ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`)
	givenArea = regexp.MustCompile(`\(given (?:name (?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"), )?area ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`)
	unknown   = regexp.MustCompile(`Tool "([^"]*)" not found`)
)

// sentences are Home Assistant's words for each match failure from 2026.11
// (helpers/intent.py _MATCH_FAILURE_REASONS), longest first where one
// begins another.
var sentences = []struct{ text, reason string }{
	{"No matching entities are exposed to the assistant", "ASSISTANT"},
	{"No entities matched the device class", "DEVICE_CLASS"},
	{"No entities supported the required features", "FEATURE"},
	{"No entities were in the required state", "STATE"},
	{"No entities matched the domain", "DOMAIN"},
	{"No entities matched the name", "NAME"},
	{"No entities were in the area", "AREA"},
	{"No entities were on the floor", "FLOOR"},
	{"The area does not exist", "INVALID_AREA"},
	{"The floor does not exist", "INVALID_FLOOR"},
	{"Multiple entities share the name", "DUPLICATE_NAME"},
	{"Multiple entities matched, but a single target is required", "MULTIPLE_TARGETS"},
	// A failure without a reason; every sentence above begins like it.
	{"No entities matched", "NAME"},
}

// pyString reads a Python repr of a string, quotes included.
func pyString(s string) string {
	if len(s) < 2 {
		return s
	}
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
		}
		b.WriteByte(body[i])
	}
	return b.String()
}

// MatchReason returns the MatchFailedReason a failed Assist call gives, such
// as NAME or AREA, or "".
func MatchReason(text string) string {
	if m := reasonRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	msg := strings.TrimPrefix(text, "Error calling tool: ")
	for _, s := range sentences {
		if strings.HasPrefix(msg, s.text) {
			return s.reason
		}
	}
	return ""
}

// failure says why an Assist call failed and what to do instead.
func failure(lang voice.Lang, args map[string]any, text string) string {
	name, _ := args["name"].(string)
	area, _ := args["area"].(string)
	if m := nameRE.FindStringSubmatch(text); m != nil && name == "" {
		name = m[1]
	}
	if m := areaRE.FindStringSubmatch(text); m != nil && area == "" {
		area = m[1]
	}
	if m := givenName.FindStringSubmatch(text); m != nil && name == "" {
		name = pyString(m[1])
	}
	if m := givenArea.FindStringSubmatch(text); m != nil && area == "" {
		area = pyString(m[1])
	}
	what := name
	if strings.TrimSpace(what) == "" {
		what = area
	}
	reason := MatchReason(text)
	switch reason {
	case "NAME", "ASSISTANT", "DOMAIN", "DEVICE_CLASS", "FEATURE", "AREA", "INVALID_AREA", "FLOOR", "INVALID_FLOOR", "STATE":
		// Home Assistant weighs names, kinds, features, floors and areas
		// before what is shared, so these reasons could tell a device that
		// is not shared from one that does not exist: one answer for all.
		return words.NoMatch(lang, name, area, words.AreaUnknown)
	case "DUPLICATE_NAME":
		return words.SharedName(lang, what)
	case "MULTIPLE_TARGETS":
		return words.SeveralTargets(lang)
	}
	if m := unknown.FindStringSubmatch(text); m != nil {
		return words.ActionGone(lang)
	}
	if strings.HasPrefix(text, "Input validation error") {
		return words.DetailsRefused(lang, strings.TrimPrefix(text, "Input validation error: "))
	}
	return words.Failed(lang)
}
