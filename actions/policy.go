package actions

import (
	"slices"
	"strings"
	"unicode"

	"maison/voice"
)

// Change is what an action would do to a device that needs a person's yes.
type Change int

// The changes a person approves.
const (
	NoChange      Change = iota
	Unlock               // a lock unlocks
	Open                 // a garage door, gate, door or valve opens
	Disarm               // an alarm is disarmed
	Operate              // a device whose name reads like a door, a gate or a lock is operated
	RunUnknown           // a script, an automation or a button whose effects maison cannot read
	SetsSensitive        // a scene or a group that sets a device of the kinds above
	Stop                 // a garage door, gate, door or valve stopped, which may leave it open
	StopUnknown          // a script stopped midway, whose effects maison cannot read (a door it would have locked)
)

// Kind is what kind of thing opens, when its name may not say it.
type Kind int

// The kinds of device that open.
const (
	KindNone Kind = iota
	KindValve
	KindGarageDoor
	KindGate
	KindDoor
)

// Device is one entity a call reaches, as a person knows it.
type Device struct {
	ID     string
	Name   string // its first name as Home Assistant matches it, else its state's name
	Area   string // its area's name, "" for none
	Domain string
	Kind   Kind
	// Shared says the device is exposed to Assist: one that is not is never
	// named to the model, nor on the page, which the model may open.
	Shared bool
}

// Effect is what a call would do to one device that a person must approve.
type Effect struct {
	Device
	Change Change
	// Sets are the devices a scene or a group would set, those of its
	// members that are scenes or groups followed to theirs, for the page.
	Sets []Device
}

// unknownEffects are the domains whose entities run what maison cannot
// read: a script's actions, an automation's, whatever a button does.
func unknownEffects(domain string) bool {
	switch domain {
	case "script", "automation", "button", "input_button":
		return true
	}
	return false
}

// harmlessCovers are the cover classes that open nothing of the house;
// any other, unknown classes included (Home Assistant keeps any string, a
// custom integration's "garage_door"), counts as one that may.
var harmlessCovers = []string{"awning", "blind", "curtain", "damper", "shade", "shutter", "window"}

// openable reports whether a cover of this class, or a valve, opens the
// house: a cover whose class is none or unknown counts.
func openable(e Entity) bool {
	return e.Domain == "valve" || e.Domain == "cover" && !slices.Contains(harmlessCovers, e.DeviceClass)
}

// direction is which way an intent moves what it acts on.
type direction struct{ on, off bool }

func directionOf(in Intent, values map[string]any) (d direction, moves bool) {
	switch in.Name {
	case "HassTurnOn", "HassOpenCover":
		return direction{on: true}, true
	case "HassTurnOff", "HassCloseCover":
		return direction{off: true}, true
	case "HassToggle":
		return direction{on: true, off: true}, true
	case "HassSetPosition":
		if p, _ := number(values["position"]); p == 0 {
			return direction{off: true}, true
		}
		return direction{on: true}, true
	case "HassStopMoving":
		return direction{}, false
	}
	return direction{}, true // it changes something, not a lock, a cover or a valve
}

