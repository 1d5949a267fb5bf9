package homeassistant_test

import (
	"fmt"
	"testing"
	"time"

	"maison/demo"
	"maison/homeassistant"
)

// History against the demo's recorder: the state held at the start, then
// each change in the period, for the ids asked and no other; changes
// recorded out of order read as changes only (branch attack-13).
func TestHistoryFromTheDemoRecorder(t *testing.T) {
	t.Parallel()
	f := newHouse(t, demo.NamingPlain)
	if err := f.house.Add(demo.Entity{ID: "light.attic", Name: "Attic", State: "off", Exposed: true}); err != nil {
		t.Fatal(err)
	}
	c := f.connected(t)
	now := time.Now()
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	f.house.AddHistory("light.attic",
		demo.HistoryChange{State: "off", At: at(50 * time.Hour)},
		demo.HistoryChange{State: "on", At: at(3 * time.Hour)},
		demo.HistoryChange{State: "on", At: at(2 * time.Hour)}, // not a change
		demo.HistoryChange{State: "off", At: at(time.Hour)})
	// Recorded after, earlier in time: "on" before "on" leaves one change.
	f.house.AddHistory("light.attic", demo.HistoryChange{State: "on", At: at(4 * time.Hour)})
	start := at(48 * time.Hour)
	got, err := c.History(t.Context(), start, now, []string{"light.attic", "light.attic", "binary_sensor.shed_door_nope"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Errorf("history of %d entities, want 1: %v", len(got), got)
	}
	var said []string
	for _, ch := range got["light.attic"] {
		said = append(said, fmt.Sprintf("%s@%s", ch.State, now.Sub(ch.At).Round(time.Minute)))
	}
	if want := "[off@48h0m0s on@4h0m0s off@1h0m0s]"; fmt.Sprint(said) != want {
		t.Errorf("history %v, want %s", said, want)
	}
	// The recorder gone: said as such, not as a broken connection.
	f.house.SetRecorderAvailable(false)
	if _, err := c.History(t.Context(), start, now, []string{"light.attic"}); kind(err) != homeassistant.KindNoHistory {
		t.Errorf("without a recorder: %v", err)
	}
}
