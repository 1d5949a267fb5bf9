package words

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"maison/homeassistant"
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

// CameraTrouble is why a camera's picture cannot be shown, as the camera
// service read it from the error.
type CameraTrouble int

// The troubles of a camera's picture.
const (
	CameraUnknown       CameraTrouble = iota // nothing more is known
	CameraOff                                // turned off in Home Assistant
	CameraNotReady                           // maison's own deadline passed before the picture was ready
	CameraEmpty                              // Home Assistant answered with an empty picture
	CameraTooLarge                           // the picture is larger than maison accepts
	CameraLost                               // Home Assistant has lost touch with the camera (unavailable)
	CameraSlow                               // Home Assistant could not get a picture in time
	CameraGone                               // Home Assistant no longer knows the camera
	CameraRefetchFailed                      // damaged, too little to show, and asking again failed
	CameraTooDamaged                         // damaged twice in a row, too little to show
	CameraNotPicture                         // the camera sent something that is not a picture
)

// cameraOff says that cam, as named aloud, is turned off: the one sentence
// for it, whether the camera can be named or not.
func cameraOff(lang voice.Lang, name string) string {
	return lang.Pick(
		voice.Sentence(name+" is turned off in Home Assistant, so there is no picture")+" It stays off until someone turns it back on; this does not mean the camera is broken. Someone at home can turn it on from the Home Assistant app, or ask about another camera.",
		voice.Sentence(name+" est éteinte dans Home Assistant, il n'y a donc pas d'image")+" Elle le reste jusqu'à ce qu'on la rallume; ça ne veut pas dire qu'elle est en panne. On peut la rallumer dans l'application Home Assistant, ou demander une autre caméra.")
}

