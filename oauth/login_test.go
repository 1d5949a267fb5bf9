package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"maison/internal/testkit"
	"maison/state"
)

// fromHeader names a request's address by a test header, as a trusted
// CF-Connecting-IP would.
func fromHeader(c *Config) {
	c.ClientAddr = func(r *http.Request) string { return r.Header.Get("X-Test-Addr") }
}

func from(addr string) func(*http.Request) {
	return func(req *http.Request) { req.Header.Set("X-Test-Addr", addr) }
}

// A distributed guess (a wrong password every few seconds from many
// addresses) never refuses the owner's right password from an address that
// has not failed; each wrong one costs its own sender a wait.
func TestGuessingNeverLocksTheOwnerOut(t *testing.T) {
	t.Parallel()
	r := newRig(t, fromHeader)
	client := r.register(claudeCallback)
	_, challenge := pkce()
	open := func(addr string) page {
		p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), from(addr))
		if p.status != 200 {
			t.Fatalf("page from %s: %d", addr, p.status)
		}
		return p
	}
	for i := range 60 {
		guesser := fmt.Sprintf("198.51.100.%d", i%8)
		if status, _, _ := r.submit(open(guesser), "a wrong guess "+itoa(i), "approve", []string{ScopeRead}, from(guesser)); status != 401 && status != 429 {
			t.Fatalf("guess %d: %d, want 401 or 429", i, status)
		}
		if i%4 == 0 {
			owner := "203.0.113.7"
			status, h, body := r.submit(open(owner), testPassword, "approve", []string{ScopeRead}, from(owner))
			if status != 303 || !strings.Contains(h.Get("Location"), "code=") {
				t.Fatalf("the owner's right password after %d wrong ones from elsewhere: %d %.300s", i+1, status, body)
			}
		}
		r.clock.Add(4 * time.Second)
	}
}

// A flood of wrong passwords from 10,050 addresses, as an attacker with an
// IPv6 /48 sends in seconds, then one more every 20 seconds, never refuses
// the owner's right password from an address that has not failed.
func TestAFloodOfAddressesNeverRefusesTheOwner(t *testing.T) {
	t.Parallel()
	r := newRig(t, fromHeader)
	client := r.register(claudeCallback)
	_, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	for i := range 10_050 {
		if status, _, _ := r.submit(p, "not the password", "approve", []string{ScopeRead}, from(fmt.Sprintf("127.10.%d.%d", i/250, i%250+1))); status != 401 && status != 429 {
			t.Fatalf("guess %d: %d", i, status)
		}
	}
	for i := range 8 {
		r.clock.Add(10 * time.Second)
		owner := fmt.Sprintf("127.200.0.%d", i+1)
		p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), from(owner))
		if status, h, body := r.submit(p, testPassword, "approve", []string{ScopeRead}, from(owner)); status != 303 || !strings.Contains(h.Get("Location"), "code=") {
			t.Fatalf("the owner's right password from a fresh address %ds after the flood: %d %.300s", 10*(2*i+1), status, body)
		}
		r.clock.Add(10 * time.Second)
		r.submit(p, "not the password", "approve", []string{ScopeRead}, from(fmt.Sprintf("127.11.0.%d", i+1)))
	}
}

// IPv6 addresses of one /64 are one sender: rotating the interface id does
// not buy new guesses.
func TestOneIPv6NetworkIsOneSender(t *testing.T) {
	t.Parallel()
	c := &clock{}
	g := newLoginGuard(c.Now, nil)
	for i := range maxFailures {
		g.attempt(fmt.Sprintf("2001:db8:1:2::%x", i+1))
	}
	if waits(g, "2001:db8:1:2::ffff") == 0 {
		t.Error("another address of the same /64 is not locked out")
	}
	if waits(g, "2001:db8:1:3::1") != 0 {
		t.Error("the next /64 is locked out too")
	}
}

