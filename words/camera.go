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
		return say(lang, "camera.camera.the_q", "q", q)
	}
	return say(lang, "camera.camera.the_q_camera", "q", q)
}

// NoCamera says there is no camera by the name (or, byID, the entity id)
// asked for, and names the cameras that exist, each as Camera names it. A
// camera that is not exposed gets exactly these words, as one that does
// not exist.
func NoCamera(lang voice.Lang, query string, byID bool, names []string) string {
	q := Quote(lang, query)
	if byID {
		q = say(lang, "camera.no_camera.with_that_entity")
	} else {
		q = say(lang, "camera.no_camera.called_q", "q", q)
	}
	if len(names) == 0 {
		return say(lang, "camera.no_camera.there_is_no", "q", q)
	}
	return say(lang, "camera.no_camera.there_is_no_2", "q", q, "names", lang.List(names))
}

// CameraWithheld says why an exposed camera is not shown, by the doubt
// that left it known by its words only, and how to fix it.
func CameraWithheld(lang voice.Lang, name string, why Doubt) string {
	cam := Camera(lang, name)
	switch why {
	case DoubtShared:
		return say(lang, "camera.withheld.i_cannot_show", "cam", cam)
	case DoubtUnknownExposure:
		return say(lang, "camera.withheld.i_cannot_show_2", "cam", cam)
	}
	return say(lang, "camera.withheld.i_cannot_show_3", "cam", cam)
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
const AIInstructions Key = "camera.ai_instructions"

// AIAnswered attributes the AI's description, already quoted as data, to
// Home Assistant's AI; said is the language it answered in, named when it
// is the other one.
func AIAnswered(lang, said voice.Lang, quoted string) string {
	if other := voice.Lang(lang.Pick(string(voice.French), string(voice.English))); said == other {
		return voice.Sentence(say(lang, "camera.ai_answered.home_assistant_s") + quoted)
	}
	return voice.Sentence(say(lang, "camera.ai_answered.home_assistant_s_2") + quoted)
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
		return say(lang, "camera.ai_failure.home_assistant_has")
	case homeassistant.KindNotAllowed:
		return say(lang, "camera.ai_failure.home_assistant_does")
	case homeassistant.KindBadRequest:
		return say(lang, "camera.ai_failure.home_assistant_s")
	}
	if errors.Is(err, homeassistant.ErrUnreadablePicture) {
		return say(lang, "camera.ai_failure.home_assistant_s_2")
	}
	return say(lang, "camera.ai_failure.home_assistant_s_3")
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
		out = append(out, voice.Sentence(say(lang, "camera.describe.this_is_name", "name", name, "quote_lang_d_area", Quote(lang, d.Area))))
	} else {
		out = append(out, voice.Sentence(say(lang, "camera.describe.this_is_name_2", "name", name)))
	}
	if d.Part != "" {
		out = append(out, d.Part)
	}
	out = append(out, voice.Sentence(say(lang, "camera.describe.the_picture_was", "ago_d_age", lang.Ago(d.Age))))
	switch d.State {
	case "recording":
		out = append(out, say(lang, "camera.describe.it_is_recording"))
	case "streaming":
		out = append(out, say(lang, "camera.describe.it_is_streaming"))
	case "idle":
		out = append(out, say(lang, "camera.describe.it_is_idle"))
	case "unavailable", "unknown":
		out = append(out, say(lang, "camera.describe.home_assistant_says"))
	}
	if d.Frozen {
		f := lang.Duration(d.FrozenFor)
		out = append(out, voice.Sentence(say(lang, "camera.describe.the_camera_has", "f", f)))
	}
	switch {
	case d.Uniform:
		out = append(out, say(lang, "camera.describe.the_picture_is"))
	case d.Dark:
		out = append(out, say(lang, "camera.describe.the_picture_is_2"))
	}
	out = append(out, d.Nearby...)
	if d.AI != "" {
		return voice.Paragraph(append(out, d.AI)...)
	}
	if d.CanAskAI {
		// A voice conversation drops the picture: say where its description is.
		out = append(out, say(lang, "camera.describe.these_facts_come"))
		return voice.Paragraph(out...)
	}
	out = append(out, say(lang, "camera.describe.these_facts_come_2"))
	return voice.Paragraph(out...)
}

// Part tells which part of the picture is shown (what, as Region says it)
// and how much closer it is than the whole picture; everyPixel when it
// shows every pixel the camera sent.
func Part(lang voice.Lang, what string, closer float64, everyPixel bool) string {
	times := math.Round(closer*2) / 2 // to the half
	if times < 1.5 {
		return voice.Sentence(say(lang, "camera.part.it_shows_what", "what", what))
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