// effect says what intent in with values would do to e that needs a
// person's yes (NoChange: nothing). safe are the entity ids the operator
// lists as safe (MAISON_SAFE). Its facts are e's own, and for a scene or a
// group its members', read from the whole house.
func (h House) effect(in Intent, values map[string]any, e Entity, safe []string) Effect {
	ef := Effect{Device: h.device(e)}
	if slices.Contains(safe, e.ID) {
		return ef
	}
	if in.Name == "HassStopMoving" {
		// Stopped while it closes, what opens the house stays open: a
		// garage door, a gate, a door or a valve, one whose name says so,
		// or a group that holds one.
		if openable(e) || namesSensitive(e) || slices.ContainsFunc(h.setsOf(e, 0), func(d Device) bool {
			m, ok := h.Entity(d.ID)
			return !ok || openable(m) || namesSensitive(m)
		}) {
			ef.Change, ef.Sets = Stop, h.setsOf(e, 0)
		}
		return ef
	}
	d, moves := directionOf(in, values)
	if !moves {
		return ef
	}
	switch {
	case d.off && e.Domain == "lock":
		ef.Change = Unlock
	case d.off && e.Domain == "alarm_control_panel":
		ef.Change = Disarm
	case d.on && openable(e):
		ef.Change = Open
	case e.Domain == "script" && d.off && !d.on:
		// Stopped midway, a script may leave undone what it would have
		// done next (lock the door it unlocked).
		ef.Change = StopUnknown
	case unknownEffects(e.Domain) && (d.on || e.Domain == "automation"):
		// A button cannot be turned off; anything else runs or changes
		// what maison cannot read.
		ef.Change = RunUnknown
	case e.Domain == "scene" && d.on || len(e.Members) > 0 || !e.MembersKnown:
		_, sensitive := h.sets(e, safe, 0)
		if sensitive || !e.MembersKnown || e.Domain == "scene" && len(e.Members) == 0 {
			ef.Change = SetsSensitive
		}
	}
	if ef.Change != NoChange && ef.Sets == nil {
		ef.Sets = h.setsOf(e, 0) // a group's or a scene's members, every one of them
	}
	closing := d.off && !d.on && (e.Domain == "cover" || e.Domain == "valve")
	locking := d.on && !d.off && e.Domain == "lock"
	if ef.Change == NoChange && acts(e.Domain) && !closing && !locking && namesSensitive(e) {
		ef.Change = Operate
	}
	return ef
}

// sets lists the members a scene or a group sets, and whether one of them
// is a device a person must approve a change to (any change: a scene may
// set it either way): a lock, what opens, an alarm, what runs unknown
// effects, another scene or group that does, or anything whose name reads
// like one.
func (h House) sets(e Entity, safe []string, depth int) (members []Device, sensitive bool) {
	if depth > 4 {
		return nil, true
	}
	for _, id := range e.Members {
		m, ok := h.Entity(id)
		if !ok {
			sensitive = true // a member maison cannot see: its effect cannot be read
			members = append(members, Device{ID: id, Name: id})
			continue
		}
		members = append(members, h.device(m))
		if slices.Contains(safe, id) {
			continue
		}
		switch {
		case m.Domain == "lock", m.Domain == "alarm_control_panel", openable(m), unknownEffects(m.Domain), namesSensitive(m) && acts(m.Domain):
			sensitive = true
		case len(m.Members) > 0 || !m.MembersKnown || m.Domain == "scene":
			if _, s := h.sets(m, safe, depth+1); s {
				sensitive = true
			}
		}
	}
	return members, sensitive
}

// setsOf lists every device e sets, a scene's or a group's members, those
// that are scenes or groups themselves followed to theirs, each once.
func (h House) setsOf(e Entity, depth int) []Device {
	var out []Device
	for _, id := range e.Members {
		m, ok := h.Entity(id)
		switch {
		case !ok:
			out = append(out, Device{ID: id, Name: id})
		case len(m.Members) > 0 && depth < 4:
			out = append(out, h.setsOf(m, depth+1)...)
		default:
			out = append(out, h.device(m))
		}
	}
	slices.SortFunc(out, func(a, b Device) int { return strings.Compare(a.ID, b.ID) })
	return slices.CompactFunc(out, func(a, b Device) bool { return a.ID == b.ID })
}

// device is e as a person knows it: its first name, its area's name, what
// kind of thing opens when it is one.
func (h House) device(e Entity) Device {
	d := Device{ID: e.ID, Name: e.Name, Domain: e.Domain, Shared: e.Exposed == Yes}
	if len(e.Names) > 0 && strings.TrimSpace(e.Names[0]) != "" {
		d.Name = e.Names[0]
	}
	if a, ok := h.Area(e.AreaID); ok {
		d.Area = a.Name
	}
	switch {
	case e.Domain == "valve":
		d.Kind = KindValve
	case e.Domain == "cover" && e.DeviceClass == "garage":
		d.Kind = KindGarageDoor
	case e.Domain == "cover" && e.DeviceClass == "gate":
		d.Kind = KindGate
	case e.Domain == "cover" && e.DeviceClass == "door":
		d.Kind = KindDoor
	}
	return d
}

