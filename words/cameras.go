// The list of cameras: which can show a picture, which are off or
// unavailable, and what to do when none is shared.

package words

import (
	"maison/voice"
)

// CameraInRoom is a listed camera's room (said after the camera's name,
// when the name does not already say it).
func CameraInRoom(lang voice.Lang, area string) string {
	return say(lang, "cameras.in_room", "room", Quote(lang, area))
}

// CameraListedOff says that the camera name is turned off and has no
// picture until someone turns it on.
func CameraListedOff(lang voice.Lang, name string) string {
	return voice.Sentence(say(lang, "cameras.listed_off", "camera", Camera(lang, name)))
}

// CameraListedUnavailable says that Home Assistant has lost touch with the
// camera name, so its picture may be missing or old.
func CameraListedUnavailable(lang voice.Lang, name string) string {
	return say(lang, "cameras.listed_unavailable", "camera", Camera(lang, name))
}

// CamerasShown says which cameras can show a picture, each item a camera
// as named aloud (with its room).
func CamerasShown(lang voice.Lang, items []string) string {
	switch len(items) {
	case 0:
		return say(lang, "cameras.shown.none")
	case 1:
		return voice.Sentence(say(lang, "cameras.shown.one", "camera", items[0]))
	}
	return voice.Sentence(say(lang, "cameras.shown.many", "n", lang.Number(len(items)), "cameras", lang.List(items)))
}

// NoCameraShared says that no camera is shared, and how an admin shares one.
func NoCameraShared(lang voice.Lang) string {
	return say(lang, "cameras.none_shared")
}
