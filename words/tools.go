// The tools' own refusals: a call that names nothing, a filter that
// matches nothing, an action run through the wrong tool, an unknown tool;
// and the ready-made request check_the_house.

package words

import "maison/voice"

// NeedTarget says that an action names no device and no room.
func NeedTarget(lang voice.Lang) string {
	return lang.Pick(
		"Say which device or room: give a name, such as kitchen light, or an area, such as kitchen. Nothing was changed.",
		"Dites quel appareil ou quelle pièce : un nom, comme lumière de la cuisine, ou une pièce, comme cuisine. Rien n'a changé.")
}

// NotRunByItsWords refuses to run the action name (quoted) through its
// own tool, because its name or description reads like a door, a gate or
// a lock: turn on asks the person first.
func NotRunByItsWords(lang voice.Lang, name string) string {
	return lang.Pick(
		"I will not run "+name+" through this action, because its name or description says it may open a door, a gate or a lock. Nothing was changed. Use turn on with the name "+name+" instead: it asks the person first.",
		"Je ne lancerai pas "+name+" par cette action, parce que son nom ou sa description dit qu'elle peut ouvrir une porte, un portail ou une serrure. Rien n'a changé. Utilisez plutôt allumer avec le nom "+name+" : il demande d'abord à la personne.")
}

// DetailsUnreadable says that an action's details are not named values.
func DetailsUnreadable(lang voice.Lang) string {
	return lang.Pick("Those details are not readable as named values. Nothing was changed.", "Ces détails ne sont pas lisibles. Rien n'a changé.")
}

// NotThroughThisAction refuses an action whose target could be reached in
// a way that needs the person's yes (what, each as Unlock, Open... say it).
func NotThroughThisAction(lang voice.Lang, what []string) string {
	return lang.Pick(
		"I will not do that through this action, because it could "+lang.List(what)+". Nothing was changed. Use turn on or turn off instead: they ask the person first.",
		"Je ne le ferai pas par cette action, parce qu'elle pourrait "+lang.List(what)+". Rien n'a changé. Utilisez plutôt allumer ou éteindre : ils demandent d'abord à la personne.")
}

// HoursAndSince says that a call gave both a number of hours and a start.
func HoursAndSince(lang voice.Lang) string {
	return lang.Pick(
		"Give either how many hours or since when, not both, so nothing was read. Call it again with one of them.",
		"Donnez soit un nombre d'heures, soit depuis quand, pas les deux, alors rien n'a été lu. Rappelez-le avec l'un des deux.")
}

// BadSince says that the argument since is not a time maison reads.
func BadSince(lang voice.Lang) string {
	return lang.Pick(
		"The argument “since” must be a time such as 08:00, 8 am or yesterday 18:00, so nothing was read. Call it again with such a time, or with a number of hours.",
		"L'argument « since » doit être une heure comme 08:00, 8 h ou hier 18 h, alors rien n'a été lu. Rappelez-le avec une telle heure, ou avec un nombre d'heures.")
}

// NoHistoryMatch says that nothing shared with a history fits a name or room.
func NoHistoryMatch(lang voice.Lang) string {
	return lang.Pick(
		"Nothing shared with me that has a history to tell matches that. Ask without a name or a room to hear the whole house.",
		"Rien de ce qui m'est partagé et qui a un historique ne correspond. Demandez sans nom ni pièce pour entendre toute la maison.")
}

// NothingMatches says that nothing shared fits the filter of a description
// of the house.
func NothingMatches(lang voice.Lang) string {
	return lang.Pick(
		"Nothing shared with me matches that. Ask without a filter to hear every device and room by name.",
		"Rien de ce qui m'est partagé ne correspond. Demandez sans filtre pour entendre tous les appareils et les pièces.")
}

// NothingToSet says that a light call gives nothing to set.
func NothingToSet(lang voice.Lang) string {
	return lang.Pick("Say what to set: a brightness, a colour or a colour temperature. Nothing was changed.", "Dites quoi régler : la luminosité, la couleur ou la température de couleur. Rien n'a changé.")
}

// CheckTheHouse is the request a person picks to have the house looked over.
func CheckTheHouse(lang voice.Lang) string {
	return lang.Pick(
		"Check on my home. First call describe_house and tell me what matters: anything open, unlocked or left on. Then, if a motion or presence sensor saw something in the last hour, look at the camera in that room (camera_snapshot, or describe_camera if we are talking by voice) and tell me what you see. Keep it short and spoken, no lists.",
		"Vérifie ma maison. Appelle d'abord describe_house et dis-moi ce qui compte : ce qui est ouvert, déverrouillé ou resté allumé. Ensuite, si un capteur de mouvement ou de présence a détecté quelque chose dans la dernière heure, regarde la caméra de cette pièce (camera_snapshot, ou describe_camera si on se parle à voix haute) et dis-moi ce que tu vois. Reste bref, à l'oral, sans listes.")
}

