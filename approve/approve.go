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
// each reference (waiting, approved, declined, expired) is kept in the
// state store: its one answer is the first claimed, on any replica sharing
// the store or after a restart on the same file, and any of them tells
// the client the outcome. When the store cannot answer, nothing is
// approved. The action itself holds a confirm code, redeemed once when it
// is carried out, on the devices it reached when it was asked.
package approve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"maison/accesslog"
	"maison/confirm"
	"maison/homeassistant"
	"maison/state"
	"maison/voice"
)

// TTL is how long a reference stays valid: time to take out a phone.
const TTL = 5 * time.Minute

// maxEntries bounds what the desk remembers.
const maxEntries = 10_000

// KeepAnswered is how long the desk remembers a reference's answer
// (approved, declined or expired) after it was given, however long before
// the reference expires: its page, opened again, tells it that long.
const KeepAnswered = time.Hour

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
	At    time.Time // when it was approved, declined or expired; zero while Waiting
	Err   error     // why the state store could not say, when it could not
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
	// Store keeps the references, their answers and the requests each
	// client has waiting (MAISON_STATE_DIR, MAISON_STATE_URL): replicas
	// sharing it answer each reference once, and any of them tells the
	// client the outcome. Nil means this process's memory.
	Store state.Store
	// Notify names where Send sends each request's link
	// (MAISON_APPROVAL_NOTIFY): notify.<name>, a notify action such as the
	// companion app's notify.mobile_app_<phone> or a notify entity, and
	// homeassistant.PersistentNotification. Empty means nowhere: the link
	// is in the answer alone.
	Notify []string
	// Notifier sends them through Home Assistant. Required with Notify.
	Notifier Notifier
}

// Desk makes references and remembers what became of them, in the state
// store. It is safe for concurrent use.
type Desk struct {
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	store state.Store
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
	d := &Desk{cfg: cfg, log: cfg.Logger, now: cfg.Now, store: cfg.Store}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.now == nil {
		d.now = time.Now
	}
	if d.store == nil {
		d.store = state.NewMemory(0, d.now)
	}
	if d.cfg.After == nil {
		d.cfg.After = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	return d, nil
}

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
// ahead (the expiry of a.Code). A store that cannot record it is an error
// wrapping state.ErrUnavailable or state.ErrFull: nothing is asked.
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
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	exp := time.Unix(a.Exp, 0)
	if busy, err := d.join(ctx, now, a, exp); busy != nil || err != nil {
		if busy != nil {
			whose := "every client's"
			if busy.Mine {
				whose = "this client's"
			}
			d.line("approval refused: too many approval requests are waiting; nothing was done", a, "refused",
				"waiting", whose, "first_expires_in", busy.Wait.Round(time.Second))
			return Action{}, "", busy
		}
		return Action{}, "", fmt.Errorf("approve: the request cannot be recorded: %w", err)
	}
	// Kept past its expiry for a while, so the client still hears how it ended.
	if _, _, err := d.store.Claim(ctx, refKey(a.ID), payload, exp.Add(TTL)); err != nil {
		d.leave(ctx, a)
		return Action{}, "", fmt.Errorf("approve: the request cannot be recorded: %w", err)
	}
	// The same call asked again finds this one (Waiting) rather than
	// making another: a client repeating itself does not fill the desk.
	d.store.Claim(ctx, sameKey(a.Caller, a.Tool, a.Args), []byte(a.ID), exp)
	d.cfg.After(exp.Sub(now), func() { d.expire(a) })
	d.line("approval requested: waiting for a person on maison's page", a, "waiting")
	return a, d.link(payload), nil
}

// Waiting returns the reference caller already has waiting for the same
// tool and arguments, and its link, so that asking again, or passing a
// code where only the page counts, does not fill the desk with copies of
// one request.
func (d *Desk) Waiting(caller, tool string, args json.RawMessage) (Action, string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	id, err := d.store.Get(ctx, sameKey(caller, tool, args))
	if err != nil || id == nil {
		return Action{}, "", false
	}
	o := d.Outcome(caller, string(id))
	if o.State != Waiting || o.For.Tool != tool || string(o.For.Args) != string(args) {
		return Action{}, "", false
	}
	return o.For, o.Link, true
}

// sameKey is where the reference waiting for one client's call is found.
func sameKey(caller, tool string, args json.RawMessage) string {
	sum := sha256.Sum256([]byte(caller + "\x00" + tool + "\x00" + string(args)))
	return "approve:same:" + hex.EncodeToString(sum[:16])
}

// link is the page of the reference whose action marshals to payload.
func (d *Desk) link(payload []byte) string {
	return d.cfg.Origin + Path + "?r=" + url.QueryEscape(d.cfg.Signer.Seal(sealPurpose, payload))
}

// Where the desk keeps a reference: the action, its one answer (who took
// it: approved and running, declined or expired), how an approved one
// ended, and the requests waiting, each client's and everyone's.
func refKey(id string) string     { return "approve:ref:" + id }
func answerKey(id string) string  { return "approve:answer:" + id }
func outcomeKey(id string) string { return "approve:outcome:" + id }

const waitingAll = "approve:waiting"

func waitingKey(caller string) string {
	sum := sha256.Sum256([]byte(caller))
	return "approve:waiting:" + hex.EncodeToString(sum[:16])
}

