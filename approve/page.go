package approve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"maison/internal/webpage"
	"maison/state"
	"maison/voice"
	"maison/words"
)

// Prover checks that whoever answers on the page is the operator: the
// sign-in page's password or Cloudflare Access, with its lockouts
// (oauth.Server).
type Prover interface {
	// AsksPassword reports whether the operator password is asked for.
	AsksPassword() bool
	// AccessEmail is whom Cloudflare Access vouches for on r, "" when
	// Access is not used.
	AccessEmail(r *http.Request) (string, error)
	// ProveOperator checks a post's proof, counting the attempt.
	ProveOperator(r *http.Request, password string) webpage.Proof
}

// carryTimeout bounds carrying out an approved action, whatever the
// browser does meanwhile.
const carryTimeout = 25 * time.Second

// bindPurpose seals a page's binding to the browser it was shown in.
const bindPurpose = "approve-page"

// maxForm bounds a post's body.
const maxForm = 16 << 10

// page is the approval page's own part, inside maison's one layout.
var page = webpage.New("approve", `{{$W := .W}}{{with .Result}}<p class="{{$.Tone}}" role="status">{{.}}</p>{{end}}
{{if .A.ID}}{{if .Form}}<p>{{.W.Intro}}</p>{{end}}
<div class="card"><p class="what" id="what">{{.A.What}}</p>
<dl>{{with .A.Where}}<dt>{{$W.Where}}</dt><dd>{{.}}</dd>{{end}}
<dt>{{.W.App}}</dt><dd><span class="who">{{.App}}</span>{{if .A.ClientName}} <small>{{.W.Unverified}}</small>{{end}}</dd>
<dt>{{.W.Asked}}</dt><dd>{{.Asked}}</dd>
<dt>{{.W.Expires}}</dt><dd>{{.Expires}}</dd></dl></div>{{end}}
{{if .Form}}<form method="post" action="/approve">
<input type="hidden" name="r" value="{{.Ref}}"><input type="hidden" name="b" value="{{.Bind}}">
{{with .Email}}<p>{{$W.EmailIs}} <strong>{{.}}</strong></p>{{end}}
{{if .Password}}<label for="password">{{.W.PasswordLabel}}</label><input type="password" id="password" name="password" autocomplete="current-password" required autofocus>{{end}}
<div class="actions"><button class="primary" type="submit" name="action" value="approve">{{.W.Approve}}</button><button type="submit" name="action" value="decline" formnovalidate>{{.W.Decline}}</button></div>
</form>
<p><small>{{.W.Footer}}</small></p>{{end}}
{{with .After}}<p><small>{{.}}</small></p>{{end}}`)

// view is what one showing of the page holds.
type view struct {
	W                   words.ApprovePage
	A                   Action
	App, Asked, Expires string
	Form, Password      bool
	Email, Ref, Bind    string
	Result, After       string
	Tone                string // the result's look: done, problem, or note (neither)
}

// Handler serves the approval page at Path: GET and HEAD show it (and
// never decide anything), POST answers it. prove checks the operator;
// carry carries out what was approved.
func (d *Desk) Handler(prove Prover, carry CarryOut, clientAddr func(*http.Request) string) http.Handler {
	if clientAddr == nil {
		clientAddr = func(r *http.Request) string { return r.RemoteAddr }
	}
	h := &handler{d: d, prove: prove, carry: carry, addr: clientAddr}
	return http.HandlerFunc(h.serve)
}

type handler struct {
	d     *Desk
	prove Prover
	carry CarryOut
	addr  func(*http.Request) string
	lang  voice.Lang // the page's, for one request (serve)
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) {
	// The page speaks the browser's first language among maison's
	// (Accept-Language), else the house's: a copy for this request.
	h = &handler{d: h.d, prove: h.prove, carry: h.carry, addr: h.addr,
		lang: voice.Preferred(r.Header.Get("Accept-Language"), h.d.cfg.Lang)}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		h.show(w, r)
	case http.MethodPost:
		h.answer(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		h.problem(w, http.StatusMethodNotAllowed, words.ApproveBadRequest)
	}
}

