package oauth

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"maison/internal/testkit"
)

const testPassword = "glacier tumbles orbit velvet canyon whisper"

var testSecret = []byte("0123456789abcdef0123456789abcdef-test-secret")

// clock is a clock the tests move by hand.
type clock = testkit.Clock

// rig is the authorization server on a loopback issuer, with a protected
// /mcp that answers 200 to a valid access token, as the door does.
type rig struct {
	t     *testing.T
	as    *Server
	url   string
	clock *clock
	logs  *testkit.Buffer
	http  *http.Client
}

func newRig(t *testing.T, edit func(*Config)) *rig {
	t.Helper()
	r := &rig{t: t, clock: testkit.NewClock(time.Unix(1_800_000_000, 0)), logs: &testkit.Buffer{}}
	var mux http.ServeMux
	srv := httptest.NewUnstartedServer(&mux)
	srv.Start()
	t.Cleanup(srv.Close)
	r.url = srv.URL
	cfg := Config{
		Issuer: srv.URL, Secret: testSecret, Password: testPassword,
		Logger: slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:    r.clock.Now,
	}
	if edit != nil {
		edit(&cfg)
	}
	as, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.as = as
	h := as.Handler()
	for _, p := range Paths {
		mux.Handle(p, h)
	}
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, req *http.Request) {
		tok, _ := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
		if _, err := as.Verify(tok); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	r.http = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return r
}

// do sends a request and returns the status, headers and body.
func (r *rig) do(req *http.Request) (int, http.Header, []byte) {
	r.t.Helper()
	resp, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func (r *rig) postJSON(path string, v any) (int, map[string]any) {
	r.t.Helper()
	b, _ := json.Marshal(v)
	req, _ := http.NewRequest("POST", r.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	status, _, body := r.do(req)
	var out map[string]any
	json.Unmarshal(body, &out)
	return status, out
}

func (r *rig) postForm(path string, v url.Values, edit func(*http.Request)) (int, http.Header, []byte) {
	r.t.Helper()
	req, _ := http.NewRequest("POST", r.url+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if edit != nil {
		edit(req)
	}
	return r.do(req)
}

// register registers a client as the Claude app does, public.
func (r *rig) register(redirect string) string {
	r.t.Helper()
	status, out := r.postJSON("/register", map[string]any{
		"redirect_uris": []string{redirect}, "client_name": "Claude", "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"}, "application_type": "web",
	})
	if status != http.StatusCreated {
		r.t.Fatalf("register: %d %v", status, out)
	}
	return out["client_id"].(string)
}

// pkce returns a verifier and its S256 challenge.
func pkce() (string, string) {
	v := randomID(32)
	sum := sha256.Sum256([]byte(v))
	return v, b64.EncodeToString(sum[:])
}

// itoa is n in decimal, for names and addresses made up in a loop.
func itoa(n int) string { return strconv.Itoa(n) }

type authz struct {
	client, redirect, challenge, state, scope, resource string
	extra                                               url.Values
}

func (r *rig) authorizeURL(a authz) string {
	q := url.Values{"response_type": {"code"}, "client_id": {a.client}, "redirect_uri": {a.redirect},
		"code_challenge": {a.challenge}, "code_challenge_method": {"S256"}, "state": {a.state}}
	if a.scope != "" {
		q.Set("scope", a.scope)
	}
	if a.resource != "" {
		q.Set("resource", a.resource)
	}
	for k, v := range a.extra {
		q[k] = v
	}
	return r.url + "/authorize?" + q.Encode()
}

// page is the human page as a browser got it.
type page struct {
	status  int
	header  http.Header
	body    string
	cookies []*http.Cookie
	tx      string
}

var txRE = regexp.MustCompile(`name="tx" value="([^"]+)"`)

func (r *rig) open(u string, edit func(*http.Request)) page {
	r.t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if edit != nil {
		edit(req)
	}
	resp, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	p := page{status: resp.StatusCode, header: resp.Header, body: string(b), cookies: resp.Cookies()}
	if m := txRE.FindStringSubmatch(p.body); m != nil {
		p.tx = m[1]
	}
	return p
}

// submit answers the page as a person would: the password, the ticked
// scopes, a button; with the page's cookie unless told otherwise.
func (r *rig) submit(p page, password, action string, scopes []string, edit func(*http.Request)) (int, http.Header, []byte) {
	r.t.Helper()
	form := url.Values{"tx": {p.tx}, "password": {password}, "action": {action}, "scope": scopes}
	return r.postForm("/authorize", form, func(req *http.Request) {
		for _, c := range p.cookies {
			req.AddCookie(c)
		}
		req.Header.Set("Origin", r.url)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if edit != nil {
			edit(req)
		}
	})
}

// grant runs register, authorize and login; it returns the client id, the
// code and the PKCE verifier.
func (r *rig) grant(redirect string, scopes []string) (client, code, verifier string) {
	r.t.Helper()
	client = r.register(redirect)
	verifier, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: redirect, challenge: challenge, state: "st-1", resource: r.url + "/mcp", scope: "house.read house.control"}), nil)
	if p.status != 200 || p.tx == "" {
		r.t.Fatalf("authorize page: %d %.300s", p.status, p.body)
	}
	status, h, _ := r.submit(p, testPassword, "approve", scopes, nil)
	if status != http.StatusSeeOther {
		r.t.Fatalf("login: %d", status)
	}
	loc, _ := url.Parse(h.Get("Location"))
	if got := loc.Scheme + "://" + loc.Host + loc.Path; !strings.HasPrefix(redirect, got) {
		r.t.Fatalf("redirected to %s, want %s", h.Get("Location"), redirect)
	}
	if loc.Query().Get("iss") != r.url || loc.Query().Get("state") != "st-1" {
		r.t.Fatalf("authorization response without iss or state: %s", h.Get("Location"))
	}
	return client, loc.Query().Get("code"), verifier
}