// CameraError tells a person why the camera named aloud as name cannot be
// shown, how long that usually lasts, what it does not mean and what to do
// instead.
func CameraError(lang voice.Lang, name string, t CameraTrouble) string {
	switch t {
	case CameraOff:
		return cameraOff(lang, name)
	case CameraNotReady:
		return lang.Pick(
			voice.Sentence("I could not get a picture from "+name+" ready in time")+" This is usually brief; it does not mean anything is wrong at home or with the camera. Try again in a moment.",
			voice.Sentence("Je n'ai pas pu préparer une image de "+name+" à temps")+" C'est généralement bref; ça ne veut pas dire qu'il y a un problème à la maison ni avec la caméra. Réessayez dans un instant.")
	case CameraEmpty:
		return lang.Pick(
			voice.Sentence(name+" sent an empty picture: Home Assistant answered for it, but with nothing in it")+" Cameras do this now and then while they start up or lose their stream, and it usually passes within a minute; it does not mean anything is wrong at home or with Home Assistant. Try again in a minute; if it keeps happening, the camera may need a restart.",
			voice.Sentence(name+" a envoyé une image vide : Home Assistant a répondu pour elle, mais sans rien dedans")+" Les caméras le font parfois en démarrant ou en perdant leur flux, et ça passe d'habitude en une minute; ça ne veut pas dire qu'il y a un problème à la maison ni avec Home Assistant. Réessayez dans une minute; si ça se répète, la caméra a peut-être besoin d'un redémarrage.")
	case CameraTooLarge:
		mib := strconv.Itoa(homeassistant.MaxImageBytes >> 20)
		return lang.Pick(
			voice.Sentence(name+" sent a picture of more than I accept, "+mib+" MiB, so I did not pass it on")+" It will keep happening until the camera sends smaller pictures; it does not mean the camera is broken or that anything is wrong at home. Someone can lower its resolution or picture quality in the camera's settings, or ask about another camera.",
			voice.Sentence(name+" a envoyé une image de plus que ce que j'accepte, "+mib+" Mio, je ne l'ai donc pas transmise")+" Ça se répétera tant que la caméra enverra des images aussi grosses; ça ne veut pas dire qu'elle est en panne ni qu'il y a un problème à la maison. On peut baisser sa résolution ou la qualité de son image dans les réglages de la caméra, ou demander une autre caméra.")
	case CameraLost:
		return lang.Pick(
			voice.Sentence("Home Assistant says "+name+" is unavailable: it has lost touch with the camera, so there is no picture")+" This lasts until the camera is back on the network, often after a power cut or a restart; it does not mean Home Assistant or the other cameras are down. Someone can check the camera's power and network, or ask about another camera.",
			voice.Sentence("Home Assistant dit que "+name+" est indisponible : il a perdu le contact avec la caméra, il n'y a donc pas d'image")+" Ça dure jusqu'à ce que la caméra revienne sur le réseau, souvent après une panne de courant ou un redémarrage; ça ne veut pas dire que Home Assistant ou les autres caméras sont en panne. On peut vérifier l'alimentation et le réseau de la caméra, ou demander une autre caméra.")
	case CameraSlow:
		return lang.Pick(
			voice.Sentence("Home Assistant could not get a picture from "+name+" in time")+" This is usually brief, a few seconds while the camera or the network catches up; it does not mean anything is wrong at home. Try again in a moment.",
			voice.Sentence("Home Assistant n'a pas pu obtenir d'image de "+name+" à temps")+" C'est généralement bref, quelques secondes; ça ne veut pas dire qu'il y a un problème à la maison. Réessayez dans un instant.")
	case CameraGone:
		return lang.Pick(
			voice.Sentence("Home Assistant no longer knows "+name)+" It may have been renamed or removed. Ask for the list of cameras to hear the ones that exist.",
			voice.Sentence("Home Assistant ne connaît plus "+name)+" Elle a peut-être été renommée ou retirée. Demandez la liste des caméras.")
	case CameraRefetchFailed:
		return lang.Pick(
			voice.Sentence(name+" sent its picture damaged, too little of it came through to show, and asking it again for one failed")+" The damage came from the camera, not from the connection or from me; it usually clears within a minute. Try again shortly; if it keeps happening, the camera may need a restart or a steadier network.",
			voice.Sentence(name+" a envoyé son image abîmée, trop peu en est arrivé pour la montrer, et lui en redemander une n'a pas abouti")+" Le défaut vient de la caméra, ni la connexion ni moi n'y sommes pour rien; ça passe d'habitude en une minute. Réessayez bientôt; si ça se répète, la caméra a peut-être besoin d'un redémarrage ou d'un réseau plus stable.")
	case CameraTooDamaged:
		return lang.Pick(
			voice.Sentence(name+" sent its picture damaged twice in a row, and too little of it came through to show")+" The damage came from the camera, not from the connection or from me; it usually clears within a minute. Try again shortly; if it keeps happening, the camera may need a restart or a steadier network.",
			voice.Sentence(name+" a envoyé son image abîmée deux fois de suite, et trop peu en est arrivé pour la montrer")+" Le défaut vient de la caméra, ni la connexion ni moi n'y sommes pour rien; ça passe d'habitude en une minute. Réessayez bientôt; si ça se répète, la caméra a peut-être besoin d'un redémarrage ou d'un réseau plus stable.")
	case CameraNotPicture:
		return lang.Pick(
			voice.Sentence(name+" sent something that is not a usable picture, so I did not pass it on")+" Cameras do this now and then while they restart; it usually clears within a minute. Try again shortly; if it keeps happening, the camera may need a restart.",
			voice.Sentence(name+" a envoyé quelque chose qui n'est pas une image utilisable, je ne l'ai donc pas transmise")+" Les caméras le font parfois en redémarrant; ça passe d'habitude en une minute. Réessayez bientôt.")
	}
	return lang.Pick(
		voice.Sentence("I could not get a picture from "+name)+" Try again in a moment.",
		voice.Sentence("Je n'ai pas pu obtenir d'image de "+name)+" Réessayez dans un instant.")
}

// AIInstructions asks Home Assistant's AI, in the answer language, for one
// sentence of what matters to someone at home, in that language.
var AIInstructions = Pair{
	EN: "In one short plain sentence in English, for someone who cannot see the picture, say what this home camera shows that matters: people, animals, vehicles, parcels, open doors or gates. Say only what is visible; if nothing notable is there, say so.",
	FR: "En une courte phrase simple, en français, pour quelqu'un qui ne voit pas l'image, dites ce que montre cette caméra de la maison qui compte : personnes, animaux, véhicules, colis, portes ou portails ouverts. Dites seulement ce qui est visible; s'il n'y a rien de notable, dites-le.",
}

