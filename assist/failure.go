// Why an Assist call failed, in words: no match for a name or an area, a
// name shared by several devices, details refused, an action gone.

package assist

import (
	"regexp"
	"strings"

	"maison/voice"
)

// What a failed Assist call's text says: the match failure's reason, the
// name and area it was asked for, a tool that no longer exists.
//
// Up to 2026.10 Home Assistant wrote the failure's repr
// ("<MatchFailedError result=MatchTargetsResult(…, no_match_reason=
// <MatchFailedReason.NAME: 1>, …), constraints=MatchTargetsConstraints(
// name='x', area_name='y', …)>"); from 2026.11 a sentence per reason with
// the constraints given ("No entities matched the name (given name 'x',
// area 'y')", helpers/intent.py _match_failure_message). Both are read.
var (
	reasonRE  = regexp.MustCompile(`MatchFailedReason\.([A-Z_]+)`)
	nameRE    = regexp.MustCompile(`constraints=MatchTargetsConstraints\(name='((?:[^'\\]|\\.)*)'`)
	areaRE    = regexp.MustCompile(`area_name='((?:[^'\\]|\\.)*)'`)
	givenName = regexp.MustCompile(`\(given name ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`)
	givenArea = regexp.MustCompile(`\(given (?:name (?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"), )?area ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`)
	unknown   = regexp.MustCompile(`Tool "([^"]*)" not found`)
)

// sentences are Home Assistant's words for each match failure from 2026.11
// (helpers/intent.py _MATCH_FAILURE_REASONS), longest first where one
// begins another.
var sentences = []struct{ text, reason string }{
	{"No matching entities are exposed to the assistant", "ASSISTANT"},
	{"No entities matched the device class", "DEVICE_CLASS"},
	{"No entities supported the required features", "FEATURE"},
	{"No entities were in the required state", "STATE"},
	{"No entities matched the domain", "DOMAIN"},
	{"No entities matched the name", "NAME"},
	{"No entities were in the area", "AREA"},
	{"No entities were on the floor", "FLOOR"},
	{"The area does not exist", "INVALID_AREA"},
	{"The floor does not exist", "INVALID_FLOOR"},
	{"Multiple entities share the name", "DUPLICATE_NAME"},
	{"Multiple entities matched, but a single target is required", "MULTIPLE_TARGETS"},
	// A failure without a reason; every sentence above begins like it.
	{"No entities matched", "NAME"},
}

// pyString reads a Python repr of a string, quotes included.
func pyString(s string) string {
	if len(s) < 2 {
		return s
	}
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
		}
		b.WriteByte(body[i])
	}
	return b.String()
}

// AreaKnown says what the area registry says of an area asked for.
type AreaKnown int

const (
	AreaUnknown AreaKnown = iota // the registry was not asked, or could not be read
	AreaExists                   // the area exists
	AreaMissing                  // no area by that name, alias or id
)

