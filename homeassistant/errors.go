package homeassistant

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"
)

// wsOp names the websocket connection in errors.
const wsOp = "websocket /api/websocket"

// Kind classifies what went wrong when talking to Home Assistant.
type Kind int

const (
	// KindUnreachable: Home Assistant could not be reached (connection refused, no route, DNS).
	KindUnreachable Kind = iota + 1
	// KindRestarting: Home Assistant answered 503 or refused connections after having been reachable.
	KindRestarting
	// KindAuth: the token was refused (invalid or revoked), or a local-only user came from a non-local address.
	KindAuth
	// KindAdminToken: the token belongs to an administrator; maison refuses to run with it.
	KindAdminToken
	// KindNotAllowed: the user is authenticated but not allowed to do this (an admin-only endpoint or command).
	KindNotAllowed
	// KindForbidden: HTTP 403, usually an address banned after failed logins or a proxy refusing.
	KindForbidden
	// KindNotFound: the entity, camera or Assist tool does not exist.
	KindNotFound
	// KindCameraOff: the camera is turned off (camera proxy 503).
	KindCameraOff
	// KindCameraFailed: Home Assistant could not get an image from the camera (camera proxy 500, or an unusable body).
	KindCameraFailed
	// KindTimeout: the request did not finish in time.
	KindTimeout
	// KindCanceled: the caller gave up (context canceled).
	KindCanceled
	// KindNoAssist: Home Assistant's Model Context Protocol Server integration is not set up.
	KindNoAssist
	// KindProtocol: Home Assistant answered something this client did not expect.
	KindProtocol
	// KindNoAITask: Home Assistant has no AI task entity that can describe a picture: none at all, none
	// preferred, or one without attachment support.
	KindNoAITask
	// KindAITaskFailed: Home Assistant's AI task failed (the AI service refused, broke or was rate limited).
	KindAITaskFailed
	// KindLocalOnly: the user may only log in from the local network, and Home Assistant does not count the
	// address maison comes from as local ("User cannot authenticate remotely").
	KindLocalOnly
	// KindAssistLoading: the Assist endpoint answers 404 as it does for a while after Home Assistant
	// restarts, until its Model Context Protocol Server integration has loaded.
	KindAssistLoading
	// KindServerError: Home Assistant answered 500, as it does when a request runs past its own one-minute
	// limit or an integration fails inside it. An action may or may not have happened.
	KindServerError
	// KindBadRequest: Home Assistant refused the request's shape (invalid_format): maison sent something
	// this Home Assistant does not accept.
	KindBadRequest
	// KindNoHistory: Home Assistant has no history to ask: its recorder is off, still starting, or failed.
	KindNoHistory
)

var kindText = map[Kind]string{
	KindUnreachable:   "unreachable",
	KindRestarting:    "restarting",
	KindAuth:          "unauthorized",
	KindAdminToken:    "admin token refused",
	KindNotAllowed:    "not allowed",
	KindForbidden:     "forbidden",
	KindNotFound:      "not found",
	KindCameraOff:     "camera off",
	KindCameraFailed:  "camera failed",
	KindTimeout:       "timeout",
	KindCanceled:      "canceled",
	KindNoAssist:      "assist endpoint not configured",
	KindProtocol:      "protocol error",
	KindNoAITask:      "no ai task",
	KindAITaskFailed:  "ai task failed",
	KindLocalOnly:     "local-only user refused from this address",
	KindAssistLoading: "assist endpoint not loaded yet",
	KindServerError:   "home assistant internal error",
	KindBadRequest:    "request refused as malformed",
	KindNoHistory:     "recorder unavailable",
}

// kindHint points a developer at the setting to check.
var kindHint = map[Kind]string{
	KindUnreachable: "check MAISON_HA_URL",
	KindAuth:        "check MAISON_HA_TOKEN, and that the user may log in from this address",
}

// Error returns the kind's short name, as String does: a Kind is also the
// target errors.Is matches an *Error of that kind with, as in
// errors.Is(err, homeassistant.KindTimeout).
func (k Kind) Error() string { return k.String() }

