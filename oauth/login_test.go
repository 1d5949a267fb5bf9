package oauth

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
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
		r.clock.add(4 * time.Second)
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
		r.clock.add(10 * time.Second)
		owner := fmt.Sprintf("127.200.0.%d", i+1)
		p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), from(owner))
		if status, h, body := r.submit(p, testPassword, "approve", []string{ScopeRead}, from(owner)); status != 303 || !strings.Contains(h.Get("Location"), "code=") {
			t.Fatalf("the owner's right password from a fresh address %ds after the flood: %d %.300s", 10*(2*i+1), status, body)
		}
		r.clock.add(10 * time.Second)
		r.submit(p, "not the password", "approve", []string{ScopeRead}, from(fmt.Sprintf("127.11.0.%d", i+1)))
	}
}

// IPv6 addresses of one /64 are one sender: rotating the interface id does
// not buy new guesses.
func TestOneIPv6NetworkIsOneSender(t *testing.T) {
	t.Parallel()
	c := &clock{}
	g := newLoginGuard(c.now)
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

// A stranger who registers from many addresses of one network spends that
// network's budget, not the Claude app's; only a flood from many networks
// far beyond any real use reaches the ceiling, and its words blame the
// flood, not the client's address.
func TestAStrangerCannotSpendTheClaudeAppsRegistrations(t *testing.T) {
	t.Parallel()
	r := newRig(t, fromHeader)
	refused := 0
	for i := range 600 {
		addr := fmt.Sprintf("198.51.100.%d", i%250)
		if i%2 == 1 {
			addr = fmt.Sprintf("2001:db8:0:%x::%x", i%256, i) // one IPv6 /56
		}
		if status, body := r.registerFrom(addr); status == 429 {
			refused++
			if !strings.Contains(body, "network") {
				t.Errorf("a refusal within one network's budget does not say so: %s", body)
			}
		}
	}
	if refused < 500 {
		t.Errorf("a stranger rotating addresses in two networks made %d registrations", 600-refused)
	}
	if status, body := r.registerFrom("160.79.104.10"); status != 201 {
		t.Errorf("the Claude app after a stranger's flood: %d %s", status, body)
	}
	// The ceiling, made small here, refuses a network past its first
	// registrations of the minute, in words that name the flood; a fresh
	// network still registers.
	r.as.limits.registerAll = newWindow(3, time.Minute, r.clock.now)
	for i := range freeRegistrations + 3 {
		r.registerFrom(fmt.Sprintf("192.0.2.%d", i))
	}
	status, body := r.registerFrom("192.0.2.200")
	if status != 429 || strings.Contains(body, "this address") || !strings.Contains(body, "flood") {
		t.Errorf("past the ceiling: %d %s", status, body)
	}
	if status, body := r.registerFrom("192.0.3.1"); status != 201 {
		t.Errorf("a fresh network past the ceiling: %d %s", status, body)
	}
}

// waits is how long addr waits, lockout or pause; if it need not, its
// attempt counts.
func waits(g *loginGuard, addr string) time.Duration {
	d, _ := g.attempt(addr)
	return d
}

// A flood of registrations from 205 networks, each within its own budget,
// never refuses a network that has not registered: the Claude app's.
func TestARegistrationFloodNeverRefusesAFreshNetwork(t *testing.T) {
	t.Parallel()
	r := newRig(t, fromHeader)
	for n := range 205 {
		for i := range 30 {
			r.registerFrom(fmt.Sprintf("127.70.%d.%d", n, i+1))
		}
	}
	if status, body := r.registerFrom("127.250.0.1"); status != 201 {
		t.Errorf("a fresh network after a flood from 205 networks: %d %s", status, body)
	}
}

// Past maxKeys networks within the minute the rest share one count; when
// it is spent, a network that sent nothing itself is told that maison is
// flooded from many networks, never that its own network sent too many, in
// the page's language.
func TestAFloodOfNetworksIsNotBlamedOnAFreshOne(t *testing.T) {
	t.Parallel()
	for lang, want := range map[string][2]string{
		"en": {"flooded with registrations from many networks", "a minute"},
		"fr": {"inondée d'enregistrements venus de nombreux réseaux", "une minute"},
	} {
		r := newRig(t, func(c *Config) { fromHeader(c); c.Lang = lang })
		for i := range maxKeys + 30 {
			r.as.limits.register.take(fmt.Sprintf("flooder %d", i))
		}
		status, body := r.registerFrom("127.254.12.1")
		if status != 429 || !strings.Contains(body, want[0]) || !strings.Contains(body, want[1]) ||
			strings.Contains(body, "this network") || strings.Contains(body, "ce réseau") {
			t.Errorf("%s: a fresh network past %d others: %d %s", lang, maxKeys, status, body)
		}
	}
}
