package assist

import (
	"slices"
	"strings"
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
// their facts, as Home reads it.
func SayHouse(lang voice.Lang, entities []Entity, facts func(Entity) Facts, now time.Time, limit int) string {
	return words.House(lang, Home(devices(entities, facts), now), now, limit)
}

// Home reads the house for a sentence, in the order a person coming home
// wants to hear it: alarms and smoke, then what is open, then locks not
// locked, lights on, temperatures, recent motion, the rest. The first
// sentence names what is open or not locked and counts the lights; a
// device whose own sentence would say no more is not said again. Every
// device of the live context is said, the cameras together last (they have
// their own tools): what Assist lists is
// exposed by definition, so a device known by its words alone (no entity
// id could be confirmed for it) is said by those words. Only what an id
// would lend (a picture, a history, an action) is refused to it, elsewhere.
func Home(devices []words.Device, now time.Time) words.Home {
	h := words.Home{Empty: len(devices) == 0}
	items := make([]words.Device, 0, len(devices))
	for _, d := range devices {
		if d.Domain == "camera" {
			h.Cameras = append(h.Cameras, d)
		} else {
			items = append(items, d)
		}
	}
	slices.SortStableFunc(items, func(a, b words.Device) int { return priority(a, now) - priority(b, now) })
	h.Others = make([]words.Device, 0, len(items))
	for _, d := range items {
		switch {
		case isOpen(d):
			h.Open = append(h.Open, d)
		case d.Domain == "lock" && d.State != "locked":
			h.Unlocked = append(h.Unlocked, d)
		case d.Domain == "light" && d.State == "on":
			h.LightsOn++
		}
		if !saidInSummary(d) {
			h.Others = append(h.Others, d)
		}
	}
	return h
}

// priority orders what a person coming home wants to hear first.
func priority(d words.Device, now time.Time) int {
	switch {
	case d.Domain == "binary_sensor" && d.State == "on" && slices.Contains(safetyClasses, d.Class):
		return 0
	case isOpen(d):
		return 1
	case d.Domain == "lock" && d.State != "locked":
		return 2
	case d.Domain == "light" && d.State == "on":
		return 3
	case d.Domain == "sensor" && d.Attributes["unit_of_measurement"] != "" && strings.Contains(d.Attributes["unit_of_measurement"], "°"):
		return 4
	case isMotion(d) && (d.State == "on" || (!d.Changed.IsZero() && now.Sub(d.Changed) < time.Hour)):
		return 5
	}
	return 6
}

// saidInSummary says whether the first sentence, naming d as open or not
// locked, says all its own sentence would: an open door, window or cover,
// an unlocked lock. One opening or jammed is said again, with that.
func saidInSummary(d words.Device) bool {
	switch d.Domain {
	case "binary_sensor":
		return isOpen(d)
	case "cover", "valve":
		return d.State == "open"
	case "lock":
		return d.State == "unlocked"
	}
	return false
}

// The device classes of binary sensors, by what they tell.
var (
	safetyClasses   = []string{"smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety"}
	openingClasses  = []string{"door", "window", "garage_door", "opening"}
	presenceClasses = []string{"occupancy", "presence"}
	motionClasses   = []string{"motion", "moving"}
)

func isOpen(d words.Device) bool {
	switch d.Domain {
	case "cover", "valve":
		return d.State == "open" || d.State == "opening"
	case "binary_sensor":
		return d.State == "on" && slices.Contains(openingClasses, d.Class)
	}
	return false
}

func isMotion(d words.Device) bool {
	return slices.Contains(presenceClasses, d.Class) || slices.Contains(motionClasses, d.Class)
}
