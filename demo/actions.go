package demo

import (
	"maps"
	"math"
	"strings"
)

// action is a service the house's entities support.
type action int

const (
	actTurnOn action = iota
	actTurnOff
	actToggle
	actLock
	actUnlock
	actOpen
	actClose
)

// serviceAction maps a domain's service to an action.
func serviceAction(domain, service string) (action, bool) {
	switch domain + "." + service {
	case "light.turn_on":
		return actTurnOn, true
	case "light.turn_off":
		return actTurnOff, true
	case "light.toggle", "cover.toggle":
		return actToggle, true
	case "lock.lock":
		return actLock, true
	case "lock.unlock":
		return actUnlock, true
	case "cover.open_cover":
		return actOpen, true
	case "cover.close_cover":
		return actClose, true
	}
	return 0, false
}

// onOffAction is what HassTurnOn (on) or HassTurnOff (!on) does to an entity
// of this domain: lights switch, locks lock on "on" and unlock on "off",
// covers open and close. ok is false for domains that cannot be switched.
func onOffAction(domain string, on bool) (act action, service string, ok bool) {
	switch domain {
	case "light":
		if on {
			return actTurnOn, "turn_on", true
		}
		return actTurnOff, "turn_off", true
	case "lock":
		if on {
			return actLock, "lock", true
		}
		return actUnlock, "unlock", true
	case "cover":
		if on {
			return actOpen, "open_cover", true
		}
		return actClose, "close_cover", true
	case "valve":
		if on {
			return actOpen, "open_valve", true
		}
		return actClose, "close_valve", true
	case "switch", "fan":
		if on {
			return actTurnOn, "turn_on", true
		}
		return actTurnOff, "turn_off", true
	}
	return 0, "", false
}

func entityDomain(id string) string {
	d, _, _ := strings.Cut(id, ".")
	return d
}

// applyLocked performs act on e. brightnessPct (0-100) applies to lights
// turned on; -1 leaves the brightness alone. It reports whether anything
// changed; the caller pushes changed entities to subscribers with
// notifyLocked, all at once. h.mu must be held.
func (h *House) applyLocked(e *entity, act action, brightnessPct int, userID string) bool {
	old := e.cur
	attrs := maps.Clone(old.attrs)
	state := old.state
	switch entityDomain(e.id) {
	case "light":
		on := old.state == "on"
		switch act {
		case actTurnOn:
			on = true
		case actTurnOff:
			on = false
		case actToggle:
			on = !on
		}
		if brightnessPct == 0 {
			on = false
		}
		modes, _ := attrs["supported_color_modes"].([]any)
		dimmable := len(modes) > 0 && modes[0] == "brightness"
		if on {
			state = "on"
			if len(modes) > 0 {
				attrs["color_mode"] = modes[0]
			}
			if dimmable {
				switch {
				case brightnessPct > 0:
					attrs["brightness"] = int(math.Round(float64(brightnessPct) * 255 / 100))
				case attrs["brightness"] == nil:
					attrs["brightness"] = 255
				}
			}
		} else {
			state = "off"
			attrs["color_mode"] = nil
			if dimmable {
				attrs["brightness"] = nil
			}
		}
	case "lock":
		switch act {
		case actLock, actTurnOn:
			state = "locked"
		case actUnlock, actTurnOff:
			state = "unlocked"
		}
	case "switch", "fan":
		switch act {
		case actTurnOn:
			state = "on"
		case actTurnOff:
			state = "off"
		case actToggle:
			state = map[bool]string{true: "off", false: "on"}[old.state == "on"]
		}
	case "valve":
		switch act {
		case actOpen, actTurnOn:
			state = "open"
		case actClose, actTurnOff:
			state = "closed"
		}
	case "cover":
		open := old.state == "open"
		switch act {
		case actOpen, actTurnOn:
			open = true
		case actClose, actTurnOff:
			open = false
		case actToggle:
			open = !open
		}
		if open {
			state, attrs["current_position"] = "open", 100
		} else {
			state, attrs["current_position"] = "closed", 0
		}
	default:
		return false
	}
	// When nothing changed, Home Assistant only reports the state again
	// (state_reported): subscribers see nothing.
	return h.setLocked(e, state, attrs, userID)
}
