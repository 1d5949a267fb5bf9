package tools

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"maison/camera"
	"maison/homeassistant"
	"maison/state"
	"maison/words"
)

// haTrouble says what went wrong reaching Home Assistant, and what to do.
func (s *server) haTrouble(err error) string {
	lang := s.deps.Lang
	if errors.Is(err, state.ErrUnavailable) || errors.Is(err, state.ErrFull) {
		// Not Home Assistant: maison's store of answers, so nothing was done.
		s.log.Warn("sensitive action refused: the store of answers cannot record it", "err", err)
		return words.StoreTrouble(lang, errors.Is(err, state.ErrFull))
	}
	var ce *camera.Error
	if errors.As(err, &ce) {
		if said := ce.Say(lang); said != "" {
			return said
		}
	}
	var he *homeassistant.Error
	if errors.As(err, &he) {
		if w := s.longOutage(he.Kind); w != "" {
			return w
		}
		return words.Trouble(lang, he.Kind)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// Home Assistant answered too slowly for this tool's deadline: it
		// is slow, not unreachable.
		return words.SlowAnswer(lang)
	}
	s.log.Warn("home assistant request failed", "err", err)
	return words.Unreached(lang)
}

// notConnected returns why Home Assistant's websocket cannot be used now,
// as an error haTrouble says, or nil when it can.
func (s *server) notConnected() error {
	if e := s.deps.HA.Offline(); e != nil {
		return e // not a nil *Error in a non-nil error
	}
	return nil
}

// longOutage is how long Home Assistant may stay out of reach before the
// words stop promising that it passes soon.
const longOutage = 3 * time.Minute

// longOutage words an outage of kind k that has lasted longer than a
// restart takes, or returns "" when it has not (or k is not an outage).
func (s *server) longOutage(k homeassistant.Kind) string {
	switch k {
	case homeassistant.KindUnreachable, homeassistant.KindRestarting, homeassistant.KindTimeout:
	default:
		return ""
	}
	st := s.deps.HA.Status()
	if st.Connected || st.Since.IsZero() {
		return ""
	}
	d := time.Since(st.Since) // the client's clock, not the answers'
	if d < longOutage {
		return ""
	}
	return words.LongOutage(s.deps.Lang, d)
}

// actionTrouble says what went wrong with an action asked of Home
// Assistant: as haTrouble, except that an action sent and not answered in
// time may still have happened, and one never sent did not.
func (s *server) actionTrouble(err error) string {
	if errors.Is(err, homeassistant.ErrNotSent) {
		return s.beforeAction(err)
	}
	if errors.Is(err, homeassistant.KindTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return words.ActionTooSlow(s.deps.Lang)
	}
	return s.haTrouble(err)
}

// beforeAction says what went wrong with Home Assistant before an action
// was sent: nothing was done, and why.
func (s *server) beforeAction(err error) string {
	return words.NothingDone(s.deps.Lang) + s.haTrouble(err)
}

// confirmFault puts into maison's words a tools/call that failed because
// the client's answer to the confirmation question could not be used. For
// a client older than multi-round-trip, the SDK itself puts maison's input
// request to the person (elicitation/create) and, when the answer is not
// an elicitation result, does not fit the form or is an error, fails the
// call with its own text and code 0. That is the client's invalid answer:
// invalid params (-32602), in words that say nothing was done. Other
// errors pass unchanged.
func (s *server) confirmFault(err error) error {
	if err == nil || !strings.Contains(err.Error(), "input request "+strconv.Quote(askID)) {
		return err
	}
	s.log.Info("the client's answer to the confirmation question cannot be used; nothing was done", "err", err)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: words.UnusableConfirmation(s.deps.Lang)}
}
