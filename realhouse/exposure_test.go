package realhouse_test

import (
	"strings"
	"testing"
	"time"

	"maison/internal/realha"
)

// expose shares entities with Assist, or stops sharing them, as the owner
// does under Settings, Voice assistants, Expose.
func expose(t *testing.T, h realha.House, shared bool, ids ...string) {
	t.Helper()
	ownerWS(t, h, map[string]any{"type": "homeassistant/expose_entity", "assistants": []string{"conversation"}, "entity_ids": ids, "should_expose": shared})
}

// A device renamed, and one newly shared with Assist, are seen by a maison
// already running, without a restart; one no longer shared is gone again.
func TestRenamedAndExposedSeenWithoutRestart(t *testing.T) {
	h := realha.Load(t)
	restoreAfter(t, h, "light.kitchen_lights")
	cs := serveStdio(t, h)
	if _, text := ask(t, cs, "describe_house", nil); !strings.Contains(text, "“Kitchen Lights”") {
		t.Fatalf("describe_house before the rename: %q", text)
	}

	// The light is named by its device (has_entity_name): the name given
	// follows the device's, and Home Assistant's friendly name is both.
	ownerWS(t, h, map[string]any{"type": "config/entity_registry/update", "entity_id": "light.kitchen_lights", "name": "Pantry Lamp"})
	t.Cleanup(func() {
		ownerWS(t, h, map[string]any{"type": "config/entity_registry/update", "entity_id": "light.kitchen_lights", "name": nil})
	})
	fn, _ := readState(t, h, "light.kitchen_lights").Attributes["friendly_name"].(string)
	if !strings.Contains(fn, "Pantry Lamp") {
		t.Fatalf("the owner reads the renamed light as %q", fn)
	}
	renamed := func(s string) bool {
		return strings.Contains(s, "“"+fn+"”") && !strings.Contains(s, "“Kitchen Lights”")
	}
	if text := until(t, cs, "describe_house", nil, renamed); !renamed(text) {
		t.Errorf("the rename to %q is not seen within a minute: %q", fn, text)
	}
	res, text := ask(t, cs, "turn_off", map[string]any{"name": fn})
	if st := readState(t, h, "light.kitchen_lights"); res.IsError || st.State != "off" {
		t.Errorf("turn_off the renamed %q: %q; the owner reads %q", fn, text, st.State)
	}

	expose(t, h, true, "switch.ac")
	t.Cleanup(func() { expose(t, h, false, "switch.ac") })
	shown := func(s string) bool { return strings.Contains(s, "“AC”") }
	if text := until(t, cs, "describe_house", map[string]any{"domain": "switch"}, shown); !shown(text) {
		t.Errorf("switch.ac, newly shared, is not seen within a minute: %q", text)
	}
	expose(t, h, false, "switch.ac")
	if text := until(t, cs, "describe_house", map[string]any{"domain": "switch"}, func(s string) bool { return !shown(s) }); shown(text) {
		t.Errorf("switch.ac, no longer shared, is still shown after a minute: %q", text)
	}
}

// A lock the owner shares with Assist, though it has no registry entry
// (the demo's locks have none): unlocking it asks first and, confirmed,
// unlocks it, as the owner then reads.
func TestUnlockAsksThenUnlocks(t *testing.T) {
	h := realha.Load(t)
	restoreAfter(t, h, "lock.front_door")
	expose(t, h, true, "lock.front_door")
	t.Cleanup(func() { expose(t, h, false, "lock.front_door") })
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.start(t, h)
			service(t, h, "lock", "lock", map[string]any{"entity_id": "lock.front_door"})
			c := propose(t, cs, "turn_off", map[string]any{"name": "Front Door"}, "“Front Door”")
			if st := readState(t, h, "lock.front_door"); st.State != "locked" {
				t.Fatalf("the Front Door is %q after a proposal, want locked", st.State)
			}
			res, text := ask(t, cs, "turn_off", map[string]any{"name": "Front Door", "confirmation": c})
			t.Logf("unlocking the shared Front Door, confirmed: %s", text)
			// The demo's lock is "unlocking" for two seconds before "unlocked".
			deadline := time.Now().Add(time.Minute)
			st := readState(t, h, "lock.front_door")
			for st.State == "unlocking" && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				st = readState(t, h, "lock.front_door")
			}
			if res.IsError || st.State != "unlocked" {
				t.Errorf("unlocking the Front Door, confirmed: %q; the owner reads %q", text, st.State)
			}
			res, text = ask(t, cs, "turn_off", map[string]any{"name": "Front Door", "confirmation": c})
			if !res.IsError || !strings.Contains(text, "That confirmation cannot be used") {
				t.Errorf("the same confirmation again: %q", text)
			}
		})
	}
}
