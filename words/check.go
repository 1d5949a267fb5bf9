// The lines of maison check, for whoever runs maison: what works and, for
// what does not, how to fix it. Each is a line after its mark (ok, note,
// FAIL, stop); Home Assistant's troubles are said by Advice.

package words

import (
	"strconv"

	"maison/voice"
)

// CheckStopped says the check was stopped before it finished.
func CheckStopped(l voice.Lang) string { return say(l, "check.stopped") }

// CheckUnreached says Home Assistant at where (a URL, or "" for the demo
// house) could not be used, kind being its error's kind and advice what
// to do.
func CheckUnreached(l voice.Lang, where, kind, advice string) string {
	if where == "" {
		where = say(l, "check.demo_house")
	}
	return say(l, "check.unreached", "where", where, "kind", kind, "advice", advice)
}

// CheckSettings says maison's settings were refused, why in err.
func CheckSettings(l voice.Lang, err error) string {
	return say(l, "check.settings", "err", err.Error())
}

// CheckReachable says which Home Assistant answered, where and for which home.
func CheckReachable(l voice.Lang, version, url, location string) string {
	return say(l, "check.reachable", "version", version, "url", url, "location", location)
}

// CheckSignedIn says as which user maison signed in.
func CheckSignedIn(l voice.Lang, user string) string {
	return say(l, "check.signed_in", "name", strconv.Quote(user))
}

// CheckLiveState counts the entities of the live state.
func CheckLiveState(l voice.Lang, n int) string {
	return say(l, "check.live_state", "n", strconv.Itoa(n))
}

// CheckAssistFailed says the Assist endpoint failed, with advice.
func CheckAssistFailed(l voice.Lang, advice string) string {
	return say(l, "check.assist_failed", "advice", advice)
}

// CheckAssistTools names the Assist endpoint's tools (names, listed).
func CheckAssistTools(l voice.Lang, n int, names string) string {
	return say(l, "check.assist_tools", "n", strconv.Itoa(n), "names", names)
}

// CheckNothingExposed says nothing is exposed to Assist.
func CheckNothingExposed(l voice.Lang) string { return say(l, "check.nothing_exposed") }

// CheckExposureFailed says what is exposed could not be read, with advice.
func CheckExposureFailed(l voice.Lang, advice string) string {
	return say(l, "check.exposure_failed", "advice", advice)
}

// CheckExposed counts what is exposed, and how much of it is known by identity.
func CheckExposed(l voice.Lang, n, known int) string {
	return say(l, "check.exposed", "n", strconv.Itoa(n), "known", strconv.Itoa(known))
}

// CheckExposureUnknown says the registry could not be read with each
// entity's exposure.
func CheckExposureUnknown(l voice.Lang) string { return say(l, "check.exposure_unknown") }

// CheckDoubt says why an exposed device (what) is known by its words only,
// the entities it could be being candidates.
func CheckDoubt(l voice.Lang, why Doubt, what, candidates string) string {
	switch why {
	case DoubtShared:
		return say(l, "check.doubt.shared", "what", what, "candidates", candidates)
	case DoubtUnknownExposure:
		return say(l, "check.doubt.unknown_exposure", "what", what, "candidates", candidates)
	}
	return say(l, "check.doubt.other", "what", what)
}

// CheckUnlisted names entities the registry says are exposed that the
// live context does not show.
func CheckUnlisted(l voice.Lang, ids string) string { return say(l, "check.unlisted", "ids", ids) }

// CheckUnregistered names entities without a registry entry.
func CheckUnregistered(l voice.Lang, ids string) string {
	return say(l, "check.unregistered", "ids", ids)
}

// CheckCamerasFailed says the cameras could not be listed, with advice.
func CheckCamerasFailed(l voice.Lang, advice string) string {
	return say(l, "check.cameras_failed", "advice", advice)
}

// CheckNoCamera says no camera is offered.
func CheckNoCamera(l voice.Lang) string { return say(l, "check.no_camera") }

// CheckUnknownCamera says MAISON_CAMERAS lists an entity Home Assistant
// does not know.
func CheckUnknownCamera(l voice.Lang, id string) string {
	return say(l, "check.unknown_camera", "id", id)
}

// CheckCameraOff says a camera is turned off.
func CheckCameraOff(l voice.Lang, name, id string) string {
	return say(l, "check.camera_off", "name", name, "id", id)
}

// CheckCameraUnavailable says Home Assistant lost touch with a camera.
func CheckCameraUnavailable(l voice.Lang, name, id string) string {
	return say(l, "check.camera_unavailable", "name", name, "id", id)
}

// CheckCameraFailed says a camera's picture could not be had, with advice.
func CheckCameraFailed(l voice.Lang, name, id, advice string) string {
	return say(l, "check.camera_failed", "name", name, "id", id, "advice", advice)
}

// CheckCamera says a camera's picture was fetched (w×h, bytes long),
// repaired as repairs say (none when empty) and, when fitted, fitted to
// fw×fh, fitBytes long, at quality.
func CheckCamera(l voice.Lang, name, id string, w, h, bytes int, repairs string, fitted bool, fw, fh, fitBytes, quality int) string {
	repaired := say(l, "check.nothing_to_repair")
	if repairs != "" {
		repaired = say(l, "check.repaired", "repairs", repairs)
	}
	fit := say(l, "check.not_fitted")
	if fitted {
		fit = say(l, "check.fitted", "size", size(fw, fh), "bytes", kb(l, fitBytes), "quality", strconv.Itoa(quality))
	}
	return say(l, "check.camera", "name", name, "id", id, "size", size(w, h), "bytes", kb(l, bytes), "repaired", repaired, "fitted", fit)
}

func size(w, h int) string { return strconv.Itoa(w) + "x" + strconv.Itoa(h) }

// kb says a number of bytes, in bytes below a kilobyte, else in whole
// kilobytes.
func kb(l voice.Lang, n int) string {
	if n < 1024 {
		return say(l, "check.bytes", "n", strconv.Itoa(n))
	}
	return say(l, "check.kilobytes", "n", strconv.Itoa((n+512)/1024))
}

// CheckAIOff says AI descriptions are turned off.
func CheckAIOff(l voice.Lang) string { return say(l, "check.ai_off") }

// CheckNoAITask says no AI task accepts pictures.
func CheckNoAITask(l voice.Lang) string { return say(l, "check.no_ai_task") }

// CheckAITask names the AI task describe_camera will ask.
func CheckAITask(l voice.Lang, name, id string) string {
	return say(l, "check.ai_task", "name", name, "id", id)
}

// CheckAITaskWrong says MAISON_AI_TASK names no AI task that accepts pictures.
func CheckAITaskWrong(l voice.Lang, id string) string { return say(l, "check.ai_task_wrong", "id", id) }

// CheckFullAPIFailed says the probe of /api/mcp failed, with advice.
func CheckFullAPIFailed(l voice.Lang, advice string) string {
	return say(l, "check.full_api_failed", "advice", advice)
}

// CheckFullAPIOpen says /api/mcp accepts maison's user, which it should not.
func CheckFullAPIOpen(l voice.Lang) string { return say(l, "check.full_api_open") }

// CheckFullAPIRefused says /api/mcp refuses maison's user, as it should;
// counted says the probe counts as a failed login in Home Assistant.
func CheckFullAPIRefused(l voice.Lang, counted bool) string {
	if counted {
		return say(l, "check.full_api_refused_counted")
	}
	return say(l, "check.full_api_refused")
}
