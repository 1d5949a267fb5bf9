package words

import (
	"strings"

	"maison/voice"
)

// Camera is how a camera is named aloud, its name quoted as data: the
// “Garage” camera, la caméra « Garage ».
func Camera(lang voice.Lang, name string) string {
	q := Quote(lang, name)
	lower := strings.ToLower(Name(name))
	if strings.Contains(lower, "camera") || strings.Contains(lower, "cam ") || strings.HasSuffix(lower, "cam") {
		return lang.Pick("the "+q, "la caméra "+q)
	}
	return lang.Pick("the "+q+" camera", "la caméra "+q)
}

// NoCamera says there is no camera by the name (or, byID, the entity id)
// asked for, and names the cameras that exist, each as Camera names it. A
// camera that is not exposed gets exactly these words, as one that does
// not exist.
func NoCamera(lang voice.Lang, query string, byID bool, names []string) string {
	q := Quote(lang, query)
	if byID {
		q = lang.Pick("with that entity id", "avec cet identifiant")
	} else {
		q = lang.Pick("called "+q, "appelée "+q)
	}
	if len(names) == 0 {
		return lang.Pick(
			"There is no camera "+q+", and no camera is shared with me at all. An admin can expose cameras to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Il n'y a pas de caméra "+q+", et aucune caméra ne m'est partagée. Un administrateur peut exposer des caméras à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	return lang.Pick(
		"There is no camera "+q+". The cameras I can show are "+lang.List(names)+".",
		"Il n'y a pas de caméra "+q+". Les caméras que je peux montrer sont "+lang.List(names)+".")
}

// CameraWithheld says why an exposed camera is not shown, by the doubt
// that left it known by its words only, and how to fix it.
func CameraWithheld(lang voice.Lang, name string, why Doubt) string {
	cam := Camera(lang, name)
	switch why {
	case DoubtShared:
		return lang.Pick(
			"I cannot show "+cam+": more than one device in Home Assistant goes by that name, so I cannot tell which one is shared with me, and I show none of them. This stays so until one is renamed. It does not mean the camera is broken. Whoever runs the house can rename one of them in Home Assistant, or add the camera by its entity id to maison's own list of cameras.",
			"Je ne peux pas montrer "+cam+" : plusieurs appareils portent ce nom dans Home Assistant, je ne peux donc pas savoir lequel m'est partagé, et je n'en montre aucun. Ça reste ainsi tant que l'un d'eux n'est pas renommé. Ça ne veut pas dire que la caméra est en panne. La personne qui gère la maison peut renommer l'un d'eux dans Home Assistant, ou ajouter la caméra par son identifiant à la liste de caméras de maison.")
	case DoubtUnknownExposure:
		return lang.Pick(
			"I cannot show "+cam+": Home Assistant does not let me confirm that this camera is shared with me, because it has no entry in its entity registry. This will not change by waiting. It does not mean the camera is broken. Whoever runs maison can add the camera by its entity id to maison's own list of cameras, or set it up in Home Assistant so that it has a unique id.",
			"Je ne peux pas montrer "+cam+" : Home Assistant ne me permet pas de confirmer que cette caméra m'est partagée, parce qu'elle n'a pas d'entrée dans son registre des entités. Attendre n'y changera rien. Ça ne veut pas dire que la caméra est en panne. La personne qui gère maison peut l'ajouter par son identifiant à la liste de caméras de maison, ou la configurer dans Home Assistant pour qu'elle ait un identifiant unique.")
	}
	return lang.Pick(
		"I cannot show "+cam+" right now: I could not tell which camera Home Assistant means by that name. This is often brief, while a name or a state changes. It does not mean the camera is broken. Try again in a moment; if it lasts, whoever runs maison can run maison check, or add the camera by its entity id to maison's own list of cameras.",
		"Je ne peux pas montrer "+cam+" pour l'instant : je n'ai pas pu savoir quelle caméra Home Assistant désigne par ce nom. C'est souvent bref, le temps qu'un nom ou un état change. Ça ne veut pas dire que la caméra est en panne. Réessayez dans un instant; si ça dure, la personne qui gère maison peut lancer maison check, ou ajouter la caméra par son identifiant à la liste de caméras de maison.")
}
