// Why an Assist call failed, in words: no match for a name or an area, a
// name shared by several devices, details refused, an action gone.

package words

import (
	"strings"

	"maison/voice"
)

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
	none := nothing(lang)
	if strings.TrimSpace(name) != "" || strings.TrimSpace(area) == "" {
		return lang.Pick(
			"Home Assistant has nothing shared with Assist called "+q(lang, name)+" that can do that."+none+" This does not mean a device is broken: it may have another name, be another kind of device or in another room, or not be shared. Ask for the state of the house to hear the names that exist; an admin can share a device in Home Assistant under Settings, Voice assistants, Expose.",
			"Home Assistant n'a rien qui s'appelle "+q(lang, name)+", qui soit partagé avec Assist et qui puisse faire ça."+none+" Ça ne veut pas dire qu'un appareil est en panne : il a peut-être un autre nom, un autre type ou une autre pièce, ou il n'est pas partagé. Demandez l'état de la maison pour entendre les noms qui existent; un administrateur peut partager un appareil dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	a := q(lang, area)
	switch known {
	case AreaMissing:
		return lang.Pick(
			"Home Assistant has no area called "+a+"."+none+" This will not change by waiting; it does not mean anything is broken. Ask for the state of the house to hear the areas that exist, and try again with one of them.",
			"Home Assistant n'a pas de pièce appelée "+a+"."+none+" Attendre n'y changera rien; ça ne veut pas dire que quelque chose est en panne. Demandez l'état de la maison pour entendre les pièces qui existent, puis réessayez.")
	case AreaExists:
		return lang.Pick(
			"Home Assistant has an area called "+a+", but nothing there that is shared with Assist and fits that request."+none+" This stays so until a device there is shared; it does not mean a device is broken. Ask for the state of that area to hear what is there, or name the device.",
			"Home Assistant a bien une pièce appelée "+a+", mais rien de ce qui s'y trouve et qui est partagé avec Assist ne correspond à la demande."+none+" Ça reste ainsi tant qu'aucun appareil de cette pièce n'est partagé; ça ne veut pas dire qu'un appareil est en panne. Demandez l'état de cette pièce pour entendre ce qui s'y trouve, ou nommez l'appareil.")
	}
	return lang.Pick(
		"Nothing shared with Assist in "+a+" fits that request."+none+" It does not mean a device is broken. Ask for the state of the house to hear the areas and devices that exist.",
		"Rien de ce qui est partagé avec Assist dans "+a+" ne correspond à la demande."+none+" Ça ne veut pas dire qu'un appareil est en panne. Demandez l'état de la maison pour entendre les pièces et les appareils qui existent.")
}

// nothing is said after each failure: the call changed nothing.
func nothing(lang voice.Lang) string { return lang.Pick(" Nothing was changed.", " Rien n'a changé.") }

// SharedName says that more than one device goes by the name asked for.
func SharedName(lang voice.Lang, name string) string {
	return lang.Pick(
		"More than one device is called "+q(lang, name)+"."+nothing(lang)+" Say the area too, for example the kitchen.",
		"Plusieurs appareils s'appellent "+q(lang, name)+"."+nothing(lang)+" Précisez la pièce.")
}

// SeveralTargets says that a call matched several devices where Home
// Assistant acts on one.
func SeveralTargets(lang voice.Lang) string {
	return lang.Pick(
		"That matched several devices, and Home Assistant acts on one at a time here."+nothing(lang)+" Name one device.",
		"Ça correspond à plusieurs appareils."+nothing(lang)+" Nommez un seul appareil.")
}

// ActionGone says that Home Assistant no longer offers the action called.
func ActionGone(lang voice.Lang) string {
	return lang.Pick(
		"Home Assistant no longer offers that action; it may have been renamed by an upgrade."+nothing(lang)+" Try again in a minute: the list of actions is being refreshed.",
		"Home Assistant n'offre plus cette action; une mise à jour l'a peut-être renommée."+nothing(lang)+" Réessayez dans une minute.")
}

// DetailsRefused says that Home Assistant did not accept a call's details,
// with its words as data.
func DetailsRefused(lang voice.Lang, said string) string {
	return lang.Pick(
		"Home Assistant did not accept those details, saying "+quoteData(lang, said)+"."+nothing(lang)+" Give a name or an area, and a value in range.",
		"Home Assistant n'a pas accepté ces détails, en disant "+quoteData(lang, said)+"."+nothing(lang))
}

// Failed says that a call failed for a reason Home Assistant did not make clear.
func Failed(lang voice.Lang) string {
	return lang.Pick(
		"Home Assistant could not do that."+nothing(lang)+" It did not say why in a way I understand; check the device in the Home Assistant app.",
		"Home Assistant n'a pas pu le faire."+nothing(lang)+" Vérifiez l'appareil dans l'application Home Assistant.")
}

// q puts a name in quotes as data, or says "that" when there is none.
func q(lang voice.Lang, s string) string {
	if t := Quote(lang, s); t != "" {
		return t
	}
	return lang.Pick("that", "ça")
}
