// The list of cameras: which can show a picture, which are off or
// unavailable, and what to do when none is shared.

package words

import (
	"strings"

	"maison/voice"
)

// CameraInRoom is a listed camera's room (said after the camera's name,
// when the name does not already say it).
func CameraInRoom(lang voice.Lang, area string) string {
	return say(lang, "cameras.camera_in_room") + Quote(lang, area)
}

// CameraListedOff says that the camera name is turned off and has no
// picture until someone turns it on.
func CameraListedOff(lang voice.Lang, name string) string {
	cam := Camera(lang, name)
	return lang.Pick(
		"The "+strings.TrimPrefix(cam, "the ")+" is turned off in Home Assistant, so it has no picture until someone turns it on.",
		"La "+strings.TrimPrefix(cam, "la ")+" est éteinte dans Home Assistant, elle n'a donc pas d'image tant qu'on ne la rallume pas.")
}

// CameraListedUnavailable says that Home Assistant has lost touch with the
// camera name, so its picture may be missing or old.
func CameraListedUnavailable(lang voice.Lang, name string) string {
	cam := Camera(lang, name)
	return lang.Pick(
		"Home Assistant says the "+strings.TrimPrefix(cam, "the ")+" is unavailable, so its picture may be missing or old; this often passes when the camera is back on the network.",
		"Home Assistant dit que la "+strings.TrimPrefix(cam, "la ")+" est indisponible, son image peut donc manquer ou être ancienne; ça passe souvent quand la caméra revient sur le réseau.")
}

// CamerasShown says which cameras can show a picture, each item a camera
// as named aloud (with its room).
func CamerasShown(lang voice.Lang, items []string) string {
	switch len(items) {
	case 0:
		return say(lang, "cameras.shown.no_camera_can")
	case 1:
		return voice.Sentence(say(lang, "cameras.shown.i_can_show") + items[0])
	}
	return voice.Sentence(say(lang, "cameras.shown.i_can_show_2", "len_items", lang.Number(len(items))) + lang.List(items))
}

// NoCameraShared says that no camera is shared, and how an admin shares one.
func NoCameraShared(lang voice.Lang) string {
	return say(lang, "cameras.no_camera_shared")
}