// acts reports whether Home Assistant's intents can operate an entity of
// this domain (sensors, cameras and the like only report).
func acts(domain string) bool {
	switch domain {
	case "sensor", "binary_sensor", "camera", "weather", "person", "device_tracker", "event", "update", "ai_task",
		"zone", "sun", "calendar", "todo", "image", "conversation", "tts", "stt", "wake_word":
		return false
	}
	return true
}

// sensitiveStems are the stems of names that read like a lock, a door, a
// gate, a garage, a valve or an alarm, in the languages a house is named
// in, folded as voice.Fold folds them. A stem counts anywhere in a word
// (Frontdoor, Smartlock, Voordeur), except the words in notSensitive.
var sensitiveStems = []string{
	"lock", "latch", "deadbolt", "door", "gate", "garage", "valve", "alarm", "security", "shutoff", "shut off",
	"serrure", "verrou", "porte", "portail", "portillon", "barriere", "vanne", "alarme", "securite", "robinet",
	"schloss", "tuer", "ventil", "puerta", "cerradura", "porton", "valvula", "alarma",
	"serratura", "cancello", "valvola", "allarme", "deur", "poort", "klep",
	"portone", "lucchetto", "fechadura", "cadeado", "portao", "garagem", "cancelo",
	"drzwi", "zamek", "brama", "furtka", "zawor", "garasjeport", "garageport", "ytterdor", "dorr",
	"lukko", "portti", "venttiili", "dvere", "zamok", "vrata",
	"замок", "двер", "ворот", "калитк", "клапан", "ドア", "錠", "鍵", "門", "ゲート", "バルブ", "门", "锁", "阀",
	"garaje", "garatge", "garaz", "garaž", "garaż", "гараж", "ガレージ", "도어", "잠금", "车库", "kilit", "πορτ", "κλειδαρ", "γκαραζ",
}

// sensitiveWords are words too short or too common inside other words to
// count as stems: they count as whole words only, as written (dør, lås,
// port, porta, ovi).
var sensitiveWords = []string{"lås", "dør", "dörr", "port", "porta", "ovi", "brána", "dveře", "zámek", "kapı", "kapi"}

// notSensitive are words that hold a stem without meaning it.
var notSensitive = strings.NewReplacer("outdoor", " ", "indoor", " ", "clock", " ", "block", " ", "unlocked", " unlock ", "navigate", " ", "aggregate", " ")

// stemEndings are short stems that count only at the end of a word after a
// consonant: Haustür, Hoftor, Garagentor, Gartentür (not motor, monitor,
// temperatur, doctor).
var stemEndings = []string{"tor", "tur", "slot"}

// LooksSensitive reports whether words read like a sensitive device, as
// stored or as a person reading them sees them (voice.Clean: invisible
// characters gone, in display order), so that a name made to display as
// "front lock" counts as the front lock.
func LooksSensitive(name string) bool {
	return readsSensitive(name) || readsSensitive(voice.Clean(name, 0))
}

func readsSensitive(name string) bool {
	if d, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(name)), "."); ok && sensitiveDomain(d) {
		return true
	}
	folded := notSensitive.Replace(voice.Fold(voice.Loose(name)))
	joined := strings.ReplaceAll(folded, " ", "")
	for _, w := range sensitiveStems {
		if strings.Contains(folded, w) || strings.Contains(joined, strings.ReplaceAll(w, " ", "")) {
			return true
		}
	}
	for _, word := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if slices.Contains(sensitiveWords, word) {
			return true
		}
	}
	for _, word := range strings.Fields(folded) {
		for _, end := range stemEndings {
			if word == end {
				return true
			}
			if before, ok := strings.CutSuffix(word, end); ok && before != "" && !strings.ContainsRune("aeiouyc", rune(before[len(before)-1])) {
				return true
			}
		}
	}
	return false
}

func sensitiveDomain(d string) bool {
	switch d {
	case "lock", "cover", "valve", "alarm_control_panel":
		return true
	}
	return false
}

// namesSensitive reports whether any of an entity's names, or its object
// id, reads like a sensitive device (its domain has rules of its own).
func namesSensitive(e Entity) bool {
	_, object, _ := strings.Cut(e.ID, ".")
	return LooksSensitive(e.Name) || slices.ContainsFunc(e.Names, LooksSensitive) || LooksSensitive(strings.ReplaceAll(object, "_", " "))
}
