package assist

import (
	"fmt"
	"testing"
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// BenchmarkSay says the state of a house of 30 devices and what 30
// devices did over twelve hours, the words' share of describe_house and
// what_happened.
func BenchmarkSay(b *testing.B) {
	now := time.Date(2026, 11, 29, 19, 5, 0, 0, time.UTC)
	var ents []Entity
	hist := map[string][]homeassistant.Change{}
	for i := range 30 {
		domain, state := []string{"light", "lock", "binary_sensor"}[i%3], []string{"on", "unlocked", "on"}[i%3]
		e := Entity{ID: fmt.Sprintf("%s.d%d", domain, i), Domain: domain, Names: []string{fmt.Sprintf("Device %d", i)}, State: state}
		ents = append(ents, e)
		hist[e.ID] = []homeassistant.Change{{State: "off", At: now.Add(-12 * time.Hour)}, {State: state, At: now.Add(-time.Duration(i) * time.Minute)}}
	}
	facts := func(e Entity) Facts {
		if e.Domain == "binary_sensor" {
			return Facts{DeviceClass: "door"}
		}
		return Facts{}
	}
	p := words.Period{Start: now.Add(-12 * time.Hour), End: now, Hours: 12}
	b.Run("house", func(b *testing.B) {
		for b.Loop() {
			_ = SayHouse(voice.English, ents, facts, now, 30)
		}
	})
	b.Run("happened", func(b *testing.B) {
		for b.Loop() {
			_ = SayHappened(voice.English, time.UTC, p, ents, facts, hist, 7)
		}
	})
}
