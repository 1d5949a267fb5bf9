package words

import (
	"maison/homeassistant"
	"maison/voice"
)

// Advice tells whoever runs maison (its log, maison check) what happened
// with Home Assistant, how long it usually lasts, what it does not mean
// and what to do, settings and paths included, from the error's kind and
// the case its details make. It never holds the token. once speaks for a
// command that runs once and does not retry (maison check): where maison
// would retry or reconnect on its own, it says to run the check again.
// The words for the person asking are Trouble's.
func Advice(l voice.Lang, k homeassistant.Kind, c homeassistant.Case, once bool) string {
	switch c {
	case homeassistant.CaseCertificate:
		return say(l, "advice.unreachable.certificate")
	case homeassistant.CaseSilent:
		return say(l, "advice.unreachable.silent")
	case homeassistant.CaseNotHomeAssistant:
		return say(l, "advice.not_found.not_home_assistant")
	case homeassistant.CaseOldMCP:
		return say(l, "advice.not_allowed.old_mcp")
	case homeassistant.CaseAITaskNoPictures:
		return say(l, "advice.ai_task.no_pictures")
	case homeassistant.CaseAITaskInternal:
		return say(l, "advice.ai_task.internal")
	case homeassistant.CaseAITask:
		if key, ok := aiTaskAdvice[k]; ok {
			return key.In(l)
		}
	}
	switch {
	case once && k == homeassistant.KindUnreachable:
		return say(l, "advice.unreachable.once")
	case once && k == homeassistant.KindRestarting:
		return say(l, "advice.restarting.once")
	}
	if key, ok := advice[k]; ok {
		return key.In(l)
	}
	return say(l, "advice.other")
}

// advice is the advice for each kind of error, without a case of its own.
var advice = map[homeassistant.Kind]Key{
	homeassistant.KindUnreachable:   "advice.unreachable",
	homeassistant.KindRestarting:    "advice.restarting",
	homeassistant.KindAuth:          "advice.auth",
	homeassistant.KindAdminToken:    "advice.admin_token",
	homeassistant.KindNotAllowed:    "advice.not_allowed",
	homeassistant.KindForbidden:     "advice.forbidden",
	homeassistant.KindNotFound:      "advice.not_found",
	homeassistant.KindCameraOff:     "advice.camera_off",
	homeassistant.KindCameraFailed:  "advice.camera_failed",
	homeassistant.KindTimeout:       "advice.timeout",
	homeassistant.KindCanceled:      "advice.canceled",
	homeassistant.KindNoAssist:      "advice.no_assist",
	homeassistant.KindLocalOnly:     "advice.local_only",
	homeassistant.KindAssistLoading: "advice.assist_loading",
	homeassistant.KindServerError:   "advice.server_error",
	homeassistant.KindBadRequest:    "advice.bad_request",
	homeassistant.KindNoHistory:     "advice.no_history",
	homeassistant.KindProtocol:      "advice.protocol",
}

// aiTaskAdvice is the advice for a failure of Home Assistant's AI task.
var aiTaskAdvice = map[homeassistant.Kind]Key{
	homeassistant.KindNoAITask:     "advice.ai_task.no_ai_task",
	homeassistant.KindBadRequest:   "advice.ai_task.bad_request",
	homeassistant.KindAITaskFailed: "advice.ai_task.failed",
	homeassistant.KindTimeout:      "advice.ai_task.timeout",
	homeassistant.KindNotAllowed:   "advice.ai_task.not_allowed",
}
