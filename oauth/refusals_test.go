package oauth

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// exchange redeems a code for client with verifier.
func (r *rig) exchange(client, code, verifier string) (int, map[string]any) {
	return r.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {claudeCallback}, "code_verifier": {verifier}, "client_id": {client}})
}

// authorizeError opens an authorization request that must fail by
// redirecting back with an error, iss included.
func (r *rig) authorizeError(t *testing.T, name string, a authz, want string) {
	t.Helper()
	p := r.open(r.authorizeURL(a), nil)
	if p.status != http.StatusFound {
		t.Errorf("%s: %d, want 302 back to the client with error=%s", name, p.status, want)
		return
	}
	loc, _ := url.Parse(p.header.Get("Location"))
	if loc.Query().Get("error") != want || loc.Query().Get("iss") != r.url || !strings.HasPrefix(p.header.Get("Location"), claudeCallback+"?") {
		t.Errorf("%s: redirected to %s, want error=%s with iss", name, p.header.Get("Location"), want)
	}
}

// Every attack the issue lists fails with the right status.
func TestAttacksFail(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	client := r.register(claudeCallback)
	_, challenge := pkce()
	base := authz{client: client, redirect: claudeCallback, challenge: challenge, state: "s"}

	t.Run("no PKCE", func(t *testing.T) {
		a := base
		a.challenge = ""
		r.authorizeError(t, "no code_challenge", a, "invalid_request")
	})
	t.Run("plain PKCE", func(t *testing.T) {
		a := base
		a.extra = url.Values{"code_challenge_method": {"plain"}}
		r.authorizeError(t, "code_challenge_method=plain", a, "invalid_request")
		a.extra = url.Values{"code_challenge_method": {""}}
		r.authorizeError(t, "no code_challenge_method (plain by default)", a, "invalid_request")
	})
	t.Run("another resource", func(t *testing.T) {
		a := base
		a.resource = "https://evil.example/mcp"
		r.authorizeError(t, "resource of another server", a, "invalid_target")
	})
	t.Run("wrong verifier", func(t *testing.T) {
		c, code, _ := r.grant(claudeCallback, []string{ScopeRead})
		other, _ := pkce()
		if status, out := r.exchange(c, code, other); status != 400 || out["error"] != "invalid_grant" {
			t.Errorf("wrong verifier: %d %v", status, out)
		}
		if status, out := r.exchange(c, code, ""); status != 400 || out["error"] != "invalid_request" {
			t.Errorf("no verifier: %d %v", status, out)
		}
	})
	t.Run("replayed code", func(t *testing.T) {
		c, code, v := r.grant(claudeCallback, []string{ScopeRead})
		status, first := r.exchange(c, code, v)
		if status != 200 {
			t.Fatalf("first exchange: %d %v", status, first)
		}
		if status, out := r.exchange(c, code, v); status != 400 || out["error"] != "invalid_grant" {
			t.Errorf("replayed code: %d %v", status, out)
		}
		// What the first exchange gave is revoked: a replay means the code leaked.
		if r.mcp(first["access_token"].(string)) != 401 {
			t.Error("the access token from a replayed code still works")
		}
		if status, _ := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {first["refresh_token"].(string)}, "client_id": {c}}); status != 400 {
			t.Errorf("the refresh token from a replayed code: %d, want 400", status)
		}
	})
	t.Run("another client's code", func(t *testing.T) {
		_, code, v := r.grant(claudeCallback, []string{ScopeRead})
		thief := r.register(claudeCallback)
		if status, out := r.exchange(thief, code, v); status != 400 || out["error"] != "invalid_grant" {
			t.Errorf("another client's code: %d %v", status, out)
		}
	})
	t.Run("expired code", func(t *testing.T) {
		c, code, v := r.grant(claudeCallback, []string{ScopeRead})
		r.clock.Add(CodeTTL + time.Second)
		if status, out := r.exchange(c, code, v); status != 400 || out["error"] != "invalid_grant" {
			t.Errorf("expired code: %d %v", status, out)
		}
	})
	t.Run("redirect not allowed", func(t *testing.T) {
		status, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{"https://evil.example/callback"}, "token_endpoint_auth_method": "none"})
		if status != 400 || out["error"] != "invalid_redirect_uri" {
			t.Errorf("registering an unlisted redirect: %d %v", status, out)
		}
	})
	t.Run("open redirect", func(t *testing.T) {
		// None of these may ever lead the browser away: a page, no Location.
		for _, evil := range []string{
			"https://evil.example/cb", "https://claude.ai.evil.example/api/mcp/auth_callback",
			"https://claude.ai@evil.example/api/mcp/auth_callback", "https://claude.ai/api/mcp/auth_callback/../../../evil",
			"https://claude.ai/api/mcp/auth_callback?next=https://evil.example", "https://claude.ai/api/mcp/auth_callback#x",
			"//evil.example/cb", "javascript:alert(1)", "http://127.0.0.1.evil.example/cb", "http://localhost.evil.example/cb",
			"https://CLAUDE.AI/api/mcp/auth_callback", "https://claude.ai/api/mcp/auth_callback%2F..%2Fevil", " https://claude.ai/api/mcp/auth_callback",
			"http://127.0.0.1/callback", // loopback, but not registered by this client
		} {
			a := base
			a.redirect = evil
			p := r.open(r.authorizeURL(a), nil)
			if p.status != 400 || p.header.Get("Location") != "" {
				t.Errorf("redirect_uri %q: %d Location=%q, want 400 and no redirect", evil, p.status, p.header.Get("Location"))
			}
		}
		// A valid client id with a forged redirect list fails as unknown.
		forged := client[:strings.LastIndex(client, ".")] + ".AAAA"
		a := base
		a.client = forged
		if p := r.open(r.authorizeURL(a), nil); p.status != 400 || p.header.Get("Location") != "" {
			t.Errorf("forged client id: %d %q", p.status, p.header.Get("Location"))
		}
		// Repeated parameters are refused, not guessed between.
		u := r.authorizeURL(base) + "&redirect_uri=" + url.QueryEscape("https://evil.example/cb")
		if p := r.open(u, nil); p.status != 400 || p.header.Get("Location") != "" {
			t.Errorf("repeated redirect_uri: %d %q", p.status, p.header.Get("Location"))
		}
	})
	t.Run("tokens", func(t *testing.T) {
		c, code, v := r.grant(claudeCallback, []string{ScopeRead})
		_, tok := r.exchange(c, code, v)
		access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
		parts := strings.Split(access, ".")

		other, _ := New(Config{Issuer: "https://other.example", Secret: testSecret})
		foreign, _, _ := other.Mint([]string{ScopeRead}, time.Hour, "x")
		claims := decode(t, parts[1])
		claims["scope"] = "house.read house.control"
		noneHeader := b64.EncodeToString([]byte(`{"alg":"none","kid":"` + r.as.keys.current.id + `","typ":"at+jwt"}`))
		hs512 := b64.EncodeToString([]byte(`{"alg":"HS512","kid":"` + r.as.keys.current.id + `","typ":"at+jwt"}`))
		for name, bad := range map[string]string{
			"token for another audience": foreign,
			"tampered payload":           parts[0] + "." + encode(claims) + "." + parts[2],
			"tampered signature":         parts[0] + "." + parts[1] + "." + flip(parts[2]),
			"alg none":                   noneHeader + "." + parts[1] + ".",
			"alg none with signature":    noneHeader + "." + parts[1] + "." + parts[2],
			"another algorithm":          hs512 + "." + parts[1] + "." + parts[2],
			"refresh token as access":    refresh,
			"client id as access":        c,
			"empty":                      "",
			"garbage":                    "a.b.c",
		} {
			if r.mcp(bad) != 401 {
				t.Errorf("%s: accepted at /mcp", name)
			}
		}
		if r.mcp(access) != 200 {
			t.Error("the genuine token is refused")
		}
		r.clock.Add(AccessTTL)
		if r.mcp(access) != 401 {
			t.Error("expired token: accepted")
		}
		// An access token is not a refresh token either.
		if status, _ := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {access}, "client_id": {c}}); status != 400 {
			t.Errorf("access token as refresh token: %d", status)
		}
	})
	t.Run("refresh reuse revokes the family", func(t *testing.T) {
		c, code, v := r.grant(claudeCallback, []string{ScopeRead})
		_, tok := r.exchange(c, code, v)
		old := tok["refresh_token"].(string)
		status, next := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {c}})
		if status != 200 {
			t.Fatal(status)
		}
		if status, _ := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {c}}); status != 400 {
			t.Errorf("a spent refresh token: %d", status)
		}
		if status, _ := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next["refresh_token"].(string)}, "client_id": {c}}); status != 400 {
			t.Errorf("the family after a reuse: %d, want 400 (revoked)", status)
		}
		if r.mcp(next["access_token"].(string)) != 401 {
			t.Error("an access token of a revoked family works")
		}
	})
	t.Run("scope a refresh cannot add", func(t *testing.T) {
		c, code, v := r.grant(claudeCallback, []string{ScopeRead})
		_, tok := r.exchange(c, code, v)
		if status, out := r.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {c}, "scope": {"house.read house.control"}}); status != 400 || out["error"] != "invalid_scope" {
			t.Errorf("widening by refresh: %d %v", status, out)
		}
	})
}