// join counts a among the requests waiting: its client's, bounded at
// MaxWaitingPerClient, and everyone's, at maxEntries. A refusal is a
// *BusyError.
func (d *Desk) join(ctx context.Context, now time.Time, a Action, exp time.Time) (*BusyError, error) {
	ok, first, err := d.store.Join(ctx, waitingKey(a.Caller), a.ID, exp, MaxWaitingPerClient)
	if err != nil {
		return nil, err
	}
	if !ok {
		return &BusyError{Mine: true, Wait: first.Sub(now)}, nil
	}
	ok, first, err = d.store.Join(ctx, waitingAll, a.ID, exp, maxEntries)
	if err != nil || !ok {
		d.store.Leave(ctx, waitingKey(a.Caller), a.ID)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return &BusyError{Wait: first.Sub(now)}, nil
	}
	return nil, nil
}

// leave takes a out of the requests waiting.
func (d *Desk) leave(ctx context.Context, a Action) {
	d.store.Leave(ctx, waitingKey(a.Caller), a.ID)
	d.store.Leave(ctx, waitingAll, a.ID)
}

// answer is what the store keeps of a reference's answer, and of how an
// approved one ended.
type answer struct {
	State State  `json:"s"`
	Said  string `json:"w,omitempty"`
	At    int64  `json:"t,omitempty"` // when it was given, unix seconds
}

// keep is how long an answer to a is kept: past a's expiry a while, so the
// client still hears how it ended, and KeepAnswered after it was given, so
// its page still tells it.
func (d *Desk) keep(a Action) time.Time {
	return later(time.Unix(a.Exp, 0).Add(TTL), d.now().Add(KeepAnswered))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Outcome is what became of reference id for caller. Another caller's
// reference and an unknown one are Unknown; when the store cannot say,
// Err says why (state.ErrUnavailable) and the state is Unknown.
func (d *Desk) Outcome(caller, id string) Outcome {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	id = strings.TrimSpace(id)
	if !strings.HasPrefix(id, "a-") || len(id) > 64 {
		return Outcome{State: Unknown}
	}
	payload, err := d.store.Get(ctx, refKey(id))
	if err != nil {
		return Outcome{State: Unknown, Err: err}
	}
	var a Action
	if payload == nil || json.Unmarshal(payload, &a) != nil || a.ID != id || a.Caller != caller {
		return Outcome{State: Unknown}
	}
	o, err := d.record(ctx, a)
	if err != nil {
		return Outcome{State: Unknown, Err: err}
	}
	if o.State == Waiting && !d.now().Before(o.Exp) {
		d.expire(a)
		if o, err = d.record(ctx, a); err != nil {
			return Outcome{State: Unknown, Err: err}
		}
	}
	o.Link = d.link(payload)
	return o
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
		d.expire(a)
		return a, errExpired
	}
	return a, nil
}

// expire takes a's one answer as expired when it is still waiting past its
// time, writing its line, once across every replica sharing the store:
// when it expires, or when it is next looked at.
func (d *Desk) expire(a Action) {
	if d.now().Before(time.Unix(a.Exp, 0)) {
		return
	}
	if _, ok, err := d.begin(a, Expired); ok && err == nil {
		d.line("approval expired: nobody answered in time; nothing was done", a, "expired")
	}
}

// record is where a stands, whoever asked: Waiting while it can still be
// answered, else its answer, when it was given and, once carried out,
// what was said.
func (d *Desk) record(ctx context.Context, a Action) (Outcome, error) {
	o := Outcome{State: Waiting, For: a, Exp: time.Unix(a.Exp, 0)}
	held, err := d.store.Get(ctx, answerKey(a.ID))
	if err != nil || held == nil {
		return o, err
	}
	var an answer
	if json.Unmarshal(held, &an) != nil {
		o.State = Unknown
		return o, nil
	}
	o.State, o.Said, o.At = an.State, an.Said, time.Unix(an.At, 0)
	if an.State != Running {
		return o, nil
	}
	ended, err := d.store.Get(ctx, outcomeKey(a.ID))
	if err != nil || ended == nil {
		return o, err
	}
	var end answer
	if json.Unmarshal(ended, &end) != nil {
		o.State = Unknown
		return o, nil
	}
	o.State, o.Said = end.State, end.Said
	return o, nil
}

// begin takes a's one answer, on every replica sharing the store: to
// (Running, Declined or Expired) when a is still waiting, or false with
// where it already stands. A store that cannot record it is an error
// (wrapping state.ErrUnavailable or state.ErrFull), and nothing is taken.
func (d *Desk) begin(a Action, to State) (Outcome, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	at := d.now()
	if to == Expired {
		at = time.Unix(a.Exp, 0)
	}
	v, _ := json.Marshal(answer{State: to, At: at.Unix()})
	won, _, err := d.store.Claim(ctx, answerKey(a.ID), v, d.keep(a))
	if err != nil {
		return Outcome{State: Unknown, For: a}, false, err
	}
	if !won {
		o, err := d.record(ctx, a)
		return o, false, err
	}
	d.leave(ctx, a)
	return Outcome{State: to, For: a, Exp: time.Unix(a.Exp, 0), At: at}, true, nil
}

// settle records how a carried-out action ended.
func (d *Desk) settle(a Action, s State, said string) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	v, _ := json.Marshal(answer{State: s, Said: said, At: d.now().Unix()})
	if _, _, err := d.store.Claim(ctx, outcomeKey(a.ID), v, d.keep(a)); err != nil {
		d.log.Warn("approval carried out, but its outcome could not be recorded: the client will hear it is still running until it expires", "client", a.Client, "tool", a.Tool, "err", err)
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
	o := d.Outcome(caller, id)
	if o.State != Waiting {
		return
	}
	if _, ok, err := d.begin(o.For, Declined); ok && err == nil {
		d.line("approval declined by the person in the app; nothing was done", o.For, "declined")
	}
}
