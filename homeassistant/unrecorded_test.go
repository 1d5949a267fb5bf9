package homeassistant

import (
	"slices"
	"testing"
	"time"
)

// The recorder writes a state a moment after it changes (commit_interval,
// five seconds by default), so history asked right after a change ends with
// the state before: measured against a real Home Assistant 2026.11, a
// window opened just before was told "closed" as its present. The change
// the live state already holds is added at the end, within the period; an
// entity the recorder has no row for (one it excludes) stays absent.
func TestHistoryEndsWithTheLiveState(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	start, end := t0, t0.Add(time.Hour)
	c := &Client{states: map[string]State{
		"cover.window":  {EntityID: "cover.window", State: "open", LastChanged: t0.Add(30 * time.Minute)},
		"light.kitchen": {EntityID: "light.kitchen", State: "on", LastChanged: t0.Add(10 * time.Minute)},
		"sensor.humid":  {EntityID: "sensor.humid", State: "54", LastChanged: t0.Add(20 * time.Minute)},
		"lock.back":     {EntityID: "lock.back", State: "unlocked", LastChanged: t0.Add(2 * time.Hour)},
	}}
	hist := map[string][]Change{
		"cover.window":  {{State: "open", At: t0.Add(5 * time.Minute)}, {State: "closed", At: t0.Add(20 * time.Minute)}},
		"light.kitchen": {{State: "off", At: t0}, {State: "on", At: t0.Add(10 * time.Minute)}},
		"lock.back":     {{State: "locked", At: t0}},
	}
	c.addUnrecorded(hist, start, end)
	want := map[string][]Change{
		"cover.window":  {{State: "open", At: t0.Add(5 * time.Minute)}, {State: "closed", At: t0.Add(20 * time.Minute)}, {State: "open", At: t0.Add(30 * time.Minute)}},
		"light.kitchen": {{State: "off", At: t0}, {State: "on", At: t0.Add(10 * time.Minute)}},
		"lock.back":     {{State: "locked", At: t0}}, // changed after the period asked for
	}
	for id, ch := range want {
		if !slices.Equal(hist[id], ch) {
			t.Errorf("%s: %v, want %v", id, hist[id], ch)
		}
	}
	if _, ok := hist["sensor.humid"]; ok {
		t.Errorf("a sensor the recorder has no row for was given one: %v", hist["sensor.humid"])
	}
}
