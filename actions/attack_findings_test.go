package actions

// Attack 30's findings, as unit tests that state the promise: each fails
// while the finding stands. Repro against the real house: attack30/README.md.

import (
	"slices"
	"strings"
	"testing"
)

// Finding 1: an exposed script whose object id is todo_get_items, get_items
// or calendar_get_events is advertised by Home Assistant 2026.11 as
// script__todo_get_items (…), whose part after the last "__" is the name of
// a tool maison knows only reads: maison offers it (annotated read-only for
// two of them) and sends it whole, with no person's yes, and the script
// runs (on the real house it unlocked lock.front_door and opened
// cover.garage_door, in approval mode).
func TestFindingAScriptNamedLikeAReadingToolIsNotTakenForIt(t *testing.T) {
	t.Parallel()
	for _, advertised := range []string{"script__todo_get_items", "script__get_items", "script__calendar_get_events", "todo_get_items", "get_items"} {
		if in := IntentOfTool(advertised); in.How != NotModeled || in.Script == "" {
			t.Errorf("Home Assistant's %s (a script's, or may be) reads as %+v: offered and run whole, unasked", advertised, in)
		}
	}
	for _, advertised := range []string{"todo__get_items", "intent__HassTurnOn", "HassTurnOn", "homeassistant__GetLiveContext", "GetLiveContext"} {
		want := advertised // called by the name Home Assistant gives it
		if !strings.Contains(advertised, "__") {
			want = IntentOf(advertised).Tool // a bare name is called by its origin's, which finds it
		}
		if in := IntentOfTool(advertised); in.How == NotModeled || in.Tool != want {
			t.Errorf("%s is not known: %+v", advertised, in)
		}
	}
}

// Finding 2: HassStopMoving is taken to change nothing, but stopping a
// garage door, a gate or a valve while it closes leaves it open (on the real
// house: valve.back_garden closing at 40 %, stopped by ha_hass_stop_moving,
// stays open at 40 %), with no person's yes, and a call naming only a
// domain ("valve") goes to Home Assistant whole.
func TestFindingStoppingWhatClosesNeedsAYes(t *testing.T) {
	t.Parallel()
	h := house()
	h.Entities = append(h.Entities,
		Entity{ID: "valve.main", Domain: "valve", Name: "Main Water", Names: []string{"Main Water"}, NamesKnown: true, Exposed: Yes, MembersKnown: true, State: "closing"})
	stop := IntentOf("HassStopMoving")
	for _, id := range []string{"cover.garage", "valve.main"} {
		e, _ := h.Entity(id)
		if e.ID == "cover.garage" {
			e.State = "closing"
		}
		if ef := h.effect(stop, nil, e, nil); ef.Change == NoChange {
			t.Errorf("stopping %s while it closes leaves it open, and needs no yes", id)
		}
	}
}

// Finding 5: the name check misses the words for door, gate and lock of
// common house languages (Italian, Portuguese, Polish, the Nordic ones…):
// a switch named "Porta d'ingresso" (on the real house) turns on unasked,
// where "Porte d'entrée" asks.
func TestFindingDoorWordsOfOtherLanguages(t *testing.T) {
	t.Parallel()
	var missed []string
	for _, n := range []string{"Porta d'ingresso", "Portão", "Fechadura", "Brama wjazdowa", "Drzwi", "Zamek",
		"Garasjeport", "Dør", "Lås", "Ytterdörr", "Lukko", "Portti", "Dveře", "Замок", "Ворота", "Дверь", "ドア"} {
		if !LooksSensitive(n) {
			missed = append(missed, n)
		}
	}
	if len(missed) > 0 {
		t.Errorf("names of doors, gates and locks not read as such: %s", strings.Join(missed, ", "))
	}
}

// Finding 4: a scene that sets a group that holds a lock is approved by a
// person shown only the group's name: the page says "It sets “Evening”",
// not the “Front Door” lock the scene unlocks (on the real house: scene
// Leaving = {group.evening: unlocked}; approved, lock.front_door unlocked).
func TestFindingThePageNamesWhatANestedGroupSets(t *testing.T) {
	t.Parallel()
	h := house()
	h.Entities = append(h.Entities,
		Entity{ID: "group.evening", Domain: "group", Name: "Evening", Names: []string{"Evening"}, NamesKnown: true, Exposed: No,
			Members: []string{"light.hall", "lock.front"}, MembersKnown: true},
		Entity{ID: "scene.leaving", Domain: "scene", Name: "Leaving", Names: []string{"Leaving"}, NamesKnown: true, Exposed: Yes,
			Members: []string{"group.evening"}, MembersKnown: true})
	e, _ := h.Entity("scene.leaving")
	ef := h.effect(IntentOf("HassTurnOn"), nil, e, nil)
	if ef.Change != SetsSensitive {
		t.Fatalf("scene.leaving: %v", ef.Change)
	}
	if !slices.ContainsFunc(ef.Sets, func(d Device) bool { return d.ID == "lock.front" }) {
		var named []string
		for _, d := range ef.Sets {
			named = append(named, d.ID)
		}
		t.Errorf("the page names %v; the scene unlocks lock.front, which it does not name", named)
	}
}

// Finding 4b: a group helper of locks (or of covers, or of valves) is a
// lock itself: turn_off is "unlock the “Household”", and the page names no
// member, though it unlocks every one of them, exposed or not (on the real
// house: lock.household = lock.front_door + lock.openable_lock, the latter
// not exposed; approved, both unlocked, the page having named neither).
func TestFindingThePageNamesWhatALockGroupUnlocks(t *testing.T) {
	t.Parallel()
	h := house()
	h.Entities = append(h.Entities,
		Entity{ID: "lock.household", Domain: "lock", Name: "Household", Names: []string{"Household"}, NamesKnown: true, Exposed: Yes,
			Members: []string{"lock.front", "lock.shed"}, MembersKnown: true})
	e, _ := h.Entity("lock.household")
	ef := h.effect(IntentOf("HassTurnOff"), nil, e, nil)
	if ef.Change == NoChange {
		t.Fatal("no yes asked")
	}
	if len(ef.Sets) != 2 {
		t.Errorf("unlocking the group, the page names %d of its 2 locks", len(ef.Sets))
	}
}