func decode(t *testing.T, part string) map[string]any {
	b, err := b64.DecodeString(part)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

func encode(m map[string]any) string {
	b, _ := json.Marshal(m)
	return b64.EncodeToString(b)
}

func flip(s string) string {
	b := []byte(s)
	if b[3] == 'A' {
		b[3] = 'B'
	} else {
		b[3] = 'A'
	}
	return string(b)
}

// A flood against the unauthenticated endpoints writes a few lines, not one
// per request: the first refusal of each kind, then a summary a minute.
func TestFloodsAreSummarisedInTheLog(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	for range 100 {
		r.postJSON("/register", map[string]any{"redirect_uris": []string{claudeCallback}, "token_endpoint_auth_method": "none"})
	}
	for i := range 100 {
		r.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {"nobody"}, "code": {"guess" + itoa(i)}})
	}
	for range 100 {
		r.open(r.url+"/authorize?client_id=nobody&response_type=code", nil)
	}
	refused := 0
	for _, l := range strings.Split(r.logs.String(), "\n") {
		if strings.Contains(l, "refused") {
			refused++
		}
	}
	if refused > 6 {
		t.Errorf("%d lines of refusals for 300 refused requests, want a few:\n%s", refused, r.logs.String())
	}
}

// No secret reaches the log: not the password (right or guessed), the
// code, the verifier, the access or refresh token, even when each is
// replayed or refused.
func TestSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	client, code, verifier := r.grant(claudeCallback, []string{ScopeRead, ScopeControl})
	_, out := r.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {claudeCallback}})
	access, _ := out["access_token"].(string)
	refresh, _ := out["refresh_token"].(string)
	if access == "" || refresh == "" {
		t.Fatalf("no tokens: %v", out)
	}
	// Replays and refusals, each of which writes a line.
	r.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {claudeCallback}})
	r.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh + "x"}})
	r.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {"nobody"}, "refresh_token": {refresh}})
	_, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	guess := "a guessed password 1234"
	r.submit(p, guess, "approve", []string{ScopeRead}, nil)
	r.mcp(access)
	logs := r.logs.String()
	for name, secret := range map[string]string{"password": testPassword, "guessed password": guess, "code": code, "verifier": verifier, "access token": access, "refresh token": refresh, "transaction": p.tx} {
		if strings.Contains(logs, secret) {
			t.Errorf("the %s reached the log:\n%s", name, logs)
		}
	}
	if !strings.Contains(logs, "authorization code used twice") {
		t.Errorf("the replayed code was not logged at all (the scan saw nothing):\n%s", logs)
	}
}

// A public URL or redirect address with a password in it is refused without
// quoting the password.
func TestSettingsWithCredentialsAreNotQuoted(t *testing.T) {
	t.Parallel()
	if _, err := CheckIssuer("https://maison:hunter2@maison.example.com"); err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "…@maison.example.com") {
		t.Errorf("MAISON_PUBLIC_URL with a password: %v", err)
	}
	_, err := New(Config{Issuer: "https://maison.example.com", Secret: testSecret, Password: testPassword, RedirectURIs: []string{"https://me:hunter2@my.home-assistant.io/redirect/oauth"}})
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "MAISON_REDIRECT_URIS") {
		t.Errorf("MAISON_REDIRECT_URIS with a password: %v", err)
	}
}