// show draws the page for the reference in the link, with a fresh binding
// to this browser.
func (h *handler) show(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if len(q["r"]) != 1 {
		h.problem(w, http.StatusBadRequest, words.ApproveBadLink)
		return
	}
	a, ok := h.open(w, r, q.Get("r"), false)
	if !ok {
		return
	}
	email, err := h.prove.AccessEmail(r)
	if err != nil {
		h.d.log.Info("approval page refused: no valid Cloudflare Access assertion", "remote", h.addr(r), "err", err)
		h.problem(w, http.StatusForbidden, words.ApproveAccessRefused)
		return
	}
	h.form(w, r, http.StatusOK, a, q.Get("r"), email, "")
}

// form draws the page with its form, bound to this browser by a cookie
// whose digest the form carries, sealed: a post counts only from the
// browser the page was shown in. A browser that already holds a page's
// cookie for a keeps it, so that a second tab's form counts as well.
func (h *handler) form(w http.ResponseWriter, r *http.Request, status int, a Action, ref, email, problem string) {
	nonce := webpage.Random(18)
	if c, err := r.Cookie(h.cookieName(a.ID)); err == nil && len(c.Value) == len(nonce) {
		nonce = c.Value
	}
	exp := time.Unix(a.Exp, 0)
	http.SetCookie(w, h.cookie(a.ID, nonce, max(1, int(exp.Sub(h.d.now()).Seconds()))))
	bind := h.d.cfg.Signer.Seal(bindPurpose, []byte(a.ID+"\x00"+digest(nonce)))
	v := h.view(a)
	v.Form, v.Password, v.Email, v.Ref, v.Bind = true, h.prove.AsksPassword(), email, ref, bind
	h.write(w, status, v.W.Title, problem, v)
}

