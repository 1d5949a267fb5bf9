package tools_test

import (
	"strings"
	"testing"
)

// A passed-through Assist action aimed only by kind of device (a domain or
// a device class, no name, area or floor) reaches every exposed device of
// that kind, the garage door among them: it is refused as any call that
// could open one, and nothing moves. Empty name, area and floor words are
// no target either.
func TestPassthroughAimedByKindOnlyCannotOpen(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	for _, args := range []map[string]any{
		{"device_class": []any{"garage"}, "position": 100},
		{"domain": []any{"cover"}, "position": 100},
		{"domain": "cover", "position": 100},
		{"name": "", "area": " ", "floor": "", "device_class": []any{"garage"}, "position": 100},
	} {
		args["action"] = "HassSetPosition"
		text, isErr := call(t, r.cs, "ha_act", args)
		if !isErr || !strings.Contains(text, "I will not do that through this action") {
			t.Errorf("%v: %q", args, text)
		}
		if strings.Contains(text, "“”") {
			t.Errorf("%v: the refusal quotes an empty name: %q", args, text)
		}
		if st, _, _ := r.house.State("cover.garage_door"); st != "closed" {
			t.Fatalf("%v opened the garage door without a confirmation (%s): %q", args, st, text)
		}
	}
	// A kind with nothing sensitive in it still acts.
	if text, isErr := call(t, r.cs, "ha_act", map[string]any{"action": "HassSetPosition", "device_class": []any{"blind"}, "position": 40}); strings.Contains(text, "I will not do that") {
		t.Errorf("blinds only were refused: %q (error %v)", text, isErr)
	}
}
