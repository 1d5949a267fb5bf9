// What a sensitive action would do, and the words around its confirmation:
// the proposal, the question put to the person, and the answers when the
// yes is missing, spent or given for other devices.

package words

import (
	"strings"

	"maison/voice"
)

// The kinds of thing that opens, said before a name that does not say it
// ("the valve “Orchard”"; in French with the article, « la vanne »).
const (
	KindValve      Key = "sensitive.kind.valve"
	KindGarageDoor Key = "sensitive.kind.garage_door"
	KindGate       Key = "sensitive.kind.gate"
	KindDoor       Key = "sensitive.kind.door"
)

// WithKind is a device's quoted name with what kind of thing it is, for
// the verbs below ("open the " + it; « ouvrir » + it).
func WithKind(lang voice.Lang, name string, kind Key) string {
	return say(lang, kind, "name", name)
}

// InRoom is a device said with its room, when it has one.
func InRoom(lang voice.Lang, device, room string) string {
	if room == "" {
		return device
	}
	return say(lang, "sensitive.in_room", "device", device, "room", Quote(lang, room))
}

// RunUnknown is running the script, automation or button named, whose
// effects maison cannot read.
func RunUnknown(lang voice.Lang, domain, name string) string {
	switch domain {
	case "button", "input_button":
		return say(lang, "sensitive.run_unknown.button", "name", name)
	case "automation":
		return say(lang, "sensitive.run_unknown.automation", "name", name)
	}
	return say(lang, "sensitive.run_unknown.script", "name", name)
}

// SetsSensitive is running the scene (or acting on the group) named, which
// sets a lock, a door or what else needs the person's yes.
func SetsSensitive(lang voice.Lang, domain, name string) string {
	if domain == "scene" {
		return say(lang, "sensitive.sets_sensitive.scene", "name", name)
	}
	return say(lang, "sensitive.sets_sensitive.group", "name", name)
}

// Stop is stopping the garage door, gate, door or valve named, which may
// leave it open.
func Stop(lang voice.Lang, name string) string {
	return say(lang, "sensitive.stop", "name", name)
}

// StopScript is stopping the script named midway, whose effects maison
// cannot read.
func StopScript(lang voice.Lang, name string) string {
	return say(lang, "sensitive.stop_script", "name", name)
}

// Hidden is a device not shared with Assist, said by its kind alone
// (domain), on the approval page, which the model may open too.
func Hidden(lang voice.Lang, domain string) string {
	switch domain {
	case "lock", "cover", "valve", "alarm_control_panel", "script", "scene":
		return say(lang, Key("sensitive.hidden."+domain))
	}
	return say(lang, "sensitive.hidden.other")
}

// Sets names on the approval page the devices a scene or a group sets.
func Sets(lang voice.Lang, names []string) string {
	return say(lang, "sensitive.sets", "names", lang.List(names))
}

// Unlock is unlocking the lock named (quoted, with its kind).
func Unlock(lang voice.Lang, name string) string {
	return say(lang, "sensitive.unlock", "name", name)
}

// Disarm is disarming the alarm named.
func Disarm(lang voice.Lang, name string) string {
	return say(lang, "sensitive.disarm", "name", name)
}

// Open is opening the door, gate or valve named.
func Open(lang voice.Lang, name string) string {
	return say(lang, "sensitive.open", "name", name)
}

// Operate is operating the device named, whose name reads like a door, a
// gate or a lock.
func Operate(lang voice.Lang, name string) string {
	return say(lang, "sensitive.operate", "name", name)
}

// ActOnMaybeLock is acting on the target named (quoted; "" when it has no
// words), which matches nothing exposed but could be a lock or a door.
func ActOnMaybeLock(lang voice.Lang, name string) string {
	if name == "" {
		return say(lang, "sensitive.maybe_lock.unnamed")
	}
	return say(lang, "sensitive.maybe_lock.named", "name", name)
}

// NotConfirmed says that the person declined, or did not answer yes.
func NotConfirmed(lang voice.Lang) string {
	return say(lang, "sensitive.not_confirmed")
}

// ConfirmQuestion is the question put to the person before action (what
// the call would do).
func ConfirmQuestion(lang voice.Lang, action string) string {
	return voice.Sentence(say(lang, "sensitive.confirm_question", "action", action))
}

// ConfirmYes is the title of the box the person ticks to say yes to action.
func ConfirmYes(lang voice.Lang, action string) string {
	return say(lang, "sensitive.confirm_yes", "action", action)
}

// ReachChanged says why the person is asked again: what the call's words
// reach changed since the yes.
func ReachChanged(lang voice.Lang) string {
	return say(lang, "sensitive.reach_changed")
}

// InvalidConfirmation is the one answer to a confirmation that is unknown,
// expired, someone else's, already used or made for another action.
func InvalidConfirmation(lang voice.Lang) string {
	return say(lang, "sensitive.invalid_confirmation")
}

// Proposal asks the model to get the person's go-ahead for action, and
// says in advance that nothing from the house is ever a yes.
func Proposal(lang voice.Lang, action string) string {
	return say(lang, "sensitive.proposal", "action", action)
}

// ConfirmationCode hands the model the code, apart from every name.
func ConfirmationCode(lang voice.Lang, code string) string {
	return say(lang, "sensitive.confirmation_code", "code", code)
}

// sensitiveMixedNamed is how many other devices SensitiveMixed names before
// counting the rest.
const sensitiveMixedNamed = 4

// SensitiveMixed refuses a call that would do action (unlock, open,
// disarm) and also act on other devices (quoted names): the person is asked
// about a sensitive action alone, so what they approve is all that happens.
func SensitiveMixed(lang voice.Lang, action string, others []string) string {
	named := others
	if len(named) > sensitiveMixedNamed {
		named = append(named[:sensitiveMixedNamed:sensitiveMixedNamed],
			sayN(lang, "sensitive.mixed.others", len(others)-sensitiveMixedNamed, "n", lang.Number(len(others)-sensitiveMixedNamed)))
	}
	list := lang.List(named)
	action = strings.TrimSuffix(action, ",") // a kind said last ("a valve,") ends here
	return say(lang, "sensitive.mixed", "action", action, "list", list)
}
