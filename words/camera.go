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
		return say(lang, "camera.named.as_camera", "name", q)
	}
	return say(lang, "camera.named", "name", q)
}

// NoCamera says there is no camera by the name (or, byID, the entity id)
// asked for, and names the cameras that exist, each as Camera names it. A
// camera that is not exposed gets exactly these words, as one that does
// not exist.
func NoCamera(lang voice.Lang, query string, byID bool, names []string) string {
	q := Quote(lang, query)
	if byID {
		q = say(lang, "camera.missing.by_id")
	} else {
		q = say(lang, "camera.missing.by_name", "name", q)
	}
	if len(names) == 0 {
		return say(lang, "camera.missing.none_shared", "name", q)
	}
	return say(lang, "camera.missing.others", "name", q, "names", lang.List(names))
}

// CameraWithheld says why an exposed camera is not shown, by the doubt
// that left it known by its words only, and how to fix it.
func CameraWithheld(lang voice.Lang, name string, why Doubt) string {
	cam := Camera(lang, name)
	switch why {
	case DoubtShared:
		return say(lang, "camera.withheld.shared", "camera", cam)
	case DoubtUnknownExposure:
		return say(lang, "camera.withheld.unknown_exposure", "camera", cam)
	}
	return say(lang, "camera.withheld.other", "camera", cam)
}

// CameraTrouble is why a camera's picture cannot be shown, as the camera
// service read it from the error.
type CameraTrouble int

// The troubles of a camera's picture.
const (
	CameraUnknown                CameraTrouble = iota // nothing more is known
	CameraOff                                         // turned off in Home Assistant
	CameraNotReady                                    // maison's own deadline passed before the picture was ready
	CameraEmpty                                       // Home Assistant answered with an empty picture
	CameraTooLarge                                    // the picture is larger than maison accepts
	CameraLost                                        // Home Assistant has lost touch with the camera (unavailable)
	CameraSlow                                        // Home Assistant could not get a picture in time
	CameraGone                                        // Home Assistant no longer knows the camera
	CameraRefetchFailed                               // damaged, too little to show, and asking again failed
	CameraTooDamaged                                  // damaged twice in a row, too little to show
	CameraNotPicture                                  // the camera sent something that is not a picture
	CameraTwelveBit                                   // the camera always sends 12-bit pictures
	CameraArithmetic                                  // the camera always sends arithmetic-coded pictures
	CameraLossless                                    // the camera always sends lossless JPEG
	CameraHierarchical                                // the camera always sends hierarchical JPEG
	CameraNoHeight                                    // the camera always gives the height after the picture (DNL)
	CameraTooManyPixels                               // the camera sends more than 50 megapixels
	CameraTooLargeForMemory                           // even an eighth of its picture needs more memory than maison gives pictures
	CameraBusy                                        // other pictures held the memory until the caller could wait no longer
	CameraNoPicture                                   // Home Assistant answered at once that the camera gave it no picture
	CameraTooLargeForMemoryWhole                      // a picture decoded whole (not a JPEG) needs more memory than maison gives pictures
)

// cameraOff says that cam, as named aloud, is turned off: the one sentence
// for it, whether the camera can be named or not.
func cameraOff(lang voice.Lang, name string) string {
	return voice.Sentence(say(lang, "camera.error.off", "name", name))
}

// cameraErrors are the words of each trouble of a camera's picture.
var cameraErrors = map[CameraTrouble]Key{
	CameraOff:                    "camera.error.off",
	CameraNotReady:               "camera.error.not_ready",
	CameraEmpty:                  "camera.error.empty",
	CameraTooLarge:               "camera.error.too_large",
	CameraLost:                   "camera.error.lost",
	CameraSlow:                   "camera.error.slow",
	CameraGone:                   "camera.error.gone",
	CameraRefetchFailed:          "camera.error.refetch_failed",
	CameraTooDamaged:             "camera.error.too_damaged",
	CameraNotPicture:             "camera.error.not_picture",
	CameraTwelveBit:              "camera.error.twelve_bit",
	CameraArithmetic:             "camera.error.arithmetic",
	CameraLossless:               "camera.error.lossless",
	CameraHierarchical:           "camera.error.hierarchical",
	CameraNoHeight:               "camera.error.no_height",
	CameraTooManyPixels:          "camera.error.too_many_pixels",
	CameraTooLargeForMemory:      "camera.error.too_large_for_memory",
	CameraBusy:                   "camera.error.busy",
	CameraNoPicture:              "camera.error.no_picture",
	CameraTooLargeForMemoryWhole: "camera.error.too_large_for_memory_whole",
}