// AIAnswered attributes the AI's description, already quoted as data, to
// Home Assistant's AI; said is the language it answered in, named when it
// is the other one.
func AIAnswered(lang, said voice.Lang, quoted string) string {
	if other := voice.Lang(lang.Pick(string(voice.French), string(voice.English))); said == other {
		return voice.Sentence(lang.Pick(
			"Home Assistant's AI, asked what the picture shows, answered in French ",
			"L'IA de Home Assistant, à qui j'ai demandé ce que montre l'image, a répondu en anglais ") + quoted)
	}
	return voice.Sentence(lang.Pick("Home Assistant's AI, asked what the picture shows, answered ", "L'IA de Home Assistant, à qui j'ai demandé ce que montre l'image, a répondu ") + quoted)
}

// AIFailure says, in one sentence, why the AI gave no description and what
// that means, by the kind of failure: a passing one, a setup choice, a
// permission, or a request this Home Assistant does not accept.
func AIFailure(lang voice.Lang, err error) string {
	var he *homeassistant.Error
	kind := homeassistant.KindAITaskFailed
	if errors.As(err, &he) {
		kind = he.Kind
	}
	switch kind {
	case homeassistant.KindNoAITask:
		return lang.Pick(
			"Home Assistant has no AI set up that can look at pictures, so I can only tell you what the sensors say; an administrator can add one.",
			"Home Assistant n'a pas d'IA capable de regarder des images; je ne peux vous dire que ce que disent les capteurs, et un administrateur peut en ajouter une.")
	case homeassistant.KindNotAllowed:
		return lang.Pick(
			"Home Assistant does not let my user ask its AI about this camera, so I can only tell you what the sensors say; an administrator can allow it.",
			"Home Assistant ne permet pas à mon utilisateur de demander à son IA de regarder cette caméra; je ne peux vous dire que ce que disent les capteurs, et un administrateur peut le permettre.")
	case homeassistant.KindBadRequest:
		return lang.Pick(
			"Home Assistant's AI did not accept the way I asked, which waiting will not change, so I can only tell you what the sensors say; whoever runs maison should update it.",
			"L'IA de Home Assistant n'a pas accepté ma façon de demander, ce qui ne changera pas avec le temps; je ne peux vous dire que ce que disent les capteurs, et la personne qui gère maison devrait la mettre à jour.")
	}
	if errors.Is(err, homeassistant.ErrUnreadablePicture) {
		return lang.Pick(
			"Home Assistant's AI could not read this camera's picture: Home Assistant gives it the picture as the camera sends it, and the camera sends it damaged (the one I showed was repaired). This lasts as long as the camera sends damaged pictures; it does not mean the AI is broken. So I can only tell you what the sensors say.",
			"L'IA de Home Assistant n'a pas pu lire l'image de cette caméra : Home Assistant la lui donne telle que la caméra l'envoie, et la caméra l'envoie abîmée (celle que j'ai montrée a été réparée). Ça dure tant que la caméra envoie des images abîmées; ça ne veut pas dire que l'IA est en panne. Je ne peux donc vous dire que ce que disent les capteurs.")
	}
	return lang.Pick(
		"Home Assistant's AI could not describe the picture this time, which is usually brief, so I can only tell you what the sensors say.",
		"L'IA de Home Assistant n'a pas pu décrire l'image cette fois, ce qui est généralement bref; je ne peux vous dire que ce que disent les capteurs.")
}

// Description is what is known of a camera's picture, for the ear: facts
// only, never what the picture shows, which nothing here has looked at.
type Description struct {
	Camera    string        // the camera named aloud
	Area      string        // its area, or ""
	Part      string        // which part of the picture is shown (Part), or ""
	Age       time.Duration // how long ago the picture was taken
	State     string        // the camera's state: recording, streaming, idle, unavailable, ...
	Frozen    bool          // the camera keeps sending the very same picture
	FrozenFor time.Duration // for how long, when Frozen
	Uniform   bool          // the picture is almost uniform
	Dark      bool          // the picture is very dark
	Nearby    []string      // what nearby exposed sensors report, a sentence each
	AI        string        // Home Assistant's AI's sentence about the picture, or ""
	CanAskAI  bool          // an AI would describe the picture if asked
}

