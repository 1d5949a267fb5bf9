package words

import (
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// Trouble tells the person asking, in lang and in sentences for the ear,
// what went wrong with Home Assistant, how long it usually lasts, what it
// does not mean and what to do. The operator's version, with settings and
// paths, is [Advice]; these words name none.
func Trouble(lang voice.Lang, k homeassistant.Kind) string {
	if k == homeassistant.KindCameraOff {
		// The camera's own sentence, for a camera that cannot be named.
		return cameraOff(lang, say(lang, "trouble.that_camera"))
	}
	if w, ok := troubleWords[k]; ok {
		return w.In(lang)
	}
	return say(lang, "trouble.other")
}

// troubleWords are the words for each kind of Home Assistant trouble.
var troubleWords = map[homeassistant.Kind]Key{
	homeassistant.KindUnreachable:   "trouble.unreachable",
	homeassistant.KindRestarting:    "trouble.restarting",
	homeassistant.KindAuth:          "trouble.auth",
	homeassistant.KindAdminToken:    "trouble.admin_token",
	homeassistant.KindNotAllowed:    "trouble.not_allowed",
	homeassistant.KindForbidden:     "trouble.forbidden",
	homeassistant.KindNotFound:      "trouble.not_found",
	homeassistant.KindCameraFailed:  "trouble.camera_failed",
	homeassistant.KindTimeout:       "trouble.timeout",
	homeassistant.KindCanceled:      "trouble.canceled",
	homeassistant.KindNoAssist:      "trouble.no_assist",
	homeassistant.KindNoAITask:      "trouble.no_ai_task",
	homeassistant.KindAITaskFailed:  "trouble.ai_task_failed",
	homeassistant.KindLocalOnly:     "trouble.local_only",
	homeassistant.KindAssistLoading: "trouble.assist_loading",
	homeassistant.KindServerError:   "trouble.server_error",
	homeassistant.KindBadRequest:    "trouble.bad_request",
	homeassistant.KindNoHistory:     "trouble.no_history",
	homeassistant.KindProtocol:      "trouble.protocol",
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
	if d >= 2*time.Hour {
		return say(lang, "trouble.long_outage.hours", "n", lang.Number(int(d.Hours())))
	}
	return say(lang, "trouble.long_outage.minutes", "n", lang.Number(int(d.Minutes())))
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