// CameraError tells a person why the camera named aloud as name cannot be
// shown, how long that usually lasts, what it does not mean and what to do
// instead.
func CameraError(lang voice.Lang, name string, t CameraTrouble) string {
	k, ok := cameraErrors[t]
	if !ok {
		k = "camera.error.unknown"
	}
	return voice.Sentence(say(lang, k, "name", name, "mib", strconv.Itoa(homeassistant.MaxImageBytes>>20)))
}

// AIInstructions asks Home Assistant's AI, in the answer language, for one
// sentence of what matters to someone at home, in that language.
const AIInstructions Key = "camera.ai_instructions"

// AIAnswered attributes the AI's description, already quoted as data, to
// Home Assistant's AI; said is the language it answered in, named when it
// is the other one.
func AIAnswered(lang, said voice.Lang, quoted string) string {
	if said != "" && said != lang {
		return voice.Sentence(say(lang, "camera.ai_answered_in", "language", Key("language."+said).In(lang), "said", quoted))
	}
	return voice.Sentence(say(lang, "camera.ai_answered", "said", quoted))
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
		return say(lang, "camera.ai_failure.no_ai_task")
	case homeassistant.KindNotAllowed:
		return say(lang, "camera.ai_failure.not_allowed")
	case homeassistant.KindBadRequest:
		return say(lang, "camera.ai_failure.bad_request")
	}
	if errors.Is(err, homeassistant.ErrUnreadablePicture) {
		return say(lang, "camera.ai_failure.unreadable")
	}
	return say(lang, "camera.ai_failure.other")
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
		out = append(out, voice.Sentence(say(lang, "camera.describe.in_area", "name", name, "area", Quote(lang, d.Area))))
	} else {
		out = append(out, voice.Sentence(say(lang, "camera.describe.this_is", "name", name)))
	}
	if d.Part != "" {
		out = append(out, d.Part)
	}
	out = append(out, voice.Sentence(say(lang, "camera.describe.taken", "ago", lang.Ago(d.Age))))
	switch d.State {
	case "recording":
		out = append(out, say(lang, "camera.describe.recording"))
	case "streaming":
		out = append(out, say(lang, "camera.describe.streaming"))
	case "idle":
		out = append(out, say(lang, "camera.describe.idle"))
	case "unavailable", "unknown":
		out = append(out, say(lang, "camera.describe.unavailable"))
	}
	if d.Frozen {
		f := lang.Duration(d.FrozenFor)
		out = append(out, voice.Sentence(say(lang, "camera.describe.frozen", "duration", f)))
	}
	switch {
	case d.Uniform:
		out = append(out, say(lang, "camera.describe.uniform"))
	case d.Dark:
		out = append(out, say(lang, "camera.describe.dark"))
	}
	out = append(out, d.Nearby...)
	if d.AI != "" {
		return voice.Paragraph(append(out, d.AI)...)
	}
	if d.CanAskAI {
		// A voice conversation drops the picture: say where its description is.
		out = append(out, say(lang, "camera.describe.facts_ask_ai"))
		return voice.Paragraph(out...)
	}
	out = append(out, say(lang, "camera.describe.facts"))
	return voice.Paragraph(out...)
}

// Part tells which part of the picture is shown (what, as Region says it)
// and how much closer it is than the whole picture; everyPixel when it
// shows every pixel the camera sent.
func Part(lang voice.Lang, what string, closer float64, everyPixel bool) string {
	times := math.Round(closer*2) / 2 // to the half
	if times < 1.5 {
		return voice.Sentence(say(lang, "camera.part.no_closer", "what", what))
	}
	n := lang.Decimal(times, 1)
	if times == math.Trunc(times) {
		n = lang.Number(int(times))
	}
	if everyPixel {
		return voice.Sentence(say(lang, "camera.part.closer_every_pixel", "what", what, "n", n))
	}
	return voice.Sentence(say(lang, "camera.part.closer", "what", what, "n", n))
}