// The operator password must survive a year of the worst guessing the
// lockouts allow; the passwords the README, CI and the tests use do.
func TestWeakPasswordsRefuseToStart(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		testPassword, "a passphrase of several words", "a long operator passphrase for tests",
		"ci operator passphrase 00", "ci operator passphrase 3276732767",
		"k3J9qPx2Zm8Lw4Rt", "glacier tumbles orbit velvet canyon whisper", "a passphrase of words",
		"a real house test Zx8qP2mK9wLr", "lantern quarry mosaic pepper thimble",
	} {
		if _, err := New(Config{Issuer: "https://maison.example.com", Secret: testSecret, Password: p}); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	for _, p := range []string{
		"aaaaaaaaaaaaaaaa", "password1234", "Password1234!", "hellohello12", "Summer2024!!", "abcdefghijklmnop",
		"motdepasse-maison", "1234567890123456", "qwertyuiopasdfgh", "replace-me-please",
		// repeats, famous passwords and phrases, keyboard walks, names and years
		"glacier glacier glacier glacier glacier", "correcthorsebatterystaple", "correct horse battery staple",
		"Tr0ub4dor&3Tr0ub4dor&3", "the quick brown fox jumps", "sunshine rainbow butterfly",
		"to be or not to be that is the question", "Maison Home Assistant 2026", "1qaz2wsx3edc4rfv",
		"ZAQ!2wsxCDE#4rfv", "zaq12wsxcde34rfv", "!@#$%^&*()_+!@#$", "abcd1234ABCD!@#$", "a1b2c3d4e5f6g7h8i9",
		// stock phrases, ordered lists, leetspeak, a two-row zigzag
		"may the force be with you", "all your base are belong to us", "never gonna give you up never",
		"happy birthday to you 2026", "January February March April", "Monday Tuesday Wednesday Thursday",
		"one two three four five six", "red orange yellow green blue", "mercury venus earth mars jupiter",
		"winter spring summer autumn 2025", "m0nk3yDr4g0nSh4d0w!", "Sh4d0wM4st3rDr4g0n", "1q2w3e4r5t6y7u8i9o0p",
	} {
		_, err := New(Config{Issuer: "https://maison.example.com", Secret: testSecret, Password: p})
		if err == nil {
			t.Errorf("%q accepted (estimated %.0f bits, %.0f needed)", p, passwordBits(p), minPasswordBits())
			continue
		}
		if msg := err.Error(); strings.Contains(msg, p) || !strings.Contains(msg, "MAISON_OPERATOR_PASSWORD") || !strings.Contains(msg, "words") {
			t.Errorf("the refusal of a weak password does not say what to do, or quotes it: %v", err)
		}
	}
	if _, err := New(Config{Issuer: "https://maison.example.com", Secret: testSecret, Password: "hunter2hunt"}); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("an 11-character password: %v, want too short", err)
	}
}

