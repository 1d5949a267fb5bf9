package oauth

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testTeam = "https://myteam.cloudflareaccess.com"

// accessKeys serves a team's keys as Cloudflare does and signs assertions.
type accessKeys struct {
	key     *rsa.PrivateKey
	kid     string
	fetches atomic.Int32
	url     string
}

func newAccessKeys(t *testing.T) *accessKeys {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	a := &accessKeys{key: key, kid: "kid-1"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		a.fetches.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kid": a.kid, "kty": "RSA", "alg": "RS256", "use": "sig",
			"n": b64.EncodeToString(key.N.Bytes()), "e": b64.EncodeToString(big.NewInt(int64(key.E)).Bytes()),
		}}})
	}))
	t.Cleanup(srv.Close)
	a.url = srv.URL
	return a
}

func (a *accessKeys) sign(t *testing.T, header, claims map[string]any) string {
	t.Helper()
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sum := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, a.key, crypto.SHA256, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + b64.EncodeToString(sig)
}

// With Cloudflare Access, the page trusts the team's signed assertion: the
// right team, audience, time and person, nothing else.
func TestCloudflareAccess(t *testing.T) {
	t.Parallel()
	keys := newAccessKeys(t)
	r := newRig(t, func(c *Config) {
		c.Password = ""
		c.Access = &AccessConfig{Team: "myteam", AUD: "aud-tag", Emails: []string{"Owner@Example.com"}, CertsURL: keys.url}
	})
	now := r.clock.Now()
	good := map[string]any{"iss": testTeam, "aud": []string{"aud-tag"}, "exp": now.Add(time.Hour).Unix(), "nbf": now.Add(-time.Minute).Unix(), "email": "owner@example.com", "sub": "u1"}
	header := map[string]any{"alg": "RS256", "kid": keys.kid}
	with := func(k string, v any) map[string]any {
		c := map[string]any{}
		for kk, vv := range good {
			c[kk] = vv
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	client := r.register(claudeCallback)
	verifier, challenge := pkce()
	u := r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge})
	assert := func(a string) func(*http.Request) {
		return func(req *http.Request) { req.Header.Set("Cf-Access-Jwt-Assertion", a) }
	}
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	forged := keys.sign(t, header, good)
	{
		parts := strings.Split(forged, ".")
		sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		sig, _ := rsa.SignPKCS1v15(rand.Reader, other, crypto.SHA256, sum[:])
		forged = parts[0] + "." + parts[1] + "." + b64.EncodeToString(sig)
	}
	for name, a := range map[string]string{
		"none":              "",
		"another team":      keys.sign(t, header, with("iss", "https://evil.cloudflareaccess.com")),
		"another audience":  keys.sign(t, header, with("aud", []string{"other"})),
		"expired":           keys.sign(t, header, with("exp", now.Add(-time.Hour).Unix())),
		"not yet valid":     keys.sign(t, header, with("nbf", now.Add(time.Hour).Unix())),
		"no expiry":         keys.sign(t, header, with("exp", nil)),
		"someone else":      keys.sign(t, header, with("email", "guest@example.com")),
		"a service token":   keys.sign(t, header, with("email", nil)),
		"HS256":             keys.sign(t, map[string]any{"alg": "HS256", "kid": keys.kid}, good),
		"unknown key":       keys.sign(t, map[string]any{"alg": "RS256", "kid": "kid-2"}, good),
		"another signature": forged,
	} {
		if p := r.open(u, assert(a)); p.status != 403 || p.tx != "" {
			t.Errorf("%s: %d, want 403 and no form", name, p.status)
		}
	}
	if n := keys.fetches.Load(); n > 1 {
		t.Errorf("the team's keys were fetched %d times within 30 seconds", n)
	}
	ok := keys.sign(t, header, good)
	p := r.open(u, assert(ok))
	if p.status != 200 || !strings.Contains(p.body, "owner@example.com") || strings.Contains(p.body, `type="password"`) {
		t.Fatalf("a valid assertion: %d %.400s", p.status, p.body)
	}
	if status, _, _ := r.submit(p, "", "approve", []string{ScopeRead}, assert(keys.sign(t, header, with("email", "guest@example.com")))); status != 403 {
		t.Errorf("approving as someone else: %d", status)
	}
	status, h, _ := r.submit(p, "", "approve", []string{ScopeRead}, assert(ok))
	loc, _ := url.Parse(h.Get("Location"))
	if status != 303 || loc.Query().Get("code") == "" {
		t.Fatalf("approve: %d %s", status, h.Get("Location"))
	}
	_, tok := r.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {claudeCallback}, "code_verifier": {verifier}, "client_id": {client}})
	if g, err := r.as.Verify(fmt.Sprint(tok["access_token"])); err != nil || g.Subject != "owner@example.com" {
		t.Errorf("the grant names %q (%v), want the person's email", g.Subject, err)
	}
}