// String returns a short lowercase name for the kind.
func (k Kind) String() string {
	if s, ok := kindText[k]; ok {
		return s
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Error is the one error type of this package. errors.Is(err, KindX) tells its kind; errors.As reaches it for
// the operation, the HTTP status and Case (what its details add to its Kind), and the *CommandError inside
// when Home Assistant answered a websocket command with an error code. No words live here: the operator's
// advice (words.Advice) and the person's (words.Trouble) are maison/words'.
type Error struct {
	Kind   Kind   // what went wrong
	Op     string // what was attempted, e.g. "GET /api/camera_proxy/camera.garage" or "websocket auth"
	Status int    // HTTP status when there was one, else 0
	Err    error  // the underlying cause, may be nil
}

// Error returns the lowercase developer form, e.g.
// "homeassistant: GET /api/camera_proxy/camera.x: 503 camera off".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("homeassistant: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if e.Status != 0 {
		b.WriteString(strconv.Itoa(e.Status))
		b.WriteByte(' ')
	}
	b.WriteString(e.Kind.String())
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if h := kindHint[e.Kind]; h != "" {
		b.WriteString(" (")
		b.WriteString(h)
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is this error's Kind, so that errors.Is(err, KindNotFound) holds for a wrapped
// *Error of that kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

// Case is what an error's details add to its Kind, for the words that
// tell whoever runs maison what to do (words.Advice): facts read here,
// said there.
type Case int

// The cases an error's Kind may come with.
const (
	CaseNone             Case = iota
	CaseCertificate           // unreachable: Home Assistant's certificate did not verify for the address
	CaseSilent                // unreachable: something accepted the connection and never answered
	CaseNotHomeAssistant      // not found: something answers at the address, without Home Assistant's websocket API
	CaseOldMCP                // not allowed: the older /api/mcp endpoint wants an administrator
	CaseAITask                // a failure of Home Assistant's AI task
	CaseAITaskNoPictures      // no AI task: the one chosen takes no pictures
	CaseAITaskInternal        // the AI task failed inside Home Assistant (unknown_error)
)

// Case says what the error's details add to its Kind.
func (e *Error) Case() Case {
	if strings.Contains(e.Op, "ai_task") {
		var ce *CommandError
		switch {
		case e.Kind == KindNoAITask && errors.As(e.Err, &ce) && strings.Contains(ce.Message, "does not support"):
			return CaseAITaskNoPictures
		case e.Kind == KindAITaskFailed && errors.As(e.Err, &ce) && ce.Code == "unknown_error":
			return CaseAITaskInternal
		}
		switch e.Kind {
		case KindNoAITask, KindBadRequest, KindAITaskFailed, KindTimeout, KindNotAllowed:
			return CaseAITask
		}
	}
	switch {
	case e.Kind == KindUnreachable && certificateRefused(e.Err):
		return CaseCertificate
	case e.Kind == KindUnreachable && errors.Is(e.Err, errSilent):
		return CaseSilent
	case e.Kind == KindNotAllowed && strings.Contains(e.Op, "/api/mcp"):
		return CaseOldMCP
	case e.Kind == KindNotFound && e.Op == wsOp:
		return CaseNotHomeAssistant
	}
	return CaseNone
}

// classifyNetErr maps a transport error to an *Error. wasConnected says whether Home Assistant has been reached
// before, which turns a refused connection into KindRestarting.
func classifyNetErr(op string, err error, wasConnected bool) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	kind := KindUnreachable
	var ne net.Error
	switch {
	case errors.Is(err, context.Canceled):
		kind = KindCanceled
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		kind = KindTimeout
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET):
		if wasConnected {
			kind = KindRestarting
		}
	}
	return &Error{Kind: kind, Op: op, Err: err}
}

// certificateRefused reports whether err is a TLS certificate that did not
// verify: a name it does not cover or an authority not trusted.
func certificateRefused(err error) bool {
	var verify *tls.CertificateVerificationError
	var host x509.HostnameError
	var authority x509.UnknownAuthorityError
	return errors.As(err, &verify) || errors.As(err, &host) || errors.As(err, &authority)
}
