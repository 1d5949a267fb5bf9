package approve

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/confirm"
	"maison/internal/testkit"
	"maison/internal/webpage"
	"maison/state"
	"maison/voice"
)

const password = "the password of this test house"

// clock is a clock the tests move by hand.
type clock = testkit.Clock

// prover checks the password, counting wrong ones down from five.
type prover struct{ left atomic.Int32 }

func (p *prover) AsksPassword() bool                        { return true }
func (p *prover) AccessEmail(*http.Request) (string, error) { return "", nil }
func (p *prover) ProveOperator(_ *http.Request, pw string) webpage.Proof {
	if p.left.Load() <= 0 {
		return webpage.Proof{Wait: time.Minute}
	}
	if pw != password {
		left := int(p.left.Add(-1))
		if left == 0 {
			return webpage.Proof{WrongPassword: true, Wait: 30 * time.Minute} // as oauth says the last one
		}
		return webpage.Proof{WrongPassword: true, Left: left}
	}
	return webpage.Proof{By: "operator"}
}

// rig is a desk behind its page, counting what was carried out.
type rig struct {
	t       *testing.T
	clock   *clock
	desk    *Desk
	srv     *httptest.Server
	carried atomic.Int32
	release chan struct{} // when set, carrying out waits for it
	said    string        // what Home Assistant says when carried out; "" for the lock unlocked
	timers  syncTimers    // what the desk asked to run later, run by the test
	logs    testkit.Buffer
}

// syncTimers keeps what the desk asks to run once a time has passed, for
// the test to run when its clock has passed it.
type syncTimers struct {
	mu sync.Mutex
	f  []func()
}

func (s *syncTimers) after(_ time.Duration, f func()) {
	s.mu.Lock()
	s.f = append(s.f, f)
	s.mu.Unlock()
}

// run runs every function kept so far.
func (s *syncTimers) run() {
	s.mu.Lock()
	f := s.f
	s.f = nil
	s.mu.Unlock()
	for _, g := range f {
		g()
	}
}

func newRig(t *testing.T, lang voice.Lang) *rig { return newRigOn(t, lang, nil, nil) }

// newRigOn is newRig with its desk on store (nil: memory) and clock (nil:
// a clock of its own from now).
func newRigOn(t *testing.T, lang voice.Lang, store state.Store, c *clock) *rig {
	if c == nil {
		c = testkit.NewClock(time.Now())
	}
	r := &rig{t: t, clock: c}
	mux := http.NewServeMux()
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	d, err := New(Config{Signer: confirm.NewStored([]byte("k"), store), Origin: r.srv.URL, Lang: lang, Now: r.clock.Now, After: r.timers.after, Logger: slog.New(slog.NewTextHandler(&r.logs, nil)), Store: store})
	if err != nil {
		t.Fatal(err)
	}
	r.desk = d
	p := &prover{}
	p.left.Store(5)
	mux.Handle(Path, d.Handler(p, func(ctx context.Context, a Action) (string, bool) {
		if r.release != nil {
			<-r.release
		}
		r.carried.Add(1)
		if r.said != "" {
			return r.said, true
		}
		return "The “Front Door Lock” is unlocked.", true
	}, nil))
	return r
}

// propose makes a reference for caller.
func (r *rig) propose(caller string) (Action, string) {
	args, _ := json.Marshal(map[string]string{"name": "Front Door Lock"})
	a, link, err := r.desk.Propose(Action{Caller: caller, Client: "dcr-1", ClientName: "Claude", Tool: "turn_off", Canonical: "HassTurnOff",
		Args: args, What: "unlock the “Front Door Lock”", Where: "Entrance", Code: "c-x", Exp: r.clock.Now().Add(TTL).Unix()})
	if err != nil {
		r.t.Fatal(err)
	}
	return a, link
}

// browser is a client with its own cookies, as one browser is.
type browser struct {
	r *rig
	c *http.Client
}

