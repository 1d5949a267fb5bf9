package oauth

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maison/voice"
)

// documentServer publishes client metadata documents over TLS on loopback.
func documentServer(t *testing.T) (*httptest.Server, *tls.Config, *atomic.Int32) {
	t.Helper()
	var fetches atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		self := srv.URL + r.URL.Path
		switch r.URL.Path {
		case "/claude.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"client_id":%q,"client_name":"Claude","redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, self, claudeCallback)
		case "/liar.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"client_id":"https://claude.ai/oauth/mcp-oauth-client-metadata","redirect_uris":[%q]}`, claudeCallback)
		case "/huge.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"client_id":%q,"redirect_uris":[%q],"pad":"%s"}`, self, claudeCallback, strings.Repeat("x", maxDocument))
		case "/moved.json":
			http.Redirect(w, r, "/claude.json", http.StatusFound)
		case "/slow.json":
			select {
			case <-r.Context().Done():
			case <-time.After(2 * fetchBudget):
			}
		case "/secret.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"client_id":%q,"redirect_uris":[%q],"token_endpoint_auth_method":"private_key_jwt"}`, self, claudeCallback)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return srv, &tls.Config{RootCAs: pool}, &fetches
}

// A client identified by its metadata document URL runs the whole flow;
// the document is fetched within strict limits and cached briefly.
func TestMetadataDocumentClient(t *testing.T) {
	t.Parallel()
	docs, tlsCfg, fetches := documentServer(t)
	r := newRig(t, func(c *Config) { c.MetadataFetch = FetchConfig{AllowPrivate: true, TLS: tlsCfg} })
	id := docs.URL + "/claude.json"
	verifier, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: id, redirect: claudeCallback, challenge: challenge, state: "x"}), nil)
	if p.status != 200 || !strings.Contains(p.body, id) {
		t.Fatalf("authorize with a metadata document: %d %.400s", p.status, p.body)
	}
	_, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, nil)
	loc, _ := url.Parse(h.Get("Location"))
	status, tok := r.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {claudeCallback}, "code_verifier": {verifier}, "client_id": {id}})
	if status != 200 {
		t.Fatalf("token: %d %v", status, tok)
	}
	if g, err := r.as.Verify(tok["access_token"].(string)); err != nil || g.Client != id || g.ClientName != "Claude" {
		t.Errorf("grant %+v %v", g, err)
	}
	r.open(r.authorizeURL(authz{client: id, redirect: claudeCallback, challenge: challenge}), nil)
	if n := fetches.Load(); n != 1 {
		t.Errorf("the document was fetched %d times, want once (cached)", n)
	}
	for _, bad := range []string{"/liar.json", "/huge.json", "/moved.json", "/secret.json", "/missing.json"} {
		if p := r.open(r.authorizeURL(authz{client: docs.URL + bad, redirect: claudeCallback, challenge: challenge}), nil); p.status != 400 || p.header.Get("Location") != "" {
			t.Errorf("document %s: %d %q, want 400 and no redirect", bad, p.status, p.header.Get("Location"))
		} else if !strings.Contains(p.body, "could not read this app&#39;s description") || strings.Contains(p.body, "register anew") {
			t.Errorf("document %s: the page does not say the description could not be read: %.600s", bad, p.body)
		}
	}
	// The redirect must be one the document lists.
	if p := r.open(r.authorizeURL(authz{client: id, redirect: "http://127.0.0.1:9/cb", challenge: challenge}), nil); p.status != 400 {
		t.Errorf("a redirect the document does not list: %d", p.status)
	}
}

func TestMetadataFetchLimits(t *testing.T) {
	t.Parallel()
	docs, tlsCfg, _ := documentServer(t)
	// By default loopback and private addresses are refused when dialled.
	f := newFetcher(FetchConfig{TLS: tlsCfg}, time.Now)
	if _, err := f.get(t.Context(), docs.URL+"/claude.json"); err == nil {
		t.Error("a document on loopback was fetched without MAISON_CLIENT_METADATA_PRIVATE")
	}
	slow := newFetcher(FetchConfig{AllowPrivate: true, TLS: tlsCfg}, time.Now)
	// The fetch gives up at its own budget: a timeout, not the server's
	// answer (which comes only after twice the budget).
	_, err := slow.get(t.Context(), docs.URL+"/slow.json")
	var timeout interface{ Timeout() bool }
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !(errors.As(err, &timeout) && timeout.Timeout()) {
		t.Errorf("a document that never arrives: %v, want the fetch's own timeout", err)
	}
	for _, id := range []string{"http://example.com/c.json", "https://example.com", "https://example.com/", "https://u:p@example.com/c", "https://example.com/c#f", "https://example.com/a/../c", "https://" + strings.Repeat("a", 600) + ".com/c"} {
		if _, err := f.get(context.Background(), id); err == nil {
			t.Errorf("client id URL %q accepted", id)
		}
	}
	for a, want := range map[string]bool{"8.8.8.8": true, "127.0.0.1": false, "10.1.2.3": false, "192.168.1.1": false, "169.254.169.254": false, "100.64.0.1": false, "::1": false, "fd00::1": false, "::ffff:127.0.0.1": false, "0.0.0.0": false, "2606:4700::1": true} {
		if got := publicAddr(netip.MustParseAddr(a)); got != want {
			t.Errorf("publicAddr(%s) = %v", a, got)
		}
	}
}

