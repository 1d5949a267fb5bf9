package words

import (
	"strconv"
	"time"

	"maison/voice"
)

// The door's refusals: what an MCP client reads when maison's HTTP front
// refuses a request before any tool runs. Each says what happened, that
// nothing was done, and what to do.

// DoorNotPost refuses a method other than POST on /mcp.
func DoorNotPost(l voice.Lang) string {
	return say(l, "door.not_post")
}

// DoorNotLoopback refuses a name other than localhost when maison runs
// without a token.
func DoorNotLoopback(l voice.Lang) string {
	return say(l, "door.not_loopback")
}

// DoorShuttingDown refuses a request while maison drains.
func DoorShuttingDown(l voice.Lang) string {
	return say(l, "door.shutting_down")
}

// DoorTooManyRequests refuses a client over its rate: limit requests per
// period, the next one allowed after wait.
func DoorTooManyRequests(l voice.Lang, limit int, period, wait time.Duration) string {
	return say(l, "door.too_many_requests", "limit", strconv.Itoa(limit), "period", l.DurationDigits(period), "wait", l.DurationDigits(wait))
}

// DoorBusy refuses a request that found no room within the queue's wait.
func DoorBusy(l voice.Lang, within time.Duration) string {
	return say(l, "door.busy", "within", l.DurationDigits(within))
}

// DoorBodiesHeld refuses a client already sending kb kilobytes of bodies
// still arriving, its whole share.
func DoorBodiesHeld(l voice.Lang, kb int) string {
	return say(l, "door.bodies_held", "kb", strconv.Itoa(kb))
}

// DoorWrongTokens refuses an address that sent too many wrong tokens, until
// wait has passed.
func DoorWrongTokens(l voice.Lang, wait time.Duration) string {
	return say(l, "door.wrong_tokens", "wait", l.DurationDigits(wait))
}

// DoorNoToken refuses a request without a right token: oauth says maison
// signs clients in with OAuth, presented that a token was sent and refused.
func DoorNoToken(l voice.Lang, oauth, presented bool) string {
	msg := say(l, "door.no_token.static")
	if oauth {
		msg = say(l, "door.no_token.oauth")
	}
	if presented {
		msg = say(l, "door.no_token.refused", "advice", msg)
	}
	return msg
}

// DoorNoHost refuses a request that names no host.
func DoorNoHost(l voice.Lang) string {
	return say(l, "door.no_host")
}

// DoorBadHostPort refuses a Host, name, whose port is not a port.
func DoorBadHostPort(l voice.Lang, name string) string {
	return say(l, "door.bad_host_port", "name", quoted(l, name))
}

// DoorHostNotAllowed refuses a name maison does not answer to.
func DoorHostNotAllowed(l voice.Lang, name string) string {
	return say(l, "door.host_not_allowed", "name", quoted(l, name))
}

// DoorForeignOrigin refuses a request from a web page, page, maison does
// not serve.
func DoorForeignOrigin(l voice.Lang, page string) string {
	return say(l, "door.foreign_origin", "page", quoted(l, page))
}

// quoted puts a name from outside in the quotation marks of l.
func quoted(l voice.Lang, s string) string {
	return say(l, "door.quoted", "name", s)
}

// DoorHeadersTooLarge answers, for Go's server, headers over its limit.
func DoorHeadersTooLarge(l voice.Lang) string {
	return say(l, "door.headers_too_large")
}

// DoorTransferEncoding answers, for Go's server, a transfer encoding it
// does not read.
func DoorTransferEncoding(l voice.Lang) string {
	return say(l, "door.transfer_encoding")
}

// DoorHTTPVersion says maison does not speak the request's HTTP version.
func DoorHTTPVersion(l voice.Lang) string {
	return say(l, "door.http_version")
}

// DoorMalformedHTTP answers, for Go's server, a request that is not HTTP;
// detail is what Go said of it, or "".
func DoorMalformedHTTP(l voice.Lang, detail string) string {
	why := ""
	if detail != "" {
		why = " (" + detail + ")"
	}
	return say(l, "door.malformed_http", "why", why)
}