// registerFrom registers a public client from addr and returns the status
// and the error's words.
func (r *rig) registerFrom(addr string) (int, string) {
	r.t.Helper()
	b := `{"redirect_uris":["` + claudeCallback + `"],"token_endpoint_auth_method":"none"}`
	req, _ := http.NewRequest("POST", r.url+"/register", strings.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	from(addr)(req)
	status, _, body := r.do(req)
	return status, string(body)
}

// waits is how long addr waits, lockout or pause; if it need not, its
// attempt counts.
func waits(g *loginGuard, addr string) time.Duration {
	d, _, _ := g.attempt(addr)
	return d
}

// The login: wrong passwords lock the address out, even the right password
// from it then waits; a form without the page's cookie, or sent from elsewhere, is
// worthless; Deny grants nothing.
func TestLoginAttacks(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	client := r.register(claudeCallback)
	_, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	if p.status != 200 {
		t.Fatalf("page: %d", p.status)
	}
	if status, _, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, func(req *http.Request) { req.Header.Del("Cookie") }); status != 403 {
		t.Errorf("login without the transaction cookie: %d, want 403", status)
	}
	stranger := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	staged := p
	staged.cookies = stranger.cookies // someone else's browser, someone else's cookie
	if status, _, _ := r.submit(staged, testPassword, "approve", []string{ScopeRead}, nil); status != 403 {
		t.Errorf("a form staged from another flow: %d, want 403", status)
	}
	if status, _, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, func(req *http.Request) { req.Header.Set("Origin", "https://evil.example") }); status != 403 {
		t.Errorf("a form posted from another origin: %d, want 403", status)
	}
	if status, _, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, func(req *http.Request) { req.Header.Set("Sec-Fetch-Site", "cross-site") }); status != 403 {
		t.Errorf("a form posted cross-site: %d, want 403", status)
	}
	if status, _, _ := r.submit(p, testPassword, "approve", nil, nil); status != 400 {
		t.Errorf("no scope ticked: %d, want 400", status)
	}
	for i := range maxFailures - 1 {
		if status, _, body := r.submit(p, "guess "+itoa(i), "approve", []string{ScopeRead}, nil); status != 401 || !strings.Contains(string(body), "Wrong password") {
			t.Errorf("wrong password %d: %d", i+1, status)
		}
	}
	// The last one it may try says how long the address waits, with no
	// password box.
	if status, h, body := r.submit(p, "guess last", "approve", []string{ScopeRead}, nil); status != 429 || h.Get("Retry-After") == "" ||
		!strings.Contains(string(body), "Wrong password") || !strings.Contains(string(body), "Try again in 30 minutes") || strings.Contains(string(body), `type="password"`) {
		t.Errorf("wrong password %d: %d %s", maxFailures, status, body)
	}
	status, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, nil)
	if status != 429 || h.Get("Retry-After") == "" {
		t.Errorf("the right password from a locked-out address: %d, want 429 with Retry-After", status)
	}
	retry, _ := strconv.Atoi(h.Get("Retry-After")) // the attempts age out in 15 to 30 minutes
	r.clock.Add(time.Duration(retry) * time.Second)
	if status, _, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, nil); status != 400 {
		t.Errorf("a page older than its ten minutes: %d, want 400", status)
	}
	p = r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	if status, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, nil); status != 303 || !strings.Contains(h.Get("Location"), "code=") {
		t.Errorf("the right password once the lockout is over: %d", status)
	}
	p = r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	status, h, _ = r.submit(p, "", "deny", []string{ScopeRead}, nil)
	if loc := h.Get("Location"); status != 303 || !strings.Contains(loc, "error=access_denied") || strings.Contains(loc, "code=") {
		t.Errorf("deny: %d %s", status, loc)
	}
	// Past maxRepeats passwords a window from senders that already tried,
	// those senders wait for the next window; a fresh one is still checked.
	g := newLoginGuard(r.clock.Now, nil)
	for i := range maxRepeats/2 + 1 {
		a := "10." + itoa(i>>16) + "." + itoa(i>>8&255) + "." + itoa(i&255)
		for range 3 {
			g.attempt(a)
		}
	}
	if d, paused, _ := g.attempt("10.0.0.0"); d == 0 || !paused {
		t.Errorf("past the checks allowed to senders that tried: %v %v, want a pause", d, paused)
	}
	if waits(g, "203.0.113.9") != 0 {
		t.Error("past the checks allowed to senders that tried, an address that never tried waits")
	}
	r.clock.Add(lockout)
	if waits(g, "10.0.0.0") != 0 {
		t.Error("the pause does not end with the window")
	}
}

// Replicas sharing a store share the lockout: wrong passwords tried on
// one make the sender wait on the other, and a guard on a closed store
// refuses to check anything.
func TestReplicasShareTheLockout(t *testing.T) {
	t.Parallel()
	c := testkit.NewClock(time.Unix(1_800_000_000, 0))
	f, err := state.OpenFile(t.TempDir(), 0, c.Now)
	if err != nil {
		t.Fatal(err)
	}
	one, two := newLoginGuard(c.Now, f), newLoginGuard(c.Now, f)
	for i := range maxFailures {
		g := one
		if i%2 == 1 {
			g = two
		}
		if d, _, err := g.attempt("198.51.100.7"); d != 0 || err != nil {
			t.Fatalf("attempt %d: wait %v, %v", i+1, d, err)
		}
	}
	if d := waits(two, "198.51.100.7"); d < lockout {
		t.Errorf("after %d attempts across two replicas the sender waits %v, want the lockout", maxFailures, d)
	}
	if waits(one, "198.51.100.8") != 0 {
		t.Error("another sender waits too")
	}
	f.Close()
	if _, _, err := newLoginGuard(c.Now, f).attempt("203.0.113.1"); !errors.Is(err, state.ErrUnavailable) {
		t.Errorf("with the store closed: %v, want state.ErrUnavailable", err)
	}
}
