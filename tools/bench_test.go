package tools_test

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
)

// busyWeek fills the demo house's recorder with a week of a busy house:
// motion every ten minutes, someone at the front door every half hour by
// day, doors and windows, the garage, the lock and the lights several
// times a day, the unexposed shed door as often: about three thousand
// changes in all, returned.
func busyWeek(h *demo.House, now time.Time) int {
	n := 0
	add := func(id string, every time.Duration, hold time.Duration, on, off string, day bool) {
		var ch []demo.HistoryChange
		for at := now.Add(-7 * 24 * time.Hour); at.Before(now.Add(-hold)); at = at.Add(every) {
			if hour := at.Hour(); day && (hour < 7 || hour > 21) {
				continue
			}
			ch = append(ch, demo.HistoryChange{State: on, At: at}, demo.HistoryChange{State: off, At: at.Add(hold)})
		}
		h.AddHistory(id, ch...)
		n += len(ch)
	}
	add("binary_sensor.backyard_motion", 10*time.Minute, time.Minute, "on", "off", false)
	add("binary_sensor.front_door_person", 30*time.Minute, 2*time.Minute, "on", "off", true)
	add("binary_sensor.back_door", 2*time.Hour, 5*time.Minute, "on", "off", true)
	add("binary_sensor.kitchen_window", 6*time.Hour, 90*time.Minute, "on", "off", false)
	add("cover.garage_door", 4*time.Hour, 10*time.Minute, "open", "closed", true)
	add("lock.front_door", 3*time.Hour, 20*time.Minute, "unlocked", "locked", true)
	add("light.kitchen", 3*time.Hour, time.Hour, "on", "off", false)
	add("light.living_room", 4*time.Hour, 2*time.Hour, "on", "off", false)
	add("light.porch", 12*time.Hour, 6*time.Hour, "on", "off", false)
	add("binary_sensor.shed_door", 2*time.Hour, 5*time.Minute, "on", "off", true)
	return n
}

// BenchmarkWhatHappened asks what happened over a busy week of the demo
// house, through the in-memory MCP session, maison's Home Assistant client
// and the demo's websocket history command; describe_house, which reads
// the house's present state over the same path, is the anchor of the same
// run.
func BenchmarkWhatHappened(b *testing.B) {
	now := time.Now()
	var changes int
	r := newRig(b, rigOptions{setup: func(h *demo.House) { changes = busyWeek(h, now) }})
	b.Logf("a week of %d recorded changes", changes)
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"week", "what_happened", map[string]any{"hours": 168}},
		{"day", "what_happened", map[string]any{"hours": 24}},
		{"front_door_week", "what_happened", map[string]any{"hours": 168, "area": "Entrance"}},
		{"anchor_describe_house", "describe_house", nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := r.cs.CallTool(b.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", c.tool, err, res)
				}
			}
		})
	}
}
