package tools_test

import (
	"strings"
	"testing"

	"maison/demo"
)

// The person is asked about what will really open: a garage door renamed
// "Lamp" is asked about as a garage door, a gate with no name of its own by
// the words Home Assistant gives it, and as a gate. Found against the real
// Home Assistant.
func TestProposalSaysWhatWillOpen(t *testing.T) {
	r := newRig(t, rigOptions{setup: func(h *demo.House) {
		for _, e := range []demo.Entity{
			{ID: "cover.garage_door", Name: "Lamp", Area: "Garage", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "garage", "current_position": 0, "supported_features": 15}},
			{ID: "cover.side_gate", Name: "", Area: "Driveway", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "gate", "current_position": 0, "supported_features": 15}},
		} {
			if err := h.Add(e); err != nil {
				t.Fatal(err)
			}
		}
	}})
	text, _ := callQuiet(t, r, "turn_on", map[string]any{"name": "Lamp"})
	if !asked(text) || !strings.Contains(text, "“Lamp”, a garage door") {
		t.Errorf("a garage door called Lamp: %q", text)
	}
	text, _ = callQuiet(t, r, "turn_on", map[string]any{"area": "Driveway"})
	if !asked(text) || strings.Contains(text, "open the.") || !strings.Contains(text, "open the “side gate”") {
		t.Errorf("a gate without a name: %q", text)
	}
	for _, id := range []string{"cover.garage_door", "cover.side_gate"} {
		if st, _, _ := r.house.State(id); st != "closed" {
			t.Errorf("%s is %s without a confirmation", id, st)
		}
	}
}
