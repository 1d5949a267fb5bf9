// The refusals of a tool call's arguments: what cannot be read, what is
// missing or wrong, and what each argument takes.

package words

import (
	"strconv"

	"maison/voice"
)

// UnreadableArgs says that a call's arguments are not named values.
func UnreadableArgs(lang voice.Lang) string {
	return say(lang, "args.unreadable")
}

// LongArg says that the argument name is longer than any name maison
// reads: runes characters at most, items names in a list.
func LongArg(lang voice.Lang, name string, runes, items int) string {
	return say(lang, "args.long", "name", lang.Quote(name, 40), "runes", strconv.Itoa(runes), "items", strconv.Itoa(items))
}

// WrongArg says that the argument name is missing, or cannot be used, and
// what it takes: wants follows "must be".
func WrongArg(lang voice.Lang, name string, wants Key, missing bool) string {
	q := lang.Quote(name, 40)
	if missing {
		return say(lang, "args.missing", "name", q, "wants", wants.In(lang))
	}
	return say(lang, "args.wrong", "name", q, "wants", wants.In(lang))
}

// What each argument of the tools takes, said after "must be" by WrongArg.
const (
	WantsName         Key = "args.wants.name"         // a device's name, to act on it
	WantsArea         Key = "args.wants.area"         // a room's name
	WantsFloor        Key = "args.wants.floor"        // a floor's name
	WantsDomain       Key = "args.wants.domain"       // kinds of device
	WantsDeviceClass  Key = "args.wants.device_class" // device classes
	WantsConfirmation Key = "args.wants.confirmation" // a confirmation code or approval reference
	WantsRegion       Key = "args.wants.region"       // a part of a picture
	WantsCamera       Key = "args.wants.camera"       // a camera's name
	WantsCameraID     Key = "args.wants.camera_id"    // a camera's entity id
	WantsHouseName    Key = "args.wants.house_name"   // a device's name, to describe it
	WantsBrightness   Key = "args.wants.brightness"   // a brightness in percent
	WantsColour       Key = "args.wants.colour"       // a colour's name
	WantsTemperature  Key = "args.wants.temperature"  // a colour temperature
	WantsHours        Key = "args.wants.hours"        // a number of hours of history
	WantsSince        Key = "args.wants.since"        // a time to start history from
	WantsHistoryName  Key = "args.wants.history_name" // a device's name, for its history
	WantsHistoryArea  Key = "args.wants.history_area" // a room's name, for its history
	WantsAction       Key = "args.wants.action"       // one of Home Assistant's actions a fold lists
)

// UnknownArg says that a tool has no argument name, and names those it
// has (known).
func UnknownArg(lang voice.Lang, name string, known []string) string {
	q := lang.Quote(name, 40)
	if len(known) == 0 {
		return say(lang, "args.unknown.none", "name", q)
	}
	quoted := make([]string, len(known))
	for i, k := range known {
		quoted[i] = lang.Quote(k, 40)
	}
	return say(lang, "args.unknown.some", "name", q, "quoted", lang.List(quoted))
}

// UnknownAction says that a tool folding Home Assistant's actions (ha_ask,
// ha_act) has no action name, and names those it has.
func UnknownAction(lang voice.Lang, name string, known []string) string {
	return say(lang, "args.action.unknown", "name", lang.Quote(name, 64), "quoted", quoteAll(lang, known))
}

// UnknownActionArg says that Home Assistant's action takes no argument
// name, and names those it takes (known).
func UnknownActionArg(lang voice.Lang, action, name string, known []string) string {
	a, q := lang.Quote(action, 64), lang.Quote(name, 40)
	if len(known) == 0 {
		return say(lang, "args.action.unknown_arg.none", "action", a, "name", q)
	}
	return say(lang, "args.action.unknown_arg.some", "action", a, "name", q, "quoted", quoteAll(lang, known))
}

// MissingActionArg says that Home Assistant's action needs the argument name.
func MissingActionArg(lang voice.Lang, action, name string) string {
	return say(lang, "args.action.missing_arg", "action", lang.Quote(action, 64), "name", lang.Quote(name, 40))
}

// ActionArgTwice says that Home Assistant's action was given the argument
// name twice, once as it is written and once as it is said.
func ActionArgTwice(lang voice.Lang, action, name string) string {
	return say(lang, "args.action.twice", "action", lang.Quote(action, 64), "name", lang.Quote(name, 40))
}

// quoteAll is names quoted and said as a list.
func quoteAll(lang voice.Lang, names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = lang.Quote(n, 40)
	}
	return lang.List(quoted)
}
