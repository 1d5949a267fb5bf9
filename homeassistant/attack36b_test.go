package homeassistant

// Attack 36b, finding 2's root: findTool lets any prefixed name whose part
// after the last "__" has a capital stand for the bare name of releases
// before 2026.9, whatever its origin. "script__X never for anything else"
// and "only the bare name of the same intent" do not hold: a script's,
// another integration's or the owner's intent_script's name, planned while
// Home Assistant advertised prefixed names, runs Home Assistant's own
// intent once it advertises bare ones. Run: go test ./homeassistant -run TestAttack36b

import "testing"

func TestAttack36bBareNameStandsOnlyForItsOwnIntent(t *testing.T) {
	t.Parallel()
	// Home Assistant before 2026.9: bare names, the intents' own.
	tools := []Tool{
		{Name: "GetLiveContext", Canonical: "GetLiveContext"},
		{Name: "HassTurnOff", Canonical: "HassTurnOff"},
		{Name: "HassTurnOn", Canonical: "HassTurnOn"},
	}
	for _, planned := range []string{
		"script__HassTurnOff",        // a script's own tool: only ever itself
		"intent_script__HassTurnOn",  // the owner's intent, not Home Assistant's
		"mycomp__HassTurnOn",         // another integration's
		"x__intent__HassTurnOff",     // several "__": the origin is x__intent
		"x__script__HassTurnOff",     // a script, as IntentOfTool reads it
		"homeassistant__HassTurnOff", // an origin HassTurnOff never had
	} {
		if got, ok := findTool(tools, planned, ownBare); ok {
			t.Errorf("%s, no longer listed, is carried out by Home Assistant's %s", planned, got.Name)
		}
	}
	// What must still work: the intent's own name, in either era.
	for _, planned := range []string{"intent__HassTurnOn", "homeassistant__GetLiveContext"} {
		if _, ok := findTool(tools, planned, ownBare); !ok {
			t.Errorf("%s is not found among the bare names", planned)
		}
	}
}
