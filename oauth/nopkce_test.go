package oauth

import (
	"net/http"
	"net/url"
	"testing"
)

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
