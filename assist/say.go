package assist

import (
	"time"

	"maison/voice"
	"maison/words"
)

// Facts are what the live context leaves out about an entity and the
// websocket state of the same entity adds: its device class and last change.
type Facts struct {
	DeviceClass string
	LastChanged time.Time
}

// Device is what a sentence says of e: its words, with f.
func Device(e Entity, f Facts) words.Device {
	return words.Device{
		ID: e.ID, Doubt: e.Doubt, Names: e.Names, Area: e.Area(), Domain: e.Domain, State: e.State,
		Attributes: e.Attributes, Class: f.DeviceClass, Changed: f.LastChanged,
	}
}

// devices is Device of each entity, with its facts.
func devices(entities []Entity, facts func(Entity) Facts) []words.Device {
	out := make([]words.Device, len(entities))
	for i, e := range entities {
		out[i] = Device(e, facts(e))
	}
	return out
}

// SayHouse says the state of the house (words.House) from entities and
// their facts.
func SayHouse(lang voice.Lang, entities []Entity, facts func(Entity) Facts, now time.Time, limit int) string {
	return words.House(lang, devices(entities, facts), now, limit)
}
