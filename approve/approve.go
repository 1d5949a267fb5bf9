// Package approve is the approval of sensitive actions (unlocking,
// opening, disarming) by a person on maison's own page, where no MCP call
// can stand in for them: a sensitive call gets a link carrying a signed,
// single-use, short-lived reference to the exact action (the tool, its
// arguments, the devices they reached, the client that asked); the page
// shows the action in the house's words and, once the operator proves who
// they are (the sign-in page's password or Cloudflare Access), maison
// carries the action out itself and says what Home Assistant did. The
// client that asked hears the outcome by passing the reference back.
//
// The reference is sealed with the confirmations' key (confirm.Signer), so
// any replica sharing MAISON_CONFIRM_KEY shows the page. What happened to
// each reference (waiting, approved, declined) is kept in bounded memory,
// per process: on several replicas, a reference could be answered once on
// each within its five minutes, and a client hears the outcome only from
// the replica that carried it out. The action itself holds a confirm code,
// redeemed once when it is carried out, on the devices it reached when it
// was asked.
package approve

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"maison/accesslog"
	"maison/confirm"
	"maison/homeassistant"
	"maison/voice"
)

// TTL is how long a reference stays valid: time to take out a phone.
const TTL = 5 * time.Minute

// maxEntries bounds what the desk remembers.
const maxEntries = 10_000

// Path is where the approval page is served.
const Path = "/approve"

// sealPurpose keeps references apart from anything else the key seals.
const sealPurpose = "approve-reference"

// Action is one sensitive call waiting for a person's approval, exactly as
// it would be carried out.
type Action struct {
	ID         string          `json:"i"`            // the reference, "a-…", as the client passes it back
	Caller     string          `json:"c"`            // who asked, as the tools bind confirmations
	Client     string          `json:"ci"`           // the client's id, as logged
	ClientName string          `json:"cn,omitempty"` // the name the client gives itself, not verified
	Tool       string          `json:"t"`
	Canonical  string          `json:"k"`           // the Assist intent carried out
	Args       json.RawMessage `json:"a"`           // the call's target, as the tools read it
	What       string          `json:"w"`           // what will happen, in the house's language
	Where      string          `json:"r,omitempty"` // the rooms of the devices reached
	Zone       string          `json:"z,omitempty"` // the house's time zone, for the times shown
	Code       string          `json:"cc"`          // the confirmation redeemed when it is carried out
	Asked      int64           `json:"at"`          // unix seconds
	Exp        int64           `json:"x"`           // unix seconds
}

// CarryOut carries out an approved action through the same path as a
// confirmed tool call, and says what Home Assistant did; done is false
// when nothing was done (why in said).
type CarryOut func(ctx context.Context, a Action) (said string, done bool)

// State is where a reference stands.
type State int

// The states of a reference.
const (
	Unknown  State = iota // never seen here, or another client's
	Waiting               // no answer yet
	Running               // approved, being carried out
	Done                  // approved and carried out
	NotDone               // approved, but Home Assistant did not confirm it
	Declined              // declined by the person
	Expired               // no answer in time
)

// Outcome is what happened to a reference, as its client hears it.
type Outcome struct {
	State State
	For   Action    // the action it was made for
	Said  string    // what Home Assistant did, or why nothing was done
	Link  string    // the page, while Waiting
	Exp   time.Time // when it expires
}

// Config sets up a Desk.
type Config struct {
	// Signer seals references (the confirmations' signer). Required.
	Signer *confirm.Signer
	// Origin is the public origin the page is reached at
	// (MAISON_PUBLIC_URL). Required.
	Origin string
	// Lang is the page's language, the house's. Zero means English.
	Lang voice.Lang
	// Logger receives one line per proposal, approval, decline and expiry.
	// Nil means discard.
	Logger *slog.Logger
	// Now is the clock. Nil means time.Now.
	Now func() time.Time
	// After runs f once d has passed, to write a request's expiry line when
	// it expires. Nil means time.AfterFunc.
	After func(d time.Duration, f func())
	// Notify names where Send sends each request's link
	// (MAISON_APPROVAL_NOTIFY): notify.<name>, a notify action such as the
	// companion app's notify.mobile_app_<phone> or a notify entity, and
	// homeassistant.PersistentNotification. Empty means nowhere: the link
	// is in the answer alone.
	Notify []string
	// Notifier sends them through Home Assistant. Required with Notify.
	Notifier Notifier
}

// Desk makes references and remembers what became of them. It is safe for
// concurrent use.
type Desk struct {
	cfg Config
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*entry
	swept   time.Time
}

type entry struct {
	a     Action
	state State
	said  string
	link  string
}

