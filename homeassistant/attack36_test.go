package homeassistant

// Attack 36, finding 4's root: CallAssist is given the name a tool was
// planned under, and when Home Assistant no longer lists it, takes any
// tool whose part after the last "__" is the same (findTool), another
// integration's or the owner's own intent_script, which maison never
// planned and does not model. Run: go test ./homeassistant -run TestAttack36

import "testing"

func TestAttack36AToolIsCalledOnlyByTheNameItWasPlannedUnder(t *testing.T) {
	t.Parallel()
	tools := []Tool{
		{Name: "intent_script__get_items", Canonical: "get_items"},
		{Name: "intent_script__HassGetWeather", Canonical: "HassGetWeather"},
		{Name: "mycomponent__HassSetPosition", Canonical: "HassSetPosition"},
	}
	for _, planned := range []string{"todo__get_items", "weather__HassGetWeather", "intent__HassSetPosition"} {
		if got, ok := findTool(tools, planned, ownBare); ok {
			t.Errorf("%s, no longer listed, is carried out by %s", planned, got.Name)
		}
	}
}
