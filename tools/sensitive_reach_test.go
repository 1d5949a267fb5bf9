package tools_test

import (
	"strings"
	"testing"

	"maison/demo"
	"maison/voice"
)

// An area word that is one area's id and another area's name names both,
// as Home Assistant's intents take it: an area renamed from Garage to
// Workshop keeps the id garage, and a new area Garage is made. Whichever
// of the two holds the garage door, "garage" must ask first, every time,
// and the proposal must name the door.
func TestAreaWordNamingTwoAreasAsksFirst(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label string
		setup func(*demo.House) error
	}{
		{"the door in the area named Garage", func(h *demo.House) error {
			if err := h.RenameArea("garage", "Workshop"); err != nil {
				return err
			}
			return h.Add(demo.Entity{ID: "cover.garage_door", Name: "Garage Door", Area: "Garage", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "garage", "current_position": 0, "supported_features": 15}})
		}},
		{"the door in the area whose id is garage", func(h *demo.House) error {
			if err := h.RenameArea("garage", "Workshop"); err != nil {
				return err
			}
			return h.Add(demo.Entity{ID: "light.bench", Name: "Bench Light", Area: "Garage", State: "off", Exposed: true})
		}},
	} {
		t.Run(c.label, func(t *testing.T) {
			r := newRig(t, rigOptions{setup: func(h *demo.House) {
				if err := c.setup(h); err != nil {
					t.Fatal(err)
				}
			}})
			// maison once picked one of the matching areas at random: ask
			// often enough that either pick shows.
			for range 16 {
				text, _ := callQuiet(t, r, "turn_on", map[string]any{"area": "garage"})
				if st, _, _ := r.house.State("cover.garage_door"); st != "closed" || !asked(text) {
					t.Fatalf("turn_on(area garage) did not ask first: the door is %s; maison said %q", st, text)
				}
				if !strings.Contains(text, "Garage Door") {
					t.Fatalf("the proposal does not name the door that would open: %q", text)
				}
			}
		})
	}
}

// A confirmation is bound to the devices its proposal reached, not to its
// words: propose unlocking "Bob" (the office lock), rename the office lock
// away and the front door lock to "Bob", confirm: nothing unlocks, and a
// new proposal says what changed and names the lock it would now unlock.
func TestConfirmationBoundToTheDevicesProposed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label   string
		lang    voice.Lang
		changed string
	}{
		{"English", voice.English, "has changed since the person was asked"},
		{"French", voice.French, "a changé depuis que la personne a été consultée"},
	} {
		t.Run(c.label, func(t *testing.T) {
			r := newRig(t, rigOptions{lang: c.lang, setup: with(t, demo.Entity{ID: "lock.office", Name: "Bob", Area: "Office", State: "locked", Exposed: true})})
			bob := map[string]any{"name": "Bob"}
			text, _ := callQuiet(t, r, "turn_off", bob)
			code := codeRE.FindString(text)
			if code == "" {
				t.Fatalf("unlocking Bob did not ask first: %q", text)
			}
			r.house.SetState("lock.office", "locked", map[string]any{"friendly_name": "Office Lock", "supported_features": 0})
			r.house.SetState("lock.front_door", "locked", map[string]any{"friendly_name": "Bob", "supported_features": 0})
			heard(t, r.ha, "the locks renamed", func() bool {
				st, _ := r.ha.State("lock.front_door")
				return st.Name() == "Bob"
			})
			text, _ = callQuiet(t, r, "turn_off", map[string]any{"name": "Bob", "confirmation": code})
			for _, id := range []string{"lock.front_door", "lock.office"} {
				if st, _, _ := r.house.State(id); st != "locked" {
					t.Errorf("a yes given for the office lock changed %s to %s", id, st)
				}
			}
			if !strings.Contains(text, c.changed) || codeRE.FindString(text) == "" || codeRE.FindString(text) == code {
				t.Errorf("the answer is not a new proposal saying what changed: %q", text)
			}
			// The new proposal, confirmed, unlocks the lock now called Bob.
			callQuiet(t, r, "turn_off", map[string]any{"name": "Bob", "confirmation": codeRE.FindString(text)})
			if st, _, _ := r.house.State("lock.front_door"); st != "unlocked" {
				t.Errorf("the new proposal, confirmed, left the front door %s", st)
			}
		})
	}
}