// New returns a Desk.
func New(cfg Config) (*Desk, error) {
	if cfg.Signer == nil || cfg.Origin == "" {
		return nil, errors.New("approve: a signer and the public origin are required")
	}
	if len(cfg.Notify) > 0 && cfg.Notifier == nil {
		return nil, errors.New("approve: sending links needs a notifier")
	}
	for _, t := range cfg.Notify {
		if !homeassistant.ValidNotifyTarget(t) {
			return nil, fmt.Errorf("approve: %q is neither %s nor notify.<name>", t, homeassistant.PersistentNotification)
		}
	}
	if cfg.Lang == "" {
		cfg.Lang = voice.English
	}
	d := &Desk{cfg: cfg, log: cfg.Logger, now: cfg.Now, entries: map[string]*entry{}}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.now == nil {
		d.now = time.Now
	}
	if d.cfg.After == nil {
		d.cfg.After = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	return d, nil
}

// Lang is the page's language.
func (d *Desk) Lang() voice.Lang { return d.cfg.Lang }

// MaxWaitingPerClient bounds the references one client may have waiting at
// once, so that one client filling the desk does not block the others.
const MaxWaitingPerClient = 20

// ErrBusy is a proposal refused because too many references are waiting:
// the client's own (MaxWaitingPerClient), or the desk's (from many
// clients). The error is a *BusyError.
var ErrBusy = errors.New("approve: too many approvals are waiting")

// BusyError is a proposal refused for too many references waiting.
type BusyError struct {
	Mine bool          // the client's own references fill its share; else the desk is full
	Wait time.Duration // until the first of those waiting expires
}

func (e *BusyError) Error() string {
	if e.Mine {
		return "approve: too many of this client's approvals are waiting"
	}
	return ErrBusy.Error()
}

// Is makes errors.Is(err, ErrBusy) hold.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Propose makes a's reference (its ID, when it was asked) and the link to
// its page, and remembers it as waiting. a.Exp must be set, at most TTL
// ahead (the expiry of a.Code).
func (d *Desk) Propose(a Action) (Action, string, error) {
	now := d.now()
	a.ID = newID()
	a.Asked = now.Unix()
	if a.Exp <= a.Asked || a.Exp > now.Add(TTL).Unix()+1 {
		return Action{}, "", errors.New("approve: an action's expiry must be within TTL")
	}
	payload, err := json.Marshal(a)
	if err != nil {
		return Action{}, "", err
	}
	link := d.cfg.Origin + Path + "?r=" + url.QueryEscape(d.cfg.Signer.Seal(sealPurpose, payload))
	d.mu.Lock()
	d.sweep(now)
	if busy := d.busy(now, a.Caller); busy != nil {
		d.mu.Unlock()
		whose := "every client's"
		if busy.Mine {
			whose = "this client's"
		}
		d.line("approval refused: too many approval requests are waiting; nothing was done", a, "refused",
			"waiting", whose, "first_expires_in", busy.Wait.Round(time.Second))
		return Action{}, "", busy
	}
	d.entries[a.ID] = &entry{a: a, state: Waiting, link: link}
	d.mu.Unlock()
	d.cfg.After(time.Unix(a.Exp, 0).Sub(now), func() { d.expire(a.ID) })
	d.line("approval requested: waiting for a person on maison's page", a, "waiting")
	return a, link, nil
}

// busy refuses a new reference for caller when the caller already has
// MaxWaitingPerClient waiting, or the desk remembers maxEntries; nil
// otherwise. Call with mu held.
func (d *Desk) busy(now time.Time, caller string) *BusyError {
	mine := 0
	var first, firstMine time.Time
	for _, e := range d.entries {
		exp := time.Unix(e.a.Exp, 0)
		if e.state != Waiting || !now.Before(exp) {
			continue
		}
		if first.IsZero() || exp.Before(first) {
			first = exp
		}
		if e.a.Caller == caller {
			mine++
			if firstMine.IsZero() || exp.Before(firstMine) {
				firstMine = exp
			}
		}
	}
	switch {
	case mine >= MaxWaitingPerClient:
		return &BusyError{Mine: true, Wait: firstMine.Sub(now)}
	case len(d.entries) >= maxEntries:
		wait := TTL // what is remembered is answered or expired: it is forgotten within this
		if !first.IsZero() {
			wait = first.Sub(now)
		}
		return &BusyError{Wait: wait}
	}
	return nil
}

// Outcome is what became of reference id for caller. Another caller's
// reference, an unknown one and one this process never saw are Unknown.
func (d *Desk) Outcome(caller, id string) Outcome {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sweep(d.now())
	e, ok := d.entries[strings.TrimSpace(id)]
	if !ok || e.a.Caller != caller {
		return Outcome{State: Unknown}
	}
	if e.state == Waiting && !d.now().Before(time.Unix(e.a.Exp, 0)) {
		e.state = Expired
		d.line("approval expired: nobody answered in time; nothing was done", e.a, "expired")
	}
	return Outcome{State: e.state, For: e.a, Said: e.said, Link: e.link, Exp: time.Unix(e.a.Exp, 0)}
}

// errBadLink and errExpired are why a page's reference is refused.
var (
	errBadLink = errors.New("approve: not a reference maison made")
	errExpired = errors.New("approve: the reference expired")
)

// open reads a reference from a link: errBadLink when maison did not make
// it, errExpired (with the action) when it is past its time.
func (d *Desk) open(sealed string) (Action, error) {
	payload, err := d.cfg.Signer.Open(sealPurpose, sealed)
	if err != nil {
		return Action{}, errBadLink
	}
	var a Action
	if err := json.Unmarshal(payload, &a); err != nil || a.ID == "" {
		return Action{}, errBadLink
	}
	if !d.now().Before(time.Unix(a.Exp, 0)) {
		d.expire(a.ID)
		return a, errExpired
	}
	return a, nil
}

// expire marks reference id as expired when it is still waiting past its
// time, writing its line the first time: when it expires, or when it is
// next looked at.
func (d *Desk) expire(id string) {
	d.mu.Lock()
	e, ok := d.entries[id]
	first := ok && e.state == Waiting && !d.now().Before(time.Unix(e.a.Exp, 0))
	var a Action
	if first {
		e.state, a = Expired, e.a
	}
	d.mu.Unlock()
	if first {
		d.line("approval expired: nobody answered in time; nothing was done", a, "expired")
	}
	// A reference this process never knew, or forgot, was proposed and
	// expired elsewhere: its line was written there, and a link opened
	// again and again writes no more.
}

// answered reports the state of a reference that was already answered, or
// Waiting when it can still be answered.
func (d *Desk) answered(a Action) State {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[a.ID]; ok {
		return e.state
	}
	return Waiting
}

// begin takes a's one answer: to (Running or Declined) when a is still
// waiting here, or false with what it already is. A reference this process
// did not make (another replica's) is remembered from now.
func (d *Desk) begin(a Action, to State) (State, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[a.ID]
	if ok && e.state != Waiting {
		return e.state, false
	}
	if !ok {
		d.sweep(d.now())
		if len(d.entries) >= maxEntries {
			return Unknown, false // flooded: refuse rather than forget
		}
		e = &entry{a: a}
		d.entries[a.ID] = e
	}
	e.state = to
	return to, true
}

// settle records how a carried-out action ended.
func (d *Desk) settle(a Action, s State, said string) {
	d.mu.Lock()
	if e, ok := d.entries[a.ID]; ok {
		e.state, e.said = s, said
	}
	d.mu.Unlock()
}

// sweep forgets what expired a while ago, writing the line of each
// reference that expired unanswered, at most every ten seconds. Call with
// mu held.
func (d *Desk) sweep(now time.Time) {
	if now.Sub(d.swept) < 10*time.Second && len(d.entries) < maxEntries {
		return
	}
	d.swept = now
	for id, e := range d.entries {
		exp := time.Unix(e.a.Exp, 0)
		if e.state == Waiting && !now.Before(exp) {
			e.state = Expired
			d.line("approval expired: nobody answered in time; nothing was done", e.a, "expired")
		}
		// Kept past expiry for a while, so the client still hears how it ended.
		if now.Sub(exp) > TTL {
			delete(d.entries, id)
		}
	}
}

// line writes one audit line about a: the client, the device and action
// in words, and the outcome. Never the reference, the code or a password.
func (d *Desk) line(msg string, a Action, outcome string, extra ...any) {
	attrs := []any{"client", a.Client}
	if a.ClientName != "" {
		attrs = append(attrs, "client_name", accesslog.Text(a.ClientName))
	}
	attrs = append(attrs, "tool", a.Tool, "action", accesslog.Text(a.What), "outcome", outcome)
	d.log.Info(msg, append(attrs, extra...)...)
}

// newID is a reference's id: 80 random bits, readable aloud.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return "a-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Decline records that the person declined reference id in the client's
// own window (a URL-mode elicitation dismissed), when it is caller's and
// still waiting: the page no longer approves it.
func (d *Desk) Decline(caller, id string) {
	d.mu.Lock()
	e, ok := d.entries[id]
	if !ok || e.a.Caller != caller || e.state != Waiting {
		d.mu.Unlock()
		return
	}
	e.state = Declined
	a := e.a
	d.mu.Unlock()
	d.line("approval declined by the person in the app; nothing was done", a, "declined")
}
