package actions

// Attack 30b's findings, as unit tests that state the promise: each fails
// while the finding stands. Repro against the real house: attack30b/README.md.
// Run: go test ./actions -run Atk30b
// Finding 3 (a scene changed between the page and the approval) has no unit
// test here: attack30b/scene_changed.sh shows it on the real house.

import (
	"strings"
	"testing"
)

// Finding 1: a tool is taken for the one its part after the last "__" names,
// whatever integration offers it. Home Assistant 2026.11 offers every
// intent_script of the owner's as intent_script__<intent> (and any
// integration's LLM tools as <domain>__<name>): an intent_script named
// calendar_get_events is offered to the model as ha_calendar_get_events,
// annotated read-only, and sent whole with no person's yes (on the real
// house, in approval mode, it unlocked lock.front_door).
func TestFindingAnIntentScriptNamedLikeAKnownToolIsNotTakenForIt(t *testing.T) {
	t.Parallel()
	for _, advertised := range []string{
		"intent_script__calendar_get_events", "intent_script__todo_get_items", "intent_script__get_items",
		"intent_script__GetDateTime", "intent_script__HassGetWeather", "intent_script__HassOpenCover",
		"intent_script__HassListAddItem", "mycomponent__get_items", "mycomponent__HassClimateSetTemperature",
	} {
		if in := IntentOfTool(advertised); in.How != NotModeled {
			t.Errorf("%s (the owner's own intent, or another integration's tool) reads as %+v: offered and run as if it were Home Assistant's", advertised, in)
		}
	}
}

// Finding 2: HassStopMoving needs a yes only for a cover that is itself a
// garage door, gate or door (or of no class) and for a valve: a cover group
// shown as shutters that holds a garage door, and a cover shown as a shutter
// whose name says garage door, are stopped unasked while they close, and
// stay open (on the real house: cover.shutters = a garage-class cover + a
// window; and "Rolling garage door", class shutter, whose opening asks).
func TestFindingStoppingAGroupOrANamedDoorNeedsAYes(t *testing.T) {
	t.Parallel()
	h := house()
	h.Entities = append(h.Entities,
		Entity{ID: "cover.shutters", Domain: "cover", Name: "Shutters", Names: []string{"Shutters"}, NamesKnown: true, Exposed: Yes,
			DeviceClass: "shutter", Members: []string{"cover.garage", "cover.blind"}, MembersKnown: true, State: "closing"},
		Entity{ID: "cover.rolltor", Domain: "cover", Name: "Rolling garage door", Names: []string{"Rolling garage door"}, NamesKnown: true,
			Exposed: Yes, DeviceClass: "shutter", MembersKnown: true, State: "closing"})
	stop := IntentOf("HassStopMoving")
	for _, id := range []string{"cover.shutters", "cover.rolltor"} {
		e, _ := h.Entity(id)
		if ef := h.effect(stop, nil, e, nil); ef.Change == NoChange {
			t.Errorf("stopping %s while it closes may leave a garage door open, and needs no yes", id)
		}
	}
	// Opening the same covers does ask.
	for _, id := range []string{"cover.shutters", "cover.rolltor"} {
		e, _ := h.Entity(id)
		if ef := h.effect(IntentOf("HassTurnOn"), nil, e, nil); ef.Change == NoChange {
			t.Fatalf("opening %s asks nothing either", id)
		}
	}
}

// Finding 5 (low): "Garaje" is Spanish for garage (a language the check
// reads: puerta, portón, cerradura), as "Гараж" is Russian: a switch named
// "Abrir garaje" turns on unasked, where "Puerta del garaje" asks.
func TestFindingGarageInOtherLanguages(t *testing.T) {
	t.Parallel()
	var missed []string
	for _, n := range []string{"Abrir garaje", "Garaje", "Гараж", "Garatge", "Garáž", "Garaż", "ガレージ"} {
		if !LooksSensitive(n) {
			missed = append(missed, n)
		}
	}
	if len(missed) > 0 {
		t.Errorf("names of a garage not read as such: %s", strings.Join(missed, ", "))
	}
}

// Finding 4 (low): a cover of no device class counts as one that may open
// the house, but one of a class maison does not know (Home Assistant keeps
// any string: "garage_door" from a custom integration or an override) is
// taken for a blind: turn_on opens it unasked (on the real house:
// cover.kitchen_window with device_class garage_door, opened).
func TestFindingACoverOfAnUnknownClassCounts(t *testing.T) {
	t.Parallel()
	h := house()
	h.Entities = append(h.Entities, Entity{ID: "cover.opener", Domain: "cover", Name: "Opener", Names: []string{"Opener"}, NamesKnown: true,
		Exposed: Yes, DeviceClass: "garage_door", MembersKnown: true})
	e, _ := h.Entity("cover.opener")
	if ef := h.effect(IntentOf("HassTurnOn"), nil, e, nil); ef.Change == NoChange {
		t.Error("opening a cover of class garage_door needs no yes; one of no class does")
	}
}