// answer takes the person's answer: only a same-site post, bound to the
// page this browser was shown, for a reference still waiting; Approve
// only with the operator's proof.
func (h *handler) answer(w http.ResponseWriter, r *http.Request) {
	addr := h.addr(r)
	if ok, why := webpage.FromThisSite(r, h.d.cfg.Origin); !ok {
		h.d.log.Warn("approval form refused: sent from another site", "remote", addr, "sent_by", why)
		h.problem(w, http.StatusForbidden, words.ApproveStaleForm)
		return
	}
	form, err := readForm(w, r)
	if err != nil {
		h.problem(w, http.StatusBadRequest, words.ApproveBadRequest)
		return
	}
	for _, k := range []string{"r", "b", "action"} {
		if len(form[k]) != 1 {
			h.problem(w, http.StatusBadRequest, words.ApproveBadRequest)
			return
		}
	}
	a, ok := h.open(w, r, form.Get("r"), true)
	if !ok {
		return
	}
	if !h.bound(r, a, form.Get("b")) {
		h.d.line("approval form refused: not from the page shown in this browser", a, "refused", "remote", addr)
		h.problem(w, http.StatusForbidden, words.ApproveStaleForm)
		return
	}
	switch form.Get("action") {
	case "decline":
		if o, ok, err := h.d.begin(a, Declined); !ok {
			h.told(w, o, true, err)
			return
		}
		h.clearCookie(w, a.ID)
		h.d.line("approval declined by the person; nothing was done", a, "declined", "remote", addr)
		v := h.view(a)
		v.Result, v.Tone, v.After = v.W.Declined, "note", ""
		h.write(w, http.StatusOK, v.W.DeclinedTitle, "", v)
		return
	case "approve":
	default:
		h.problem(w, http.StatusBadRequest, words.ApproveBadRequest)
		return
	}
	email, _ := h.prove.AccessEmail(r)
	proof := h.prove.ProveOperator(r, form.Get("password"))
	l := h.lang
	switch {
	case proof.Unchecked != nil:
		h.d.line("approval refused: the store of sign-in attempts cannot count the password", a, "refused", "remote", addr)
		h.unchecked(w, proof.Unchecked)
		return
	case proof.Wait > 0:
		// No form: this address may not try another password yet.
		why := words.ApproveLockedOut(l, proof.Wait, proof.Paused)
		if proof.WrongPassword {
			h.d.log.Warn("approval refused: wrong operator password", "client", a.Client, "remote", addr, "left", 0)
			why = words.WrongPasswordLast.In(l) + " " + why
		}
		h.d.line("approval refused: this address tried too many passwords and waits", a, "refused", "remote", addr, "retry_in", proof.Wait.Round(time.Second))
		w.Header().Set("Retry-After", strconv.Itoa(int(proof.Wait.Seconds())+1))
		wd := words.Approve(l)
		h.write(w, http.StatusTooManyRequests, wd.ProblemTitle, why, view{W: wd})
		return
	case proof.AccessRefused:
		h.d.line("approval refused: Cloudflare Access did not vouch for the sender", a, "refused", "remote", addr)
		h.problem(w, http.StatusForbidden, words.ApproveAccessRefused)
		return
	case proof.WrongPassword:
		h.d.log.Warn("approval refused: wrong operator password", "client", a.Client, "remote", addr, "left", proof.Left)
		h.form(w, r, http.StatusUnauthorized, a, form.Get("r"), email, words.ApproveWrongPassword.In(l)+" "+words.AttemptsLeft(l, proof.Left))
		return
	case proof.By == "":
		h.problem(w, http.StatusForbidden, words.ApproveNoProof)
		return
	}
	if o, ok, err := h.d.begin(a, Running); !ok {
		if err != nil {
			h.d.line("approval not carried out: the store of answers cannot record it", a, "refused", "remote", addr, "err", err)
		}
		h.told(w, o, true, err)
		return
	}
	h.clearCookie(w, a.ID)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), carryTimeout)
	said, done := h.carry(ctx, a)
	cancel()
	state, outcome := Done, "done"
	if !done {
		state, outcome = NotDone, "not done"
	}
	h.d.settle(a, state, said)
	h.d.line("approval granted by the person; maison acted", a, outcome, "by", proof.By, "remote", addr)
	v := h.view(a)
	v.Tone = "problem"
	if done {
		v.Tone = "done"
		v.Result = words.ApproveDone(l, said)
	} else {
		v.Result = words.ApproveFailed(l, said)
	}
	v.After = v.W.NothingElse
	title := v.W.DoneTitle
	if !done {
		title = v.W.NotConfirmedTitle
	}
	h.write(w, http.StatusOK, title, "", v)
}

// open reads the reference of a request that can still be answered, or
// answers with why it cannot: a link maison did not make, or the request's
// first answer (approved, declined, or expired), told again; posted says
// the page was sent back, rather than opened.
func (h *handler) open(w http.ResponseWriter, r *http.Request, ref string, posted bool) (Action, bool) {
	a, err := h.d.open(ref)
	if err != nil && !errors.Is(err, errExpired) {
		h.problem(w, http.StatusBadRequest, words.ApproveBadLink)
		return a, false
	}
	o, rerr := h.d.record(r.Context(), a)
	switch {
	case rerr != nil:
		h.unchecked(w, rerr)
		return a, false
	case o.State != Waiting:
		h.told(w, o, posted, nil)
		return a, false
	case errors.Is(err, errExpired):
		o.State = Unknown // expired, with no answer the store remembers
		h.told(w, o, posted, nil)
		return a, false
	}
	return a, true
}