func (r *rig) token(v url.Values) (int, map[string]any) {
	r.t.Helper()
	status, _, body := r.postForm("/token", v, nil)
	var out map[string]any
	json.Unmarshal(body, &out)
	return status, out
}

func (r *rig) mcp(token string) int {
	r.t.Helper()
	req, _ := http.NewRequest("POST", r.url+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	status, _, _ := r.do(req)
	return status
}

const claudeCallback = "https://claude.ai/api/mcp/auth_callback"

// The whole flow as the Claude app runs it: discovery, registration,
// authorization with PKCE and resource, the person's login, the token, a
// call, a refresh that rotates.
func TestClaudeAppFlow(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	req, _ := http.NewRequest("GET", r.url+"/.well-known/oauth-protected-resource/mcp", nil)
	status, h, body := r.do(req)
	var prm map[string]any
	json.Unmarshal(body, &prm)
	if status != 200 || prm["resource"] != r.url+"/mcp" || h.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("protected resource metadata: %d %s", status, body)
	}
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		req, _ := http.NewRequest("GET", r.url+p, nil)
		_, _, body := r.do(req)
		var m map[string]any
		json.Unmarshal(body, &m)
		if m["issuer"] != r.url || m["client_id_metadata_document_supported"] != true || m["authorization_response_iss_parameter_supported"] != true {
			t.Errorf("%s: %s", p, body)
		}
		if !strings.Contains(string(body), `"code_challenge_methods_supported":["S256"]`) || !strings.Contains(string(body), `"none"`) {
			t.Errorf("%s lacks S256 or the none auth method: %s", p, body)
		}
	}
	client, code, verifier := r.grant(claudeCallback, []string{ScopeRead, ScopeControl})
	status, tok := r.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {claudeCallback},
		"code_verifier": {verifier}, "client_id": {client}, "resource": {r.url + "/mcp"}})
	if status != 200 || tok["token_type"] != "Bearer" || tok["expires_in"] != float64(3600) || tok["scope"] != "house.read house.control" {
		t.Fatalf("token: %d %v", status, tok)
	}
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	if r.mcp(access) != 200 {
		t.Fatal("the access token is refused at /mcp")
	}
	g, _ := r.as.Verify(access)
	if !strings.HasPrefix(g.Client, "dcr-") || g.ClientName != "Claude" || g.Subject != "operator" {
		t.Errorf("the grant says %+v", g)
	}
	// An hour later the access token is refused; the refresh rotates.
	r.clock.Add(AccessTTL + time.Second)
	if r.mcp(access) != 401 {
		t.Error("an expired access token is accepted")
	}
	status, tok2 := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {client}, "resource": {r.url + "/mcp"}})
	if status != 200 || tok2["refresh_token"] == refresh {
		t.Fatalf("refresh: %d %v", status, tok2)
	}
	if r.mcp(tok2["access_token"].(string)) != 200 {
		t.Error("the refreshed access token is refused")
	}
	// A narrower refresh, then past the absolute 30 days nothing refreshes.
	status, tok3 := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok2["refresh_token"].(string)}, "client_id": {client}, "scope": {"house.read"}})
	if status != 200 || tok3["scope"] != "house.read" {
		t.Fatalf("narrowed refresh: %d %v", status, tok3)
	}
	if g, _ := r.as.Verify(tok3["access_token"].(string)); len(g.Scopes) != 1 {
		t.Errorf("narrowed access token grants %v", g.Scopes)
	}
	r.clock.Add(RefreshTTL)
	if status, out := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok3["refresh_token"].(string)}, "client_id": {client}}); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("a refresh past 30 days: %d %v", status, out)
	}
}

