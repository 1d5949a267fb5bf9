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
// the operation, the HTTP status and Advice (what the operator should do), and the *CommandError inside when
// Home Assistant answered a websocket command with an error code. Words for the person asking are the tools'
// (maison/tools), not this package's.
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

// Advice returns English sentences for a person: what happened, how long it usually lasts, what it does not
// mean, and what to do instead. It never contains the token. It speaks for a maison that keeps running
// (serve, stdio), which retries and reconnects on its own; AdviceOnce speaks for a command that runs once.
func (e *Error) Advice() string { return e.advice("") }

// AdviceOnce returns Advice's sentences for a command that runs once and does not retry, such as maison
// check: where Advice says maison retries or reconnects on its own, it says again instead, the command's own
// sentence for trying again (e.g. "Run maison check again once it is up.").
func (e *Error) AdviceOnce(again string) string { return e.advice(again) }

// advice is Advice, or AdviceOnce when again is not empty.
func (e *Error) advice(again string) string {
	// retry ends the last sentence: with running, its end for a maison that
	// keeps running, or with a full stop and again.
	retry := func(running string) string {
		if again == "" {
			return running
		}
		return ". " + again
	}
	if a := aiTaskAdvice(e); a != "" {
		return a
	}
	switch e.Kind {
	case KindUnreachable:
		if certificateRefused(e.Err) {
			return "Home Assistant's certificate is not valid for the address in MAISON_HA_URL (it names another host, or no authority this machine trusts signed it). " +
				"This does not change by waiting, and it does not mean Home Assistant is down or the token is wrong. " +
				"Give MAISON_HA_URL the name the certificate was issued for, such as https://home.example.com:8123, or Home Assistant's plain http address on your network if it serves one."
		}
		if errors.Is(e.Err, errSilent) {
			return "Something at the address in MAISON_HA_URL accepted the connection but did not answer as Home Assistant does. " +
				"If the address is wrong, this does not fix itself by waiting, and it does not mean the token is wrong. " +
				"Check the host and port in MAISON_HA_URL (for example http://homeassistant.local:8123), and that Home Assistant answers there, not another service or a proxy that holds connections without passing them on."
		}
		return "Home Assistant cannot be reached over the network right now. " +
			"This usually lasts until it is started again or the network comes back, often a minute or two. " +
			"It does not mean the token is wrong or that anything in the house changed. " +
			"Check that MAISON_HA_URL points at Home Assistant (for example http://homeassistant.local:8123) and that it is running" +
			retry("; maison keeps retrying on its own.")
	case KindRestarting:
		return "Home Assistant is starting or restarting and is not answering yet. " +
			"This usually takes under a minute, sometimes a few minutes on a large installation. " +
			"It does not mean the token is wrong or that devices are offline" +
			retry(". Wait a moment and ask again; maison reconnects by itself.")
	case KindAuth:
		return "Home Assistant refused maison's access token. " +
			"Either the token is invalid or was revoked, or the user is marked \"Can only log in from the local network\" and maison reaches Home Assistant from an address it does not consider local (a VPN such as Tailscale, the cloud, or a proxy without trusted_proxies); Home Assistant answers both the same way. " +
			"This will not fix itself, and maison does not retry, because Home Assistant bans addresses after repeated failed logins. " +
			"Create a new long-lived token from the maison user's profile › Security, put it in MAISON_HA_TOKEN, and run maison from the local network or configure trusted_proxies."
	case KindAdminToken:
		return "The token in MAISON_HA_TOKEN belongs to an administrator, and maison refuses to run with administrator rights. " +
			"This is a setup choice, not a fault in Home Assistant, and it will not change by waiting. " +
			"Create a dedicated user: in Home Assistant open Settings › People, add a person, turn on \"Allow person to login\", turn on \"Can only log in from the local network\", leave \"Administrator\" off; then log in as that user, open the profile › Security, create a long-lived access token and put it in MAISON_HA_TOKEN."
	case KindNotAllowed:
		if strings.Contains(e.Op, "/api/mcp") {
			return "Home Assistant's older MCP endpoint refused maison's user because it is not an administrator. " +
				"This is Home Assistant's setting, not a temporary fault, and it does not mean the token is wrong. " +
				"Update Home Assistant to 2026.8 or later, which offers /api/mcp/assist to every user, or have an administrator turn off the admin requirement of the Model Context Protocol Server integration."
		}
		return "Home Assistant says maison's user is not allowed to do this. " +
			"This is a permission, not a temporary fault, and it does not mean the token is wrong. " +
			"maison runs as a non-administrator on purpose; use Home Assistant's own interface for administrator tasks."
	case KindForbidden:
		return "Home Assistant refused the request with 403 Forbidden. " +
			"Most often the address maison runs from was banned after failed logins, or a proxy in front of Home Assistant refuses it; a ban lasts until an administrator removes it. " +
			"It does not mean the device or camera is broken. " +
			"Ask an administrator to check ip_bans.yaml in Home Assistant's configuration folder and any proxy between maison and Home Assistant."
	case KindNotFound:
		if e.Op == wsOp {
			return "No Home Assistant answers at MAISON_HA_URL: something answers there, but not with Home Assistant's websocket API (/api/websocket). " +
				"This does not change by waiting. " +
				"Check the host and port in MAISON_HA_URL, which may be another service's address (a router, a NAS, another web server). " +
				"MAISON_HA_URL must be Home Assistant's address alone, such as http://homeassistant.local:8123, without the path of a page copied from the browser's address bar (/lovelace/…, /config/…, /api)."
		}
		return "Home Assistant does not know this name. " +
			"This does not change by waiting, and it does not mean Home Assistant is down. " +
			"Check the spelling or list what exists, then ask again with one of those names."
	case KindCameraOff:
		return "This camera is turned off in Home Assistant, so there is no picture. " +
			"It stays off until someone turns it on again. " +
			"It does not mean the camera is broken or that maison lost access. " +
			"Turn the camera on in Home Assistant, or look at another camera."
	case KindCameraFailed:
		return "Home Assistant could not get a picture from this camera. " +
			"This is often brief (a camera rebooting or a slow network) and usually passes within a minute. " +
			"It does not mean the other cameras or Home Assistant itself are down. " +
			"Try again in a moment; if it keeps failing, check the camera in Home Assistant."
	case KindTimeout:
		return "Home Assistant took too long to answer. " +
			"This is usually brief, a busy or slow network or a camera that answers slowly. " +
			"It does not mean the request was refused or that anything changed. " +
			"Try again in a moment."
	case KindCanceled:
		return "The request was abandoned before Home Assistant answered. " +
			"Nothing is wrong with Home Assistant. Ask again if the answer is still wanted."
	case KindNoAssist:
		return "Home Assistant does not offer its Assist tools to maison: its Model Context Protocol Server integration is not set up. " +
			"This is a one-time setup step and will not change by waiting. " +
			"It does not mean the token is wrong. " +
			"An administrator must add the integration (Settings › Devices & services › Add integration › Model Context Protocol Server) and expose the wanted entities to Assist (Settings › Voice assistants › Expose)."
	case KindLocalOnly:
		return "Home Assistant refused maison's login because the maison user may only log in from the local network, and maison reaches Home Assistant from an address it does not count as local: a VPN such as Tailscale (100.64.0.0/10), an IPv6 address outside fd00::/8, the Home Assistant cloud, or a proxy in front of Home Assistant without trusted_proxies. " +
			"This will not fix itself, and maison does not retry, because Home Assistant bans addresses after repeated failed logins. " +
			"It does not mean the token is wrong. " +
			"Run maison on the same local network as Home Assistant and point MAISON_HA_URL at its local address, or configure use_x_forwarded_for and trusted_proxies in Home Assistant for the proxy; keep \"Can only log in from the local network\" on."
	case KindAssistLoading:
		return "Home Assistant answers 404 on its Assist endpoint, as it does for a minute or two after a restart while its Model Context Protocol Server integration loads. " +
			"This usually passes by itself within a few minutes. " +
			"It does not mean the token is wrong or that devices are gone. " +
			"Wait a moment; if it lasts, check in Settings › Devices & services that the Model Context Protocol Server integration is set up and loaded."
	case KindServerError:
		return "Home Assistant failed while handling the request and answered with an internal error, as it does when a request runs past its own one-minute limit or an integration fails inside it. " +
			"This is usually passing. " +
			"It does not mean the token is wrong; an action may or may not have happened. " +
			"Check the device's state before trying again, and look at Home Assistant's log if it repeats."
	case KindBadRequest:
		return "Home Assistant refused a request from maison as malformed. " +
			"This will not change by waiting: this Home Assistant expects something else than this maison sends. " +
			"It does not mean the token is wrong or that anything changed. " +
			"Update maison (and Home Assistant) to current releases; if it persists, report it with the maison log."
	case KindNoHistory:
		return "Home Assistant's history cannot be read: its recorder is not running, is still starting, or failed. " +
			"Right after a restart this passes within a minute or two; otherwise it lasts until the recorder is fixed. " +
			"It does not mean the token is wrong or that nothing happened in the house. " +
			"Check the Recorder integration and Home Assistant's log; the current state of the house still answers."
	case KindProtocol:
		return "Home Assistant answered in a way maison did not expect. " +
			"This may pass after an update of Home Assistant or maison. " +
			"It does not mean the token is wrong. " +
			"Try again; if it persists, report it with the maison log."
	}
	return "Something went wrong talking to Home Assistant. Try again in a moment."
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