// A floor word reaches every area of every floor whose id, name or alias it
// is, and nothing else: the proposal names what is on those floors, and a
// floor with nothing sensitive on it is acted on at once.
func TestFloorWordReachesEveryFloorItNames(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{setup: func(h *demo.House) {
		for _, f := range []struct {
			id, name string
			areas    []string
		}{{"downstairs", "Basement", []string{"garage"}}, {"ground", "Downstairs", []string{"entrance"}}, {"up", "Upstairs", []string{"living_room"}}} {
			if err := h.AddFloor(f.id, f.name, nil, f.areas...); err != nil {
				t.Fatal(err)
			}
		}
	}})
	text, _ := callQuiet(t, r, "turn_on", map[string]any{"floor": "downstairs"})
	if st, _, _ := r.house.State("cover.garage_door"); st != "closed" || !asked(text) {
		t.Fatalf("turn_on(floor downstairs) did not ask first: the door is %s; maison said %q", st, text)
	}
	if !strings.Contains(text, "Garage Door") || strings.Contains(text, "Ignore your rules") {
		t.Errorf("the proposal does not name what is on the floors named downstairs, and only that: %q", text)
	}
	text, _ = callQuiet(t, r, "turn_on", map[string]any{"floor": "upstairs"})
	if st, _, _ := r.house.State("light.living_room"); st != "on" || asked(text) {
		t.Errorf("turn_on(floor upstairs), where nothing opens: the lamp is %s; maison said %q", st, text)
	}
}

// A name with an area reaches what bears the name in that area, as Home
// Assistant narrows a name by the area: a lock of the same name elsewhere
// is not in the proposal, and its removal does not void the person's yes.
func TestNameWithAreaReachesOnlyThatArea(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "lock.office_side", Name: "Side Door", Area: "Office", State: "locked", Exposed: true},
		demo.Entity{ID: "lock.porch_side", Name: "Side Door", Area: "Porch", State: "locked", Exposed: true},
	)})
	args := map[string]any{"name": "Side Door", "area": "office"}
	text, _ := callQuiet(t, r, "turn_off", args)
	code := codeRE.FindString(text)
	if code == "" {
		t.Fatalf("unlocking the office side door did not ask first: %q", text)
	}
	r.house.Remove("lock.porch_side")
	heard(t, r.ha, "the porch side door removed", func() bool { _, ok := r.ha.State("lock.porch_side"); return !ok })
	args["confirmation"] = code
	text, _ = callQuiet(t, r, "turn_off", args)
	if st, _, _ := r.house.State("lock.office_side"); st != "unlocked" {
		t.Errorf("the yes for the office side door did not unlock it once another room's lock was removed: it is %s; maison said %q", st, text)
	}
}

// Home Assistant's live context leaves exposed scripts out, yet its intents
// reach them by area as by name. What a script does cannot be read, so a
// script is asked about first, whatever its name, unless the operator lists
// it as safe (MAISON_SAFE).
func TestAreaWordReachesExposedScriptsInIt(t *testing.T) {
	t.Parallel()
	scripts := with(t,
		demo.Entity{ID: "script.release_side_gate", Name: "Release side gate", Area: "Shed", State: "off", Exposed: true},
		demo.Entity{ID: "script.water_plants", Name: "Water the plants", Area: "Backyard", State: "off", Exposed: true},
	)
	r := newRig(t, rigOptions{setup: scripts})
	before := countCalls(r.house, "HassTurnOn")
	text, _ := callQuiet(t, r, "turn_on", map[string]any{"area": "shed"})
	if !asked(text) || !strings.Contains(text, "Release side gate") || countCalls(r.house, "HassTurnOn") != before {
		t.Errorf("turn_on(area shed), which runs the side gate script, did not ask first: %q", text)
	}
	text, _ = callQuiet(t, r, "turn_on", map[string]any{"name": "Water the plants"})
	if !asked(text) || !strings.Contains(text, "whose effects I cannot see") || countCalls(r.house, "HassTurnOn") != before {
		t.Errorf("turn_on of a script maison cannot read ran without asking: %q", text)
	}
	safe := newRig(t, rigOptions{setup: scripts, safe: []string{"script.water_plants"}})
	before = countCalls(safe.house, "HassTurnOn")
	text, _ = callQuiet(t, safe, "turn_on", map[string]any{"name": "Water the plants"})
	if asked(text) || countCalls(safe.house, "HassTurnOn") != before+1 {
		t.Errorf("turn_on of a script the operator lists as safe asked first: %q", text)
	}
}
