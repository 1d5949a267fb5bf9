// The tools' own refusals: a call that names nothing, a filter that
// matches nothing, an action run through the wrong tool, an unknown tool;
// and the ready-made request check_the_house.

package words

import "maison/voice"

// NeedTarget says that an action names no device and no room.
func NeedTarget(lang voice.Lang) string {
	return say(lang, "tools.need_target")
}

// DetailsUnreadable says that an action's details are not named values.
func DetailsUnreadable(lang voice.Lang) string {
	return say(lang, "tools.details_unreadable")
}

// NotThroughThisAction refuses an action whose target could be reached in
// a way that needs the person's yes (what, each as Unlock, Open... say it).
func NotThroughThisAction(lang voice.Lang, what []string) string {
	return say(lang, "tools.not_through_this_action", "what", lang.List(what))
}

// HoursAndSince says that a call gave both a number of hours and a start.
func HoursAndSince(lang voice.Lang) string {
	return say(lang, "tools.hours_and_since")
}

// BadSince says that the argument since is not a time maison reads.
func BadSince(lang voice.Lang) string {
	return say(lang, "tools.bad_since")
}

// NoHistoryMatch says that nothing shared with a history fits a name or room.
func NoHistoryMatch(lang voice.Lang) string {
	return say(lang, "tools.no_history_match")
}

// NothingMatches says that nothing shared fits the filter of a description
// of the house.
func NothingMatches(lang voice.Lang) string {
	return say(lang, "tools.nothing_matches")
}

// NothingToSet says that a light call gives nothing to set.
func NothingToSet(lang voice.Lang) string {
	return say(lang, "tools.nothing_to_set")
}

// CheckTheHouse is the request a person picks to have the house looked over.
func CheckTheHouse(lang voice.Lang) string {
	return say(lang, "tools.check_the_house")
}

// UnknownOffer refuses a call of a tool, prompt or resource (what: "tool",
// "prompt", "resource") not offered to this connection, by the name as far
// as a person sees it (shown).
func UnknownOffer(lang voice.Lang, what, shown string) string {
	k := Key("tools.unknown_offer.tool")
	switch what {
	case "prompt":
		k = "tools.unknown_offer.prompt"
	case "resource":
		k = "tools.unknown_offer.resource"
	}
	return say(lang, k, "name", shown)
}

// PictureLeftOut says a picture was left out of an answer it could not be
// made to fit.
const PictureLeftOut Key = "tools.picture_left_out"

// PictureMadeSmaller says a picture was made much smaller than usual to fit.
const PictureMadeSmaller Key = "tools.picture_made_smaller"

// UnknownTool refuses a Home Assistant tool whose effects maison cannot
// read (name quoted): a script offered as a tool of its own, an intent it
// does not know.
func UnknownTool(lang voice.Lang, name string) string {
	return say(lang, "tools.unknown_tool", "name", name)
}

// ArgNotSent refuses an argument maison does not send to Home Assistant
// (arg quoted): one the action does not take, or a value it does not
// accept.
func ArgNotSent(lang voice.Lang, arg string, unknown bool) string {
	if unknown {
		return say(lang, "tools.arg_not_sent.unknown", "arg", arg)
	}
	return say(lang, "tools.arg_not_sent.value", "arg", arg)
}

// CannotTellReach refuses a call whose words reach devices maison cannot
// tell about (which ones, or whether they are shared with Assist): it is
// never sent on a guess.
func CannotTellReach(lang voice.Lang) string {
	return say(lang, "tools.cannot_tell_reach")
}

// Unfoldable refuses a call whose words hold characters maison cannot
// compare as Home Assistant does.
func Unfoldable(lang voice.Lang) string {
	return say(lang, "tools.unfoldable")
}

// Unexpected says that Home Assistant reports acting on devices (quoted
// names) the call was not meant to reach.
func Unexpected(lang voice.Lang, names []string) string {
	return say(lang, "tools.unexpected", "names", lang.List(names))
}