func (r *rig) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{r: r, c: &http.Client{Jar: jar}}
}

var hidden = regexp.MustCompile(`name="(r|b)" value="([^"]*)"`)

// open shows the page and returns its form's fields.
func (b *browser) open(link string) (int, string, url.Values) {
	resp, err := b.c.Get(link)
	if err != nil {
		b.r.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	form := url.Values{}
	for _, m := range hidden.FindAllStringSubmatch(string(body), -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	return resp.StatusCode, htmlUnescape(string(body)), form
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#39;", "'", "&quot;", `"`).Replace(s)
}

// post sends the form with action and password, with the headers a
// browser sends from the page.
func (b *browser) post(form url.Values, action, pw string, hdr map[string]string) (int, string) {
	f := url.Values{}
	for k, v := range form {
		f[k] = v
	}
	f.Set("action", action)
	if pw != "" {
		f.Set("password", pw)
	}
	req, _ := http.NewRequest("POST", b.r.srv.URL+Path, strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.r.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.r.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, htmlUnescape(string(body))
}

// Approved with the password, the action is carried out once, the page
// says what Home Assistant did, and the client that asked hears it.
func TestApproveCarriesOutOnceAndTheClientHears(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	a, link := r.propose("alice")
	if o := r.desk.Outcome("alice", a.ID); o.State != Waiting || o.Link != link {
		t.Fatalf("before: %+v", o)
	}
	b := r.browser()
	status, body, form := b.open(link)
	if status != 200 || !strings.Contains(body, "unlock the “Front Door Lock”") || !strings.Contains(body, "Claude") || !strings.Contains(body, "Entrance") {
		t.Fatalf("the page: %d %s", status, body)
	}
	status, body = b.post(form, "approve", password, nil)
	if status != 200 || !strings.Contains(body, "Home Assistant says: The “Front Door Lock” is unlocked.") {
		t.Fatalf("approve: %d %s", status, body)
	}
	if r.carried.Load() != 1 {
		t.Fatalf("carried out %d times", r.carried.Load())
	}
	if o := r.desk.Outcome("alice", a.ID); o.State != Done || !strings.Contains(o.Said, "unlocked") {
		t.Errorf("the client hears %+v", o)
	}
	if o := r.desk.Outcome("mallory", a.ID); o.State != Unknown || o.Said != "" {
		t.Errorf("another client hears %+v", o)
	}
	// Replayed, from the same browser with the same form: nothing more.
	if status, body := b.post(form, "approve", password, nil); status != http.StatusConflict || r.carried.Load() != 1 {
		t.Errorf("replay: %d, carried %d: %s", status, r.carried.Load(), body)
	}
	if n := strings.Count(r.logs.String(), "approval granted"); n != 1 || !strings.Contains(r.logs.String(), "outcome=done") || strings.Contains(r.logs.String(), password) {
		t.Errorf("%d approval lines, want one with its outcome and no password:\n%s", n, r.logs.String())
	}
	// Opened again: says how it was answered, no form.
	if status, body, _ := b.open(link); status != 200 || strings.Contains(body, "<form") || !strings.Contains(body, "was approved") {
		t.Errorf("opened again: %d %s", status, body)
	}
}

// GET and HEAD never decide; a cross-site post, a post from another
// browser, a changed reference, an expired one and a wrong password do
// nothing.
func TestNothingButTheBoundFormWithThePasswordActs(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	_, link := r.propose("alice")
	b := r.browser()
	_, _, form := b.open(link)
	for _, m := range []string{"HEAD", "GET"} {
		req, _ := http.NewRequest(m, link+"&action=approve&password="+url.QueryEscape(password), nil)
		resp, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	cases := []struct {
		name   string
		b      *browser
		form   url.Values
		pw     string
		hdr    map[string]string
		status int
	}{
		{"cross-site", b, form, password, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"another origin", b, form, password, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": ""}, 403},
		{"another browser", r.browser(), form, password, nil, 403},
		{"wrong password", b, form, "guess", nil, 401},
	}
	tampered := url.Values{"r": {strings.Replace(form.Get("r"), "A", "B", 1)}, "b": form["b"]}
	cases = append(cases, struct {
		name   string
		b      *browser
		form   url.Values
		pw     string
		hdr    map[string]string
		status int
	}{"changed reference", b, tampered, password, nil, 400})
	for _, c := range cases {
		status, body := c.b.post(c.form, "approve", c.pw, c.hdr)
		if status != c.status || !strings.Contains(body, "Nothing was done") {
			t.Errorf("%s: %d, want %d: %s", c.name, status, c.status, body)
		}
	}
	if r.carried.Load() != 0 {
		t.Fatalf("carried out %d times", r.carried.Load())
	}
	if _, body := b.post(form, "approve", "guess", nil); !strings.Contains(body, "tries left") && !strings.Contains(body, "One more") {
		t.Errorf("a wrong password does not say the tries left: %s", body)
	}
	r.clock.Add(TTL)
	if status, body := b.post(form, "approve", password, nil); status != http.StatusGone || !strings.Contains(body, "expired") {
		t.Errorf("expired: %d %s", status, body)
	}
	if r.carried.Load() != 0 {
		t.Fatalf("carried out %d times", r.carried.Load())
	}
}

// Two approvals at once from two browsers: one carries out, the other is
// told it was answered.
func TestTwoApprovalsAtOnceCarryOutOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	r.release = make(chan struct{})
	_, link := r.propose("alice")
	b1, b2 := r.browser(), r.browser()
	_, _, f1 := b1.open(link)
	_, _, f2 := b2.open(link)
	statuses := make(chan int, 2)
	for _, x := range []struct {
		b *browser
		f url.Values
	}{{b1, f1}, {b2, f2}} {
		go func() { s, _ := x.b.post(x.f, "approve", password, nil); statuses <- s }()
	}
	loser := <-statuses // the one that did not win returns while the winner waits
	close(r.release)
	winner := <-statuses
	if loser != http.StatusConflict || winner != 200 || r.carried.Load() != 1 {
		t.Errorf("statuses %d and %d, carried %d", loser, winner, r.carried.Load())
	}
}

// Decline does nothing, and the client hears it; the page is not frameable,
// runs no script, and is in French when the house is.
func TestDeclineAndThePage(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.French)
	a, link := r.propose("alice")
	b := r.browser()
	resp, err := b.c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "default-src 'none'") || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers: %v", resp.Header)
	}
	_, body, form := b.open(link)
	for _, want := range []string{`lang="fr"`, "Approuver", "Refuser", "Le mot de passe de cette maison"} {
		if !strings.Contains(body, want) {
			t.Errorf("the French page lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(body), "<script") || strings.Contains(body, "MAISON_") {
		t.Errorf("the page: %s", body)
	}
	status, body := b.post(form, "decline", "", nil)
	if status != 200 || !strings.Contains(body, "rien n'a été fait") || r.carried.Load() != 0 {
		t.Errorf("decline: %d %s", status, body)
	}
	if o := r.desk.Outcome("alice", a.ID); o.State != Declined {
		t.Errorf("the client hears %+v", o)
	}
	if status, _ := b.post(form, "approve", password, nil); status != http.StatusConflict || r.carried.Load() != 0 {
		t.Errorf("approve after decline: %d", status)
	}
}

// A reference expires unanswered: the client hears it, the page says so.
func TestExpiry(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	a, link := r.propose("alice")
	r.clock.Add(TTL + time.Second)
	if o := r.desk.Outcome("alice", a.ID); o.State != Expired {
		t.Errorf("the client hears %+v", o)
	}
	if status, body, _ := r.browser().open(link); status != http.StatusGone || strings.Contains(body, "<form") {
		t.Errorf("expired page: %d %s", status, body)
	}
	r.browser().open(link)
	if n := strings.Count(r.logs.String(), "approval expired"); n != 1 {
		t.Errorf("%d expiry lines, want one:\n%s", n, r.logs.String())
	}
	for _, want := range []string{"approval requested", "client=dcr-1", "client_name=Claude", "outcome=expired"} {
		if !strings.Contains(r.logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, r.logs.String())
		}
	}
}

// What an attacker can make of what they see: a reference sealed with
// another key, the page's binding passed as a reference, a reference
// whose action was rewritten, a form with its fields twice, a method
// that is not a form's, a decline from another site. Nothing is carried
// out, nothing is declined.
func TestForgedAndConfusedAnswers(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	a, link := r.propose("alice")
	b := r.browser()
	_, _, form := b.open(link)

	payload, _ := json.Marshal(a)
	otherKey := confirm.New([]byte("another key")).Seal(sealPurpose, payload)
	a2 := a
	a2.Tool, a2.What = "turn_on", "open the “Garage Door”"
	rewritten, _ := json.Marshal(a2)
	_, mac, _ := strings.Cut(form.Get("r"), ".")
	swapped := base64URL(rewritten) + "." + mac
	for name, ref := range map[string]string{
		"sealed with another key":  otherKey,
		"the binding as reference": form.Get("b"),
		"rewritten action":         swapped,
	} {
		f := url.Values{"r": {ref}, "b": form["b"]}
		if status, body := b.post(f, "approve", password, nil); status != http.StatusBadRequest || !strings.Contains(body, "not an approval request") {
			t.Errorf("%s: %d %s", name, status, body)
		}
		resp, err := b.c.Get(r.srv.URL + Path + "?r=" + url.QueryEscape(ref))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: shown with %d", name, resp.StatusCode)
		}
	}
	twice := url.Values{"r": {form.Get("r"), form.Get("r")}, "b": form["b"]}
	if status, _ := b.post(twice, "approve", password, nil); status != http.StatusBadRequest {
		t.Errorf("fields twice: %d", status)
	}
	req, _ := http.NewRequest("PUT", link, nil)
	if resp, err := b.c.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %v %v", err, resp.StatusCode)
	}
	if status, _ := b.post(form, "decline", "", map[string]string{"Sec-Fetch-Site": "cross-site"}); status != http.StatusForbidden {
		t.Errorf("a decline from another site: %d", status)
	}
	if o := r.desk.Outcome("alice", a.ID); o.State != Waiting || r.carried.Load() != 0 {
		t.Errorf("after the forgeries: %+v, carried %d", o, r.carried.Load())
	}
	// Still answerable by the person, at the end of it all.
	if status, _ := b.post(form, "approve", password, nil); status != 200 || r.carried.Load() != 1 {
		t.Errorf("the person's approval after the forgeries: %d, carried %d", status, r.carried.Load())
	}
}