// Describe says what is known of a camera's picture.
func Describe(lang voice.Lang, d Description) string {
	name := d.Camera
	var out []string
	if d.Area != "" {
		out = append(out, voice.Sentence(lang.Pick("This is "+name+", in the "+Quote(lang, d.Area), "Voici "+name+", dans la pièce "+Quote(lang, d.Area))))
	} else {
		out = append(out, voice.Sentence(lang.Pick("This is "+name, "Voici "+name)))
	}
	if d.Part != "" {
		out = append(out, d.Part)
	}
	out = append(out, voice.Sentence(lang.Pick("The picture was taken "+lang.Ago(d.Age), "L'image a été prise "+lang.Ago(d.Age))))
	switch d.State {
	case "recording":
		out = append(out, lang.Pick("It is recording.", "Elle enregistre."))
	case "streaming":
		out = append(out, lang.Pick("It is streaming live.", "Elle diffuse en direct."))
	case "idle":
		out = append(out, lang.Pick("It is idle, not recording.", "Elle est en veille, elle n'enregistre pas."))
	case "unavailable", "unknown":
		out = append(out, lang.Pick("Home Assistant says it is unavailable, so this picture may be old.", "Home Assistant la dit indisponible, cette image est peut-être ancienne."))
	}
	if d.Frozen {
		f := lang.Duration(d.FrozenFor)
		out = append(out, voice.Sentence(lang.Pick(
			"The camera has been sending exactly the same picture for "+f+", so it may be frozen and what it shows may be old",
			"La caméra envoie exactement la même image depuis "+f+", elle est peut-être figée et ce qu'elle montre peut être ancien")))
	}
	switch {
	case d.Uniform:
		out = append(out, lang.Pick(
			"The picture is almost completely uniform, which usually means a covered lens or a camera fault.",
			"L'image est presque uniforme, ce qui veut souvent dire un objectif couvert ou une panne de la caméra."))
	case d.Dark:
		out = append(out, lang.Pick("The picture is very dark; there may be too little light to see much.", "L'image est très sombre; il y a peut-être trop peu de lumière pour voir grand-chose."))
	}
	out = append(out, d.Nearby...)
	if d.AI != "" {
		return voice.Paragraph(append(out, d.AI)...)
	}
	if d.CanAskAI {
		// A voice conversation drops the picture: say where its description is.
		out = append(out, lang.Pick(
			"These facts come from Home Assistant's sensors; I have not looked at what the picture shows, and asking me to describe this camera puts it in words.",
			"Ces faits viennent des capteurs de Home Assistant; je n'ai pas regardé ce que montre l'image, et me demander de décrire cette caméra la met en mots."))
		return voice.Paragraph(out...)
	}
	out = append(out, lang.Pick(
		"These facts come from Home Assistant's sensors; I have not looked at what the picture shows.",
		"Ces faits viennent des capteurs de Home Assistant; je n'ai pas regardé ce que montre l'image."))
	return voice.Paragraph(out...)
}

// Part tells which part of the picture is shown (what, as Region says it)
// and how much closer it is than the whole picture; everyPixel when it
// shows every pixel the camera sent.
func Part(lang voice.Lang, what string, closer float64, everyPixel bool) string {
	times := math.Round(closer*2) / 2 // to the half
	if times < 1.5 {
		return voice.Sentence(lang.Pick(
			"It shows "+what+"; the camera has no finer detail than the whole picture already showed, so this part is larger, not sharper",
			"Elle montre "+what+"; la caméra n'a pas plus de détails que l'image entière n'en montrait, cette partie est donc plus grande, pas plus nette"))
	}
	n := lang.Decimal(times, 1)
	if times == math.Trunc(times) {
		n = lang.Number(int(times))
	}
	en := "It shows " + what + ", " + n + " times closer than the whole picture"
	frText := "Elle montre " + what + ", " + n + " fois plus près que l'image entière"
	if everyPixel {
		en += ", with every pixel the camera sent"
		frText += ", avec chaque pixel envoyé par la caméra"
	}
	return voice.Sentence(lang.Pick(en, frText))
}