// NoMatch says that nothing shared with Assist fits a call, the same words
// whatever Home Assistant's reason was: with a name, that nothing shared by
// that name can do it; with an area alone, what the area registry says of
// the area, which tells nothing of devices.
func NoMatch(lang voice.Lang, name, area string, known AreaKnown) string {
	nothing := lang.Pick(" Nothing was changed.", " Rien n'a changé.")
	if strings.TrimSpace(name) != "" || strings.TrimSpace(area) == "" {
		return lang.Pick(
			"Home Assistant has nothing shared with Assist called "+q(lang, name)+" that can do that."+nothing+" This does not mean a device is broken: it may have another name, be another kind of device or in another room, or not be shared. Ask for the state of the house to hear the names that exist; an admin can share a device in Home Assistant under Settings, Voice assistants, Expose.",
			"Home Assistant n'a rien qui s'appelle "+q(lang, name)+", qui soit partagé avec Assist et qui puisse faire ça."+nothing+" Ça ne veut pas dire qu'un appareil est en panne : il a peut-être un autre nom, un autre type ou une autre pièce, ou il n'est pas partagé. Demandez l'état de la maison pour entendre les noms qui existent; un administrateur peut partager un appareil dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	a := q(lang, area)
	switch known {
	case AreaMissing:
		return lang.Pick(
			"Home Assistant has no area called "+a+"."+nothing+" This will not change by waiting; it does not mean anything is broken. Ask for the state of the house to hear the areas that exist, and try again with one of them.",
			"Home Assistant n'a pas de pièce appelée "+a+"."+nothing+" Attendre n'y changera rien; ça ne veut pas dire que quelque chose est en panne. Demandez l'état de la maison pour entendre les pièces qui existent, puis réessayez.")
	case AreaExists:
		return lang.Pick(
			"Home Assistant has an area called "+a+", but nothing there that is shared with Assist and fits that request."+nothing+" This stays so until a device there is shared; it does not mean a device is broken. Ask for the state of that area to hear what is there, or name the device.",
			"Home Assistant a bien une pièce appelée "+a+", mais rien de ce qui s'y trouve et qui est partagé avec Assist ne correspond à la demande."+nothing+" Ça reste ainsi tant qu'aucun appareil de cette pièce n'est partagé; ça ne veut pas dire qu'un appareil est en panne. Demandez l'état de cette pièce pour entendre ce qui s'y trouve, ou nommez l'appareil.")
	}
	return lang.Pick(
		"Nothing shared with Assist in "+a+" fits that request."+nothing+" It does not mean a device is broken. Ask for the state of the house to hear the areas and devices that exist.",
		"Rien de ce qui est partagé avec Assist dans "+a+" ne correspond à la demande."+nothing+" Ça ne veut pas dire qu'un appareil est en panne. Demandez l'état de la maison pour entendre les pièces et les appareils qui existent.")
}

// MatchReason returns the MatchFailedReason a failed Assist call gives, such
// as NAME or AREA, or "".
func MatchReason(text string) string {
	if m := reasonRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	msg := strings.TrimPrefix(text, "Error calling tool: ")
	for _, s := range sentences {
		if strings.HasPrefix(msg, s.text) {
			return s.reason
		}
	}
	return ""
}

// failure says why an Assist call failed and what to do instead.
func failure(lang voice.Lang, args map[string]any, text string) string {
	name, _ := args["name"].(string)
	area, _ := args["area"].(string)
	if m := nameRE.FindStringSubmatch(text); m != nil && name == "" {
		name = m[1]
	}
	if m := areaRE.FindStringSubmatch(text); m != nil && area == "" {
		area = m[1]
	}
	if m := givenName.FindStringSubmatch(text); m != nil && name == "" {
		name = pyString(m[1])
	}
	if m := givenArea.FindStringSubmatch(text); m != nil && area == "" {
		area = pyString(m[1])
	}
	what := name
	if strings.TrimSpace(what) == "" {
		what = area
	}
	reason := MatchReason(text)
	nothing := lang.Pick(" Nothing was changed.", " Rien n'a changé.")
	switch reason {
	case "NAME", "ASSISTANT", "DOMAIN", "DEVICE_CLASS", "FEATURE", "AREA", "INVALID_AREA", "FLOOR", "INVALID_FLOOR", "STATE":
		// Home Assistant weighs names, kinds, features, floors and areas
		// before what is shared, so these reasons could tell a device that
		// is not shared from one that does not exist: one answer for all.
		return NoMatch(lang, name, area, AreaUnknown)
	case "DUPLICATE_NAME":
		return lang.Pick(
			"More than one device is called "+q(lang, what)+"."+nothing+" Say the area too, for example the kitchen.",
			"Plusieurs appareils s'appellent "+q(lang, what)+"."+nothing+" Précisez la pièce.")
	case "MULTIPLE_TARGETS":
		return lang.Pick(
			"That matched several devices, and Home Assistant acts on one at a time here."+nothing+" Name one device.",
			"Ça correspond à plusieurs appareils."+nothing+" Nommez un seul appareil.")
	}
	if m := unknown.FindStringSubmatch(text); m != nil {
		return lang.Pick(
			"Home Assistant no longer offers that action; it may have been renamed by an upgrade."+nothing+" Try again in a minute: the list of actions is being refreshed.",
			"Home Assistant n'offre plus cette action; une mise à jour l'a peut-être renommée."+nothing+" Réessayez dans une minute.")
	}
	if strings.HasPrefix(text, "Input validation error") {
		return lang.Pick(
			"Home Assistant did not accept those details, saying "+quoteData(lang, strings.TrimPrefix(text, "Input validation error: "))+"."+nothing+" Give a name or an area, and a value in range.",
			"Home Assistant n'a pas accepté ces détails, en disant "+quoteData(lang, strings.TrimPrefix(text, "Input validation error: "))+"."+nothing)
	}
	return lang.Pick(
		"Home Assistant could not do that."+nothing+" It did not say why in a way I understand; check the device in the Home Assistant app.",
		"Home Assistant n'a pas pu le faire."+nothing+" Vérifiez l'appareil dans l'application Home Assistant.")
}

// q puts a name in quotes as data, or says "that" when there is none.
func q(lang voice.Lang, s string) string {
	if t := Quote(lang, s); t != "" {
		return t
	}
	return lang.Pick("that", "ça")
}
