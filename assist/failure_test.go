package assist

// Attack tests (branch attack-8); see /work/notes/attack-8.md.

import (
	"fmt"
	"strings"
	"testing"

	"maison/voice"
)

// haMatchFailure is the text Home Assistant's MCP server returns when
// async_match_targets fails, as its str() renders it.
func haMatchFailure(reason string, n int, name, area, floor string) string {
	opt := func(s string) string {
		if s == "" {
			return "None"
		}
		return "'" + s + "'"
	}
	return fmt.Sprintf("Error calling tool: <MatchFailedError result=MatchTargetsResult(is_match=False, no_match_reason=<MatchFailedReason.%s: %d>, states=[], no_match_name=None, areas=[], floors=[]), "+
		"constraints=MatchTargetsConstraints(name=%s, area_name=%s, floor_name=%s, domains=None, device_classes=None, features=None, states=None, assistant='conversation', allow_duplicate_names=False, single_target=False), "+
		"preferences=MatchTargetsPreferences(area_id=None, floor_id=None)>", reason, n, opt(name), opt(area), opt(floor))
}

// Promise 3: a name that exists but is not exposed is answered exactly as
// a name that nothing has. Home Assistant's async_match_targets (helpers/
// intent.py) filters by name, features, device class, floor and area
// before exposure: a hidden entity's name with an area it is not in fails
// with AREA (with a floor, FLOOR), while a name nothing has fails with
// NAME. maison says these in different words, so asking for a guessed name
// "in the kitchen" tells whether the name exists, and trying areas tells
// in which area the hidden device is (ASSISTANT there, AREA elsewhere).
// The demo checks exposure first, so only this level shows it.
func TestAttackHiddenNameWithWrongAreaToldApartFromAbsent(t *testing.T) {
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		for _, c := range []struct {
			label          string
			hidden, absent string // Home Assistant's answer for each
			hiddenArgs     map[string]any
			absentArgs     map[string]any
		}{
			{"area",
				haMatchFailure("AREA", 2, "Secret Lamp", "Kitchen", ""), haMatchFailure("NAME", 1, "Other Lamp", "Kitchen", ""),
				map[string]any{"name": "Secret Lamp", "area": "Kitchen"}, map[string]any{"name": "Other Lamp", "area": "Kitchen"}},
			{"floor",
				haMatchFailure("FLOOR", 3, "Secret Lamp", "", "Upstairs"), haMatchFailure("NAME", 1, "Other Lamp", "", "Upstairs"),
				map[string]any{"name": "Secret Lamp", "floor": "Upstairs"}, map[string]any{"name": "Other Lamp", "floor": "Upstairs"}},
			{"area where it is (ASSISTANT) and elsewhere (AREA)",
				haMatchFailure("ASSISTANT", 8, "Secret Lamp", "Office", ""), haMatchFailure("AREA", 2, "Secret Lamp", "Kitchen", ""),
				map[string]any{"name": "Secret Lamp", "area": "Office"}, map[string]any{"name": "Secret Lamp", "area": "Kitchen"}},
		} {
			a := SayResult(lang, "HassTurnOn", c.hiddenArgs, c.hidden, true)
			b := SayResult(lang, "HassTurnOn", c.absentArgs, c.absent, true)
			norm := func(s string) string {
				for _, w := range []string{"Secret Lamp", "Other Lamp", "Office", "Kitchen"} {
					s = strings.ReplaceAll(s, w, "X")
				}
				return s
			}
			if norm(a.Text) != norm(b.Text) || a.IsError != b.IsError {
				t.Errorf("%s %s: told apart:\n%q\n%q", lang, c.label, a.Text, b.Text)
			}
		}
	}
}