// Home Assistant's MCP client sends no resource parameter; its token is
// bound to maison's one resource all the same.
func TestWithoutResourceTheAudienceIsMaison(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *Config) { c.RedirectURIs = []string{"https://my.home-assistant.io/redirect/oauth"} })
	redirect := "https://my.home-assistant.io/redirect/oauth"
	status, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{redirect}, "client_name": "Home Assistant", "token_endpoint_auth_method": "client_secret_post"})
	if status != 201 || out["client_secret"] == nil || out["client_secret_expires_at"] != float64(0) {
		t.Fatalf("register: %d %v", status, out)
	}
	client, secret := out["client_id"].(string), out["client_secret"].(string)
	verifier, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: redirect, challenge: challenge, state: "ha"}), nil)
	_, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead, ScopeControl}, nil)
	loc, _ := url.Parse(h.Get("Location"))
	code := loc.Query().Get("code")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}, "code_verifier": {verifier}, "client_id": {client}}
	if status, out := r.token(form); status != 401 || out["error"] != "invalid_client" {
		t.Errorf("a confidential client without its secret: %d %v", status, out)
	}
	form.Set("client_secret", secret)
	status, tok := r.token(form)
	if status != 200 {
		t.Fatalf("token: %d %v", status, tok)
	}
	if r.mcp(tok["access_token"].(string)) != 200 {
		t.Error("Home Assistant's access token is refused")
	}
}

