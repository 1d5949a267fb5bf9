package words

import (
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// Trouble tells the person asking, in lang and in sentences for the ear,
// what went wrong with Home Assistant, how long it usually lasts, what it
// does not mean and what to do. The operator's version, with settings and
// paths, is [homeassistant.Error.Advice]; these words name none.
func Trouble(lang voice.Lang, k homeassistant.Kind) string {
	if w, ok := troubleWords[k]; ok {
		return w.In(lang)
	}
	return say(lang, "trouble.trouble")
}

// troubleWords are the words for each kind of Home Assistant trouble.
var troubleWords = map[homeassistant.Kind]Pair{
	homeassistant.KindUnreachable: {
		"I cannot reach Home Assistant right now. This usually lasts until it is back on the network, often a minute or two. It does not mean anything changed in the house. Try again shortly; if it lasts, whoever runs maison should check that Home Assistant is running.",
		"Je n'arrive pas à joindre Home Assistant en ce moment. Ça dure d'habitude jusqu'à son retour sur le réseau, souvent une minute ou deux. Ça ne veut pas dire que quelque chose a changé dans la maison. Réessayez bientôt; si ça dure, la personne qui gère maison devrait vérifier que Home Assistant fonctionne."},
	homeassistant.KindRestarting: {
		"Home Assistant is restarting and not answering yet. This usually takes under a minute. It does not mean devices are offline or that anything changed. Ask again in a moment; I reconnect by myself.",
		"Home Assistant redémarre et ne répond pas encore. Ça prend d'habitude moins d'une minute. Ça ne veut pas dire que les appareils sont hors ligne ni que quelque chose a changé. Redemandez dans un instant; je me reconnecte tout seul."},
	homeassistant.KindAuth: {
		"Home Assistant no longer accepts my access key. This will not fix itself, and I will not keep trying, because Home Assistant blocks addresses after failed logins. It does not mean anything is wrong in the house. Whoever runs maison must create a new access key for the maison user, or make sure maison reaches Home Assistant from the local network.",
		"Home Assistant n'accepte plus ma clé d'accès. Ça ne se réglera pas tout seul, et je n'insiste pas, parce que Home Assistant bloque les adresses après des connexions ratées. Ça ne veut pas dire qu'il y a un problème dans la maison. La personne qui gère maison doit créer une nouvelle clé d'accès pour l'utilisateur maison, ou s'assurer que maison joint Home Assistant depuis le réseau local."},
	homeassistant.KindAdminToken: {
		"maison was given an administrator's access key and refuses to use it. This is a setup choice and will not change by waiting. Whoever runs maison must give it the key of a user who is not an administrator.",
		"maison a reçu la clé d'accès d'un administrateur et refuse de s'en servir. C'est un choix de configuration, qui ne changera pas avec le temps. La personne qui gère maison doit lui donner la clé d'un utilisateur qui n'est pas administrateur."},
	homeassistant.KindNotAllowed: {
		"Home Assistant does not allow my user to do that. This is a permission, not a fault, and waiting will not change it. Use the Home Assistant app for this.",
		"Home Assistant ne permet pas ça à mon utilisateur. C'est une permission, pas une panne, et attendre n'y changera rien. Utilisez l'application Home Assistant pour ça."},
	homeassistant.KindForbidden: {
		"Home Assistant is refusing my requests, most likely because my address was blocked after failed logins. That lasts until an administrator lifts the block. It does not mean a device is broken. Ask the Home Assistant administrator to check the blocked addresses.",
		"Home Assistant refuse mes requêtes, sans doute parce que mon adresse a été bloquée après des connexions ratées. Ça dure jusqu'à ce qu'un administrateur lève le blocage. Ça ne veut pas dire qu'un appareil est en panne. Demandez à l'administrateur de Home Assistant de vérifier les adresses bloquées."},
	homeassistant.KindNotFound: {
		"Home Assistant does not know that name. Waiting will not change it, and it does not mean Home Assistant is down. Ask for the names that exist and try one of those.",
		"Home Assistant ne connaît pas ce nom. Attendre n'y changera rien, et ça ne veut pas dire que Home Assistant est en panne. Demandez les noms qui existent et essayez l'un d'eux."},
	// The camera's own sentence, for a camera that cannot be named.
	homeassistant.KindCameraOff: {cameraOff(voice.English, "that camera"), cameraOff(voice.French, "cette caméra")},
	homeassistant.KindCameraFailed: {
		"Home Assistant could not get a picture from that camera. This is often brief, a camera rebooting or a slow network, and usually passes within a minute. It does not mean the other cameras are down. Try again in a moment.",
		"Home Assistant n'a pas pu obtenir d'image de cette caméra. C'est souvent bref, une caméra qui redémarre ou un réseau lent, et ça passe d'habitude en moins d'une minute. Ça ne veut pas dire que les autres caméras sont en panne. Réessayez dans un instant."},
	homeassistant.KindTimeout: {
		"Home Assistant is slow to answer right now. This is usually brief, and it does not mean anything is wrong at home. Ask again in a moment.",
		"Home Assistant est lent à répondre en ce moment. C'est généralement bref, et ça ne veut pas dire qu'il y a un problème à la maison. Redemandez dans un instant."},
	homeassistant.KindCanceled: {
		"The request was abandoned before Home Assistant answered. Nothing is wrong; ask again if you still want the answer.",
		"La demande a été abandonnée avant la réponse de Home Assistant. Rien de grave; redemandez si vous voulez toujours la réponse."},
	homeassistant.KindNoAssist: {
		"Home Assistant does not share its devices with me: an integration is not set up there. This is a one-time setup step, and waiting will not change it. It does not mean my access key is wrong. An administrator must add the Model Context Protocol Server integration in Home Assistant and choose what to expose to Assist.",
		"Home Assistant ne partage pas ses appareils avec moi: une intégration n'y est pas configurée. C'est une étape de configuration à faire une fois, et attendre n'y changera rien. Ça ne veut pas dire que ma clé d'accès est mauvaise. Un administrateur doit ajouter l'intégration Model Context Protocol Server dans Home Assistant et choisir ce qui est exposé à Assist."},
	homeassistant.KindNoAITask: {
		"Home Assistant has no AI that can describe pictures, so I can only say what the sensors report. This is a setup choice and will not change by waiting. An administrator can add an AI task that accepts images in Home Assistant.",
		"Home Assistant n'a pas d'IA capable de décrire des images; je ne peux dire que ce que rapportent les capteurs. C'est un choix de configuration, qui ne changera pas avec le temps. Un administrateur peut ajouter dans Home Assistant une tâche d'IA qui accepte les images."},
	homeassistant.KindAITaskFailed: {
		"Home Assistant's AI could not describe the picture this time. This is usually brief, an AI service that is busy or refusing for a moment. It does not mean the camera is broken. Try again in a moment, or ask for the picture itself.",
		"L'IA de Home Assistant n'a pas pu décrire l'image cette fois. C'est généralement bref, un service d'IA occupé ou qui refuse un moment. Ça ne veut pas dire que la caméra est en panne. Réessayez dans un instant, ou demandez l'image elle-même."},
	homeassistant.KindLocalOnly: {
		"Home Assistant refuses my login from where I run: my user may only log in from the home's local network, and Home Assistant does not see me as local. This will not fix itself, and I will not keep trying, because Home Assistant blocks addresses after failed logins. It does not mean anything is wrong in the house. Whoever runs maison must run it on the home network, or set up Home Assistant to trust the proxy in between.",
		"Home Assistant refuse ma connexion depuis l'endroit où je tourne : mon utilisateur ne peut se connecter que depuis le réseau local de la maison, et Home Assistant ne me voit pas comme local. Ça ne se réglera pas tout seul, et je n'insiste pas, parce que Home Assistant bloque les adresses après des connexions ratées. Ça ne veut pas dire qu'il y a un problème dans la maison. La personne qui gère maison doit la faire tourner sur le réseau de la maison, ou régler Home Assistant pour qu'il fasse confiance au relais entre les deux."},
	homeassistant.KindAssistLoading: {
		"Home Assistant is still loading its Assist tools, as it does for a minute or two after a restart. This usually passes within a few minutes. It does not mean the devices are gone or that anything changed. Ask again in a minute.",
		"Home Assistant charge encore ses outils Assist, comme il le fait pendant une minute ou deux après un redémarrage. Ça passe d'habitude en quelques minutes. Ça ne veut pas dire que les appareils ont disparu ni que quelque chose a changé. Redemandez dans une minute."},
	homeassistant.KindServerError: {
		"Home Assistant failed while handling that and gave up, as it does when a request runs past its one-minute limit. This is usually passing. If it was an action, it may or may not have happened: ask for the state of the device before trying again.",
		"Home Assistant a échoué en traitant ça et a abandonné, comme il le fait quand une demande dépasse sa limite d'une minute. C'est généralement passager. Si c'était une action, elle a peut-être eu lieu, ou pas : demandez l'état de l'appareil avant de réessayer."},
	homeassistant.KindBadRequest: {
		"Home Assistant did not accept the way I asked. Waiting will not change it; it does not mean anything changed in the house. Whoever runs maison should update it.",
		"Home Assistant n'a pas accepté ma façon de demander. Attendre n'y changera rien; ça ne veut pas dire que quelque chose a changé dans la maison. La personne qui gère maison devrait la mettre à jour."},
	homeassistant.KindNoHistory: {
		"Home Assistant's history is not available right now: its recorder is off or still starting. Right after a restart this passes within a minute or two. It does not mean nothing happened in the house. I can still tell you how the house is now; ask again in a moment for what happened.",
		"L'historique de Home Assistant n'est pas disponible en ce moment : son enregistreur est arrêté ou démarre encore. Juste après un redémarrage, ça passe en une minute ou deux. Ça ne veut pas dire que rien ne s'est passé dans la maison. Je peux quand même vous dire comment est la maison maintenant; redemandez dans un instant ce qui s'est passé."},
	homeassistant.KindProtocol: {
		"Home Assistant answered in a way I did not expect. This may pass after an update. It does not mean anything changed in the house. Try again; if it keeps happening, whoever runs maison should look at its log.",
		"Home Assistant a répondu d'une façon inattendue. Ça peut passer après une mise à jour. Ça ne veut pas dire que quelque chose a changé dans la maison. Réessayez; si ça continue, la personne qui gère maison devrait consulter son journal."},
}

// SlowAnswer says that Home Assistant answered too slowly for a tool's
// deadline: it is slow, not unreachable.
func SlowAnswer(lang voice.Lang) string {
	return say(lang, "trouble.slow_answer")
}

// Unreached says that Home Assistant could not be reached, for no reason
// known.
func Unreached(lang voice.Lang) string {
	return say(lang, "trouble.unreached")
}

// LongOutage says that Home Assistant has not answered for d, longer than
// a restart takes.
func LongOutage(lang voice.Lang, d time.Duration) string {
	n, en, fr, than, plus := int(d.Minutes()), "minutes", "minutes", "longer", "plus longtemps"
	if d >= 2*time.Hour {
		n, en, fr, than, plus = int(d.Hours()), "hours", "heures", "far longer", "bien plus"
	}
	return lang.Pick(
		"Home Assistant has not answered me for "+lang.Number(n)+" "+en+", "+than+" than a restart takes. It may be stopped, stuck starting, or off the network. It does not mean anything changed in the house. I keep trying by myself; whoever runs Home Assistant should look at it.",
		"Home Assistant ne me répond plus depuis "+lang.Number(n)+" "+fr+", "+plus+" qu'un redémarrage. Il est peut-être arrêté, bloqué au démarrage, ou hors du réseau. Ça ne veut pas dire que quelque chose a changé dans la maison. Je continue d'essayer tout seul; la personne qui gère Home Assistant devrait y jeter un œil.")
}

// ActionTooSlow says that an action was sent and not answered in time: it
// may still have happened.
func ActionTooSlow(lang voice.Lang) string {
	return say(lang, "trouble.action_too_slow")
}

// NothingDone begins what is said of a trouble met before an action was
// sent.
func NothingDone(lang voice.Lang) string {
	return say(lang, "trouble.nothing_done")
}

// UnusableConfirmation says that the client's answer to a confirmation
// question could not be used, and that nothing was done.
func UnusableConfirmation(lang voice.Lang) string {
	return say(lang, "trouble.unusable_confirmation")
}