func base64URL(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// One client filling the desk with requests blocks only itself: past its
// share, its requests are refused as its own (with the time until its
// first expires, and a line naming it), and another client's request is
// made and approved on the page.
func TestAFloodFromOneClientLeavesAnotherWorking(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	args, _ := json.Marshal(map[string]string{"name": "Front Door Lock"})
	refused := 0
	var last error
	for i := range maxEntries + 50 {
		_, _, err := r.desk.Propose(Action{Caller: "flooder", Client: "dcr-flood", Tool: "turn_off", Canonical: "HassTurnOff",
			Args: args, What: "unlock the “Front Door Lock”", Code: "c-x", Exp: r.clock.Now().Add(TTL).Unix()})
		if err != nil {
			refused++
			last = err
		}
		if i == 10 {
			r.clock.Add(time.Minute) // the first eleven expire a minute before the rest
		}
	}
	var busy *BusyError
	if refused != maxEntries+50-MaxWaitingPerClient || !errors.As(last, &busy) || !busy.Mine || !errors.Is(last, ErrBusy) {
		t.Fatalf("%d of the flood refused, the last with %v", refused, last)
	}
	if busy.Wait > 4*time.Minute || busy.Wait <= 4*time.Minute-time.Second { // expiries are whole seconds
		t.Errorf("the first of the flooder's requests expires in %v, said %v", 4*time.Minute, busy.Wait)
	}
	if !strings.Contains(r.logs.String(), "too many approval requests") || !strings.Contains(r.logs.String(), "client=dcr-flood") {
		t.Errorf("no line names the flooding client:\n%.2000s", r.logs.String())
	}
	_, link := r.propose("alice")
	b := r.browser()
	status, _, form := b.open(link)
	if status != 200 {
		t.Fatalf("alice's page: %d", status)
	}
	if status, body := b.post(form, "approve", password, nil); status != 200 || r.carried.Load() != 1 {
		t.Errorf("alice's approval: %d, carried %d: %s", status, r.carried.Load(), body)
	}
}

// The last wrong password the address may try says how long it waits and
// that another connection can still approve, with no password box; so
// does the page for the right password from that address.
func TestTheLastWrongPasswordSaysHowLongToWait(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang            voice.Lang
		wait, elsewhere string
	}{{voice.English, "Try again in ", "other addresses can still approve"}, {voice.French, "Réessayez dans ", "les autres adresses peuvent toujours approuver"}} {
		r := newRig(t, c.lang)
		_, link := r.propose("alice")
		b := r.browser()
		_, _, form := b.open(link)
		for range 4 {
			b.post(form, "approve", "guess", nil)
		}
		// In this order: the fifth wrong password locks the address out,
		// then even the right one waits.
		for _, try := range []struct{ pw, wait string }{{"guess", "30 min"}, {password, ""}} {
			pw, wait := try.pw, try.wait
			status, body := b.post(form, "approve", pw, nil)
			if status != http.StatusTooManyRequests || !strings.Contains(body, c.wait+wait) || !strings.Contains(body, c.elsewhere) || strings.Contains(body, `type="password"`) {
				t.Errorf("%s, %q from a locked-out address: %d %s", c.lang, pw, status, body)
			}
		}
		if r.carried.Load() != 0 {
			t.Errorf("carried out %d times", r.carried.Load())
		}
	}
}

