package tools_test

import (
	"strings"
	"testing"

	"maison/demo"
)

// A switch whose name displays as a lock's, through a right-to-left
// override or with invisible characters inside its words, is judged as it
// displays: turning it on asks first, and the proposal names it as the
// person sees it.
func TestAttackNameThatDisplaysAsALockAsksFirst(t *testing.T) {
	for _, c := range []struct {
		label, name, seen string
	}{
		{"right-to-left override", "\u202ekcol tnorf", "front lock"},
		{"override inside a word", "Front lo\u202ekc\u202c", "Front lock"},
		{"Hangul filler inside a word", "Front lo\u3164ck", "Front lock"},
		{"variation selector inside a word", "Front lo\U000E0100ck", "Front lock"},
	} {
		t.Run(c.label, func(t *testing.T) {
			e := demo.Entity{ID: "switch.porch_relay", Name: c.name, Area: "Porch", State: "off", Exposed: true}
			r := newRig(t, rigOptions{setup: with(t, e)})
			for _, args := range []map[string]any{{"name": c.name}, {"area": "Porch"}} {
				text, _ := callQuiet(t, r, "turn_on", args)
				if !asked(text) {
					t.Errorf("turn_on(%+q) on a switch that displays as %q acted without asking: %q", args, c.seen, text)
				}
				if !strings.Contains(text, c.seen) {
					t.Errorf("turn_on(%+q): the proposal does not name the switch as it displays, %q: %q", args, c.seen, text)
				}
				if st, _, _ := r.house.State(e.ID); st != "off" {
					t.Fatalf("%s is now %s, without any confirmation", e.ID, st)
				}
			}
		})
	}
}

// Names carrying runs of emoji presentation selectors, ideographic variation
// selectors or Hangul fillers reach no answer with those characters in them.
func TestAttackInvisibleCharactersInNamesReachNoAnswer(t *testing.T) {
	hidden := "\ufe0f\ufe0f\ufe0f\U000E0100\u3164\u115f\u1160\uffa0"
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "light.reading", Name: "Reading" + hidden + " Lamp", Area: "Den" + hidden, State: "on", Exposed: true},
	)})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"describe_house", nil}, {"describe_house", map[string]any{"name": "Reading" + hidden + " Lamp"}}, {"turn_off", map[string]any{"name": "Reading" + hidden + " Lamp"}}} {
		text, _ := callQuiet(t, r, c.tool, c.args)
		if strings.ContainsAny(text, hidden) {
			t.Errorf("%s(%+q) says an invisible character: %+q", c.tool, c.args, text)
		}
		if !strings.Contains(text, "Reading Lamp") {
			t.Errorf("%s(%+q) does not name the lamp as it displays: %q", c.tool, c.args, text)
		}
	}
}
