package assist

import (
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// SayHappened says what changed over the period in the exposed part of the
// house (words.Happened), from entities, their facts and hist, the states
// of each entity id from the period's start. Times are said in loc.
func SayHappened(lang voice.Lang, loc *time.Location, p words.Period, ents []Entity, facts func(Entity) Facts, hist map[string][]homeassistant.Change, limit int) string {
	return words.Happened(lang, loc, p, devices(ents, facts), hist, limit)
}

// Tellable reports whether an entity's history says something maison tells.
func Tellable(e Entity, f Facts) bool { return words.Tellable(Device(e, f)) }