// Registration: each field checked, the answer as clients expect it, its
// own budget.
func TestRegistration(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	for name, body := range map[string]map[string]any{
		"no redirect":      {"client_name": "x"},
		"unknown method":   {"redirect_uris": []string{claudeCallback}, "token_endpoint_auth_method": "private_key_jwt"},
		"implicit grant":   {"redirect_uris": []string{claudeCallback}, "grant_types": []string{"implicit"}},
		"token response":   {"redirect_uris": []string{claudeCallback}, "response_types": []string{"token"}},
		"too many":         {"redirect_uris": []string{"http://127.0.0.1/1", "http://127.0.0.1/2", "http://127.0.0.1/3", "http://127.0.0.1/4", "http://127.0.0.1/5", "http://127.0.0.1/6", "http://127.0.0.1/7", "http://127.0.0.1/8", "http://127.0.0.1/9"}},
		"plain http":       {"redirect_uris": []string{"http://claude.ai/api/mcp/auth_callback"}},
		"custom scheme":    {"redirect_uris": []string{"cursor://anysphere.cursor-retrieval/oauth/callback"}},
		"loopback + other": {"redirect_uris": []string{"http://localhost/cb", "https://evil.example/cb"}},
	} {
		if status, out := r.postJSON("/register", body); status != 400 {
			t.Errorf("%s: %d %v", name, status, out)
		}
	}
	status, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{"http://localhost/callback"}, "client_name": "Claude Code\u202e\x00 "})
	if status != 201 || out["token_endpoint_auth_method"] != "client_secret_basic" || out["client_secret"] == nil || out["client_name"] != "Claude Code" {
		t.Errorf("register with defaults: %d %v", status, out)
	}
	// A loopback redirect registered without a port matches any port.
	client := r.register("http://127.0.0.1/callback")
	_, challenge := pkce()
	if p := r.open(r.authorizeURL(authz{client: client, redirect: "http://127.0.0.1:43123/callback", challenge: challenge}), nil); p.status != 200 {
		t.Errorf("loopback with a port: %d", p.status)
	}
	// The largest registration and state still make it through the page.
	var long []string
	for i := range 4 {
		long = append(long, "http://127.0.0.1/"+strings.Repeat(string(rune('a'+i)), 480))
	}
	status, out = r.postJSON("/register", map[string]any{"redirect_uris": long, "client_name": strings.Repeat("n", 200), "token_endpoint_auth_method": "none"})
	if status != 201 {
		t.Fatalf("the largest registration: %d %v", status, out)
	}
	big := authz{client: out["client_id"].(string), redirect: long[3], challenge: challenge, state: strings.Repeat("s", maxState)}
	p := r.open(r.authorizeURL(big), nil)
	if st, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead}, nil); st != 303 || !strings.Contains(h.Get("Location"), "code=") {
		t.Errorf("the largest registration and state: page %d, login %d", p.status, st)
	}
	if status, _ := r.postJSON("/register", map[string]any{"redirect_uris": append(long, "http://127.0.0.1/"+strings.Repeat("e", 100))}); status != 400 {
		t.Errorf("redirect URIs over 2048 characters in all: %d", status)
	}
	// Wrong media type, oversize body.
	req, _ := http.NewRequest("POST", r.url+"/register", strings.NewReader(`{"redirect_uris":["http://localhost/cb"]}`))
	req.Header.Set("Content-Type", "text/plain")
	if status, _, _ := r.do(req); status != 400 {
		t.Errorf("text/plain registration: %d", status)
	}
	req, _ = http.NewRequest("POST", r.url+"/register", strings.NewReader(`{"client_name":"`+strings.Repeat("x", maxJSONBody)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	if status, _, _ := r.do(req); status != 400 {
		t.Errorf("oversize registration: %d", status)
	}
	// Its own budget: past it 429 with Retry-After, while the login page
	// still answers.
	for range 40 {
		r.postJSON("/register", map[string]any{"redirect_uris": []string{claudeCallback}, "token_endpoint_auth_method": "none"})
	}
	status, _ = r.postJSON("/register", map[string]any{"redirect_uris": []string{claudeCallback}})
	if status != 429 {
		t.Errorf("registration flood: %d, want 429", status)
	}
	if p := r.open(r.authorizeURL(authz{client: client, redirect: "http://127.0.0.1:43123/callback", challenge: challenge}), nil); p.status != 200 {
		t.Errorf("the page after a registration flood: %d", p.status)
	}
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
	r.as.limits.registerAll = newWindow("register-all", 3, time.Minute, r.clock.Now, nil)
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
	for lang, want := range map[voice.Lang][2]string{
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