// When Home Assistant did part of it, the page says what it did and what
// it did not, and nothing before claims it all was done.
func TestAPartOutcomeIsNotCalledDone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang  voice.Lang
		said  string
		claim []string
	}{
		{voice.English, "I unlocked the “Front Door Lock”. It did not work for the “Back Door Lock”.", []string{"carried out what you approved", "carried out"}},
		{voice.French, "J'ai déverrouillé « Front Door Lock ». Ça n'a pas marché pour « Back Door Lock ».", []string{"a fait ce que vous avez approuvé"}},
	} {
		r := newRig(t, c.lang)
		r.said = c.said
		_, link := r.propose("alice")
		b := r.browser()
		_, _, form := b.open(link)
		status, body := b.post(form, "approve", password, nil)
		if status != 200 || !strings.Contains(htmlUnescape(body), c.said) {
			t.Errorf("%s: %d %s", c.lang, status, body)
		}
		for _, claim := range c.claim {
			if strings.Contains(body, claim) {
				t.Errorf("%s: the page claims %q before %q", c.lang, claim, c.said)
			}
		}
	}
}

// A request nobody answers writes its expiry line when it expires, with
// no page opened and no client asking; its timer run early writes nothing.
func TestTheExpiryLineIsWrittenWhenItExpires(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.English)
	r.propose("alice")
	r.clock.Add(TTL - time.Second)
	r.timers.run() // early: the request still waits
	if strings.Contains(r.logs.String(), "approval expired") {
		t.Fatalf("an expiry line before the request expired:\n%s", r.logs.String())
	}
	r.propose("alice")
	r.clock.Add(TTL)
	r.timers.run()
	if n := strings.Count(r.logs.String(), "approval expired"); n != 1 {
		t.Errorf("%d expiry lines once the second request's timer ran, want one:\n%s", n, r.logs.String())
	}
}