// bound reports whether the post comes from the browser the page for a
// was shown in: its cookie's digest is the one the form carries, sealed
// for a.
func (h *handler) bound(r *http.Request, a Action, bind string) bool {
	c, err := r.Cookie(h.cookieName(a.ID))
	if err != nil {
		return false
	}
	got, err := h.d.cfg.Signer.Open(bindPurpose, bind)
	want := []byte(a.ID + "\x00" + digest(c.Value))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

// unchecked says that the store of answers (or of sign-in attempts)
// cannot say or record anything now: nothing was done.
func (h *handler) unchecked(w http.ResponseWriter, err error) {
	l := h.lang
	w.Header().Set("Retry-After", "60")
	h.write(w, http.StatusServiceUnavailable, words.Approve(l).ProblemTitle, words.StoreTrouble(l, errors.Is(err, state.ErrFull)), view{W: words.Approve(l)})
}

// told shows a request's first answer again, calmly, with its time in the
// house's zone: approved (and what Home Assistant said), declined, or
// expired; an expired one the store has no answer for is Unknown. Nothing
// more is done. A post (the same form sent twice, or after another tab
// answered) is answered 409 and says it counted for nothing; an expired
// request is 410 either way. err is a store that could not answer.
func (h *handler) told(w http.ResponseWriter, o Outcome, posted bool, err error) {
	l := h.lang
	if err != nil {
		h.unchecked(w, err)
		return
	}
	if o.For.ID == "" {
		h.problem(w, http.StatusConflict, words.ApproveUsed)
		return
	}
	v := h.view(o.For)
	v.Tone = "note"
	at := h.when(o.For, o.At)
	status, title := http.StatusOK, v.W.DoneTitle
	switch o.State {
	case Done:
		v.Result, v.Tone = words.ApprovedBefore(l, at, o.Said), "done"
	case NotDone:
		v.Result, title = words.ApprovedNotConfirmedBefore(l, at, o.Said), v.W.NotConfirmedTitle
	case Running:
		v.Result = words.ApprovedRunning(l, at)
	case Declined:
		v.Result, title = words.DeclinedBefore(l, at), v.W.DeclinedTitle
	case Expired:
		v.Result, title, status = words.ExpiredBefore(l, at), v.W.ExpiredTitle, http.StatusGone
	default:
		v.Result, title, status = words.ExpiredUnrecorded(l, h.when(o.For, o.Exp), KeepAnswered), v.W.ExpiredTitle, http.StatusGone
	}
	if posted && status == http.StatusOK { // answered before: this answer counts for nothing
		v.After, status = words.ApproveUsed.In(l), http.StatusConflict
	}
	h.write(w, status, title, "", v)
}

// problem draws the page with only why nothing was done.
func (h *handler) problem(w http.ResponseWriter, status int, why words.Key) {
	wd := words.Approve(h.lang)
	h.write(w, status, wd.ProblemTitle, why.In(h.lang), view{W: wd})
}

func (h *handler) write(w http.ResponseWriter, status int, title, problem string, v view) {
	webpage.Write(w, status, page, webpage.Frame{Lang: v.W.Lang, Title: title, Problem: problem, Body: v}, "", h.https())
}

// view is the page's facts about a, in the house's language.
func (h *handler) view(a Action) view {
	l := h.lang
	w := words.Approve(l)
	app := a.ClientName
	if strings.TrimSpace(app) == "" {
		app = w.Unnamed
	}
	return view{W: w, A: a, App: app, Asked: h.when(a, time.Unix(a.Asked, 0)), Expires: h.when(a, time.Unix(a.Exp, 0))}
}

// when says t as the page shows a time: the clock time in the house's
// zone (a's, else the machine's), with the zone's name, "at 2:05 PM CET".
func (h *handler) when(a Action, t time.Time) string {
	t = t.In(zone(a))
	return h.lang.Clock(t) + " " + t.Format("MST")
}

func (h *handler) https() bool { return strings.HasPrefix(h.d.cfg.Origin, "https://") }

// cookie is a page's cookie for reference id (webpage.Cookie), kept
// maxAge seconds, or deleted when negative.
func (h *handler) cookie(id, value string, maxAge int) *http.Cookie {
	return webpage.Cookie("maison-approve-"+id, value, maxAge, h.https())
}

func (h *handler) cookieName(id string) string { return h.cookie(id, "", 0).Name }

func (h *handler) clearCookie(w http.ResponseWriter, id string) {
	http.SetCookie(w, h.cookie(id, "", -1))
}

// readForm reads a small form post.
func readForm(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, errors.New("approve: not a form")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	if err != nil {
		return nil, err
	}
	return url.ParseQuery(string(body))
}

func digest(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}