// UnknownOffer refuses a call of a tool, prompt or resource (what: "tool",
// "prompt", "resource") not offered to this connection, by the name as far
// as a person sees it (shown).
func UnknownOffer(lang voice.Lang, what, shown string) string {
	en, fr, list := "Unknown tool “"+shown+"”: maison offers no tool", "Outil inconnu « "+shown+" » : maison n'offre aucun outil", "tools/list"
	switch what {
	case "prompt":
		en, fr, list = "Unknown prompt “"+shown+"”: maison offers no prompt", "Invite inconnue « "+shown+" » : maison n'offre aucune invite (prompt)", "prompts/list"
	case "resource":
		en, fr, list = "Unknown resource “"+shown+"”: maison offers no resource", "Ressource inconnue « "+shown+" » : maison n'offre aucune ressource", "resources/list"
	}
	return lang.Pick(
		en+" by that name to this connection, so nothing was done. Call "+list+" for the names it offers and send one exactly as listed.",
		fr+" de ce nom à cette connexion, alors rien n'a été fait. Appelez "+list+" pour les noms offerts et envoyez-en un tel quel.")
}

// PictureLeftOut says a picture was left out of an answer it could not be
// made to fit.
var PictureLeftOut = Pair{
	"The picture could not be made small enough for this app, so it was left out; the description still holds.",
	"L'image n'a pas pu être assez réduite pour cette application; elle a été omise, la description reste valable.",
}

// PictureMadeSmaller says a picture was made much smaller than usual to fit.
var PictureMadeSmaller = Pair{
	"The picture had to be made much smaller than usual to fit what this app accepts, so fine detail may be lost.",
	"L'image a dû être beaucoup réduite pour tenir dans ce que l'application accepte; des détails fins peuvent manquer.",
}

// UnknownTool refuses a Home Assistant tool whose effects maison cannot
// read (name quoted): a script offered as a tool of its own, an intent it
// does not know.
func UnknownTool(lang voice.Lang, name string) string {
	return lang.Pick(
		"I will not run "+name+" from here: I cannot tell what it would change in the house. Nothing was changed. To run a script, ask me to turn it on by its name, and the person is asked first. The owner can list it as safe in maison's settings (MAISON_SAFE).",
		"Je ne lancerai pas "+name+" d'ici : je ne peux pas savoir ce qu'il changerait dans la maison. Rien n'a changé. Pour lancer un script, demandez-moi de l'allumer par son nom, et la personne est consultée d'abord. Le propriétaire peut l'indiquer comme sûr dans les réglages de maison (MAISON_SAFE).")
}

// ArgNotSent refuses an argument maison does not send to Home Assistant
// (arg quoted): one the action does not take, or a value it does not
// accept.
func ArgNotSent(lang voice.Lang, arg string, unknown bool) string {
	if unknown {
		return lang.Pick(
			"I cannot send "+arg+" with this action: it is not one of its details. Nothing was changed. Call it again without it.",
			"Je ne peux pas envoyer "+arg+" avec cette action : ce n'en est pas un détail. Rien n'a changé. Rappelez-la sans cela.")
	}
	return lang.Pick(
		"I cannot send that value of "+arg+": this action does not take it. Nothing was changed. Call it again with a value the tool describes, or without it.",
		"Je ne peux pas envoyer cette valeur de "+arg+" : cette action ne la prend pas. Rien n'a changé. Rappelez-la avec une valeur que l'outil décrit, ou sans elle.")
}

// CannotTellReach refuses a call whose words reach devices maison cannot
// tell about (which ones, or whether they are shared with Assist): it is
// never sent on a guess.
func CannotTellReach(lang voice.Lang) string {
	return lang.Pick(
		"I cannot tell for sure which devices those words reach in this house, so I did nothing. This lasts until Home Assistant's lists of devices and rooms can be read again, or for good if a name is shared in a way I cannot tell apart. It does not mean anything is broken. Name the device as the house names it, or the room, and try again.",
		"Je ne peux pas savoir avec certitude quels appareils ces mots désignent dans cette maison, alors je n'ai rien fait. Cela dure jusqu'à ce que les listes d'appareils et de pièces de Home Assistant puissent être relues, ou pour de bon si un nom est partagé d'une façon que je ne peux pas démêler. Cela ne veut pas dire que quelque chose est brisé. Nommez l'appareil comme la maison le nomme, ou la pièce, et réessayez.")
}

// Unfoldable refuses a call whose words hold characters maison cannot
// compare as Home Assistant does.
func Unfoldable(lang voice.Lang) string {
	return lang.Pick(
		"Those words hold characters I cannot compare the way Home Assistant does, so I did nothing. Spell the name as the house shows it, and try again.",
		"Ces mots contiennent des caractères que je ne peux pas comparer comme Home Assistant le fait, alors je n'ai rien fait. Écrivez le nom comme la maison l'affiche, et réessayez.")
}

// Unexpected says that Home Assistant reports acting on devices (quoted
// names) the call was not meant to reach.
func Unexpected(lang voice.Lang, names []string) string {
	return lang.Pick(
		"Home Assistant also reports acting on "+lang.List(names)+", which I did not ask for. Please check them in the Home Assistant app; I have noted it in my log.",
		"Home Assistant dit aussi avoir agi sur "+lang.List(names)+", ce que je n'ai pas demandé. Vérifiez-les dans l'application Home Assistant; je l'ai noté dans mon journal.")
}