// A link opened again says what its first answer was, calmly and with the
// time in the house's zone: approved (when, and what Home Assistant said),
// declined, or expired; never a form, never a red refusal. An approved
// answer is still told once the link itself has expired.
func TestASecondVisitTellsTheFirstAnswer(t *testing.T) {
	t.Parallel()
	house, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skipf("no time zone database for Europe/Paris: install Debian tzdata (%v)", err)
	}
	r := newRig(t, voice.English)
	zoned := func(caller string) (Action, string) {
		args, _ := json.Marshal(map[string]string{"name": "Front Door Lock"})
		a, link, err := r.desk.Propose(Action{Caller: caller, Client: "dcr-1", ClientName: "Claude", Tool: "turn_off", Canonical: "HassTurnOff",
			Args: args, What: "unlock the “Front Door Lock”", Where: "Entrance", Zone: "Europe/Paris", Code: "c-x", Exp: r.clock.Now().Add(TTL).Unix()})
		if err != nil {
			t.Fatal(err)
		}
		return a, link
	}
	at := func(tm time.Time) string { return voice.English.Clock(tm.In(house)) + " " + tm.In(house).Format("MST") }
	calm := func(name string, status int, body string, wantStatus int, want ...string) {
		t.Helper()
		if status != wantStatus || strings.Contains(body, "<form") || strings.Contains(body, `class="problem"`) {
			t.Errorf("%s: %d (want %d), a form or a red refusal:\n%s", name, status, wantStatus, body)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page does not say %q:\n%s", name, w, body)
			}
		}
	}

	_, approved := zoned("alice")
	b := r.browser()
	_, _, form := b.open(approved)
	approvedAt := r.clock.Now()
	if status, body := b.post(form, "approve", password, nil); status != 200 {
		t.Fatalf("approve: %d %s", status, body)
	}
	r.clock.Add(2 * time.Minute)
	status, body, _ := b.open(approved)
	calm("approved, opened again", status, body, 200, "<title>maison · Approved</title>", "approved "+at(approvedAt), "The “Front Door Lock” is unlocked.", "unlock the “Front Door Lock”")
	status, body, _ = r.browser().open(approved)
	calm("approved, opened in another browser", status, body, 200, "approved "+at(approvedAt), "The “Front Door Lock” is unlocked.")

	_, declined := zoned("alice")
	b = r.browser()
	_, _, form = b.open(declined)
	declinedAt := r.clock.Now()
	b.post(form, "decline", "", nil)
	status, body, _ = b.open(declined)
	calm("declined, opened again", status, body, 200, "<title>maison · Declined</title>", "declined "+at(declinedAt), "nothing was done")

	a, unanswered := zoned("alice")
	r.clock.Add(TTL + time.Second)
	status, body, _ = r.browser().open(unanswered)
	calm("expired", status, body, http.StatusGone, "<title>maison · Expired</title>", "expired "+at(time.Unix(a.Exp, 0)), "nothing was done")

	// Long after, the approval and the decline are still told as they were.
	r.clock.Add(30 * time.Minute)
	status, body, _ = b.open(approved)
	calm("approved, half an hour after it expired", status, body, 200, "approved "+at(approvedAt), "The “Front Door Lock” is unlocked.")
	status, body, _ = b.open(declined)
	calm("declined, half an hour after it expired", status, body, 200, "declined "+at(declinedAt))
	if r.carried.Load() != 1 {
		t.Errorf("carried out %d times, want once", r.carried.Load())
	}
}