func TestKeyRotation(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	client, code, verifier := r.grant(claudeCallback, []string{ScopeRead})
	_, tok := r.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {claudeCallback}, "code_verifier": {verifier}, "client_id": {client}})
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	next := []byte("a-brand-new-secret-of-more-than-32-bytes!!")
	rotated, err := New(Config{Issuer: r.url, Secret: next, Previous: testSecret, Password: testPassword, Now: r.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rotated.Verify(access); err != nil {
		t.Error("during a rotation the previous key's access token is refused")
	}
	done, err := New(Config{Issuer: r.url, Secret: next, Password: testPassword, Now: r.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := done.Verify(access); err == nil {
		t.Error("after the rotation the old key's access token is accepted")
	}
	// After the rotation the client id itself is unknown: 401 invalid_client
	// tells the Claude app to register again.
	var mux http.ServeMux
	h := done.Handler()
	mux.Handle("/token", h)
	srv := httptest.NewServer(&mux)
	defer srv.Close()
	resp, err := http.PostForm(srv.URL+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {client}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("a refresh after the rotation: %d, want 401 invalid_client", resp.StatusCode)
	}
}

// Home Assistant's MCP client is a confidential client (application
// credentials, client_secret_post) that sends no PKCE challenge: maison lets
// a confidential client go without, and still refuses what PKCE guards.
func TestConfidentialClientWithoutPKCE(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	redirect := "http://127.0.0.1:8123/auth/external/callback"
	status, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{redirect}, "client_name": "Home Assistant", "token_endpoint_auth_method": "client_secret_post"})
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, out)
	}
	client, secret := out["client_id"].(string), out["client_secret"].(string)
	// As Home Assistant asks: no code_challenge, Google's offline hints.
	haAuthorize := func(extra url.Values) page {
		q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect}, "state": {"ha"},
			"scope": {"house.read house.control"}, "access_type": {"offline"}, "prompt": {"consent"}}
		for k, v := range extra {
			q[k] = v
		}
		return r.open(r.url+"/authorize?"+q.Encode(), nil)
	}
	code := func() string {
		t.Helper()
		p := haAuthorize(nil)
		if p.status != http.StatusOK || p.tx == "" {
			t.Fatalf("a confidential client without PKCE gets no page: %d %.300s", p.status, p.body)
		}
		status, h, _ := r.submit(p, testPassword, "approve", []string{ScopeRead, ScopeControl}, nil)
		loc, _ := url.Parse(h.Get("Location"))
		if status != http.StatusSeeOther || loc.Query().Get("code") == "" {
			t.Fatalf("login: %d %s", status, h.Get("Location"))
		}
		return loc.Query().Get("code")
	}
	form := func(code string) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}, "client_id": {client}, "client_secret": {secret}}
	}

	c := code()
	wrong := form(c)
	wrong.Set("client_secret", secret[1:]+"x")
	if status, out := r.token(wrong); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
		t.Errorf("a code without PKCE and a wrong secret: %d %v", status, out)
	}
	status, tok := r.token(form(c))
	if status != http.StatusOK || tok["refresh_token"] == nil {
		t.Fatalf("token: %d %v", status, tok)
	}
	if r.mcp(tok["access_token"].(string)) != http.StatusOK {
		t.Error("the access token is refused")
	}
	// Home Assistant refreshes with its secret in the body.
	status, tok = r.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "client_secret": {secret}, "refresh_token": {tok["refresh_token"].(string)}})
	if status != http.StatusOK || r.mcp(tok["access_token"].(string)) != http.StatusOK {
		t.Errorf("refresh: %d %v", status, tok)
	}

	// A verifier for a code that had no challenge is a downgrade.
	down := form(code())
	down.Set("code_verifier", randomID(32))
	if status, out := r.token(down); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Errorf("a verifier for a code without challenge: %d %v", status, out)
	}
	// A method without a challenge is a broken request, not a choice.
	if p := haAuthorize(url.Values{"code_challenge_method": {"S256"}}); p.status != http.StatusFound {
		t.Errorf("code_challenge_method without code_challenge: %d, want a redirect with invalid_request", p.status)
	} else if loc, _ := url.Parse(p.header.Get("Location")); loc.Query().Get("error") != "invalid_request" {
		t.Errorf("code_challenge_method without code_challenge: %s", p.header.Get("Location"))
	}

	// A public client still must use PKCE.
	public := r.register(redirect)
	q := url.Values{"response_type": {"code"}, "client_id": {public}, "redirect_uri": {redirect}, "state": {"s"}}
	p := r.open(r.url+"/authorize?"+q.Encode(), nil)
	if loc, _ := url.Parse(p.header.Get("Location")); p.status != http.StatusFound || loc.Query().Get("error") != "invalid_request" {
		t.Errorf("a public client without PKCE: %d %s", p.status, p.header.Get("Location"))
	}
}
