package oauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzVerify: nothing but a token maison signed verifies, and nothing panics.
func FuzzVerify(f *testing.F) {
	as, _ := New(Config{Issuer: "https://maison.example.com", Secret: testSecret})
	tok, _, _ := as.Mint([]string{ScopeRead}, time.Hour, "fuzz")
	parts := strings.Split(tok, ".")
	f.Add(tok)
	f.Add(parts[0] + "." + parts[1] + ".")
	f.Add("eyJhbGciOiJub25lIn0." + parts[1] + ".")
	f.Add("a.b.c")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := as.Verify(s); err != nil {
			return
		}
		// What verifies is exactly what maison's key signs: one spelling, the
		// header and claims as they are, the signature recomputed.
		p := strings.Split(s, ".")
		m := hmac.New(sha256.New, as.keys.current.key(kindAccess))
		m.Write([]byte(p[0] + "." + p[1]))
		if b64.EncodeToString(m.Sum(nil)) != p[2] {
			t.Fatalf("a token maison did not sign verifies: %q", s)
		}
	})
}

// FuzzAuthorizeNeverRedirectsElsewhere: whatever the query, /authorize
// sends a browser nowhere but to the client's registered redirect.
func FuzzAuthorizeNeverRedirectsElsewhere(f *testing.F) {
	as, _ := New(Config{Issuer: "https://maison.example.com", Secret: testSecret, Password: testPassword})
	client, _ := as.keys.sign(kindClient, clientClaims{Redirects: []string{claudeCallback, "http://127.0.0.1/cb"}, Method: "none"})
	h := as.Handler()
	_, challenge := pkce()
	good := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {claudeCallback}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	f.Add(good.Encode())
	f.Add(good.Encode() + "&redirect_uri=https%3A%2F%2Fevil.example")
	f.Add(strings.Replace(good.Encode(), "auth_callback", "auth_callback%2F..%2Fx", 1))
	f.Add("client_id=" + url.QueryEscape(client) + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A99%2Fcb&code_challenge_method=plain")
	f.Add("client_id=" + url.QueryEscape(client) + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A99%2Fcb%3Fa%3Db")
	f.Fuzz(func(t *testing.T, query string) {
		req := httptest.NewRequest("GET", "https://maison.example.com/authorize", nil)
		req.URL.RawQuery = query
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		loc := rec.Header().Get("Location")
		if rec.Code == http.StatusFound || loc != "" {
			u, err := url.Parse(loc)
			if err != nil {
				t.Fatalf("Location %q does not parse", loc)
			}
			base := u.Scheme + "://" + u.Host + u.Path
			if base != claudeCallback && !(u.Scheme == "http" && u.Hostname() == "127.0.0.1" && u.Path == "/cb") {
				t.Fatalf("redirected to %q for query %q", loc, query)
			}
			if !slices.Contains(u.Query()["iss"], "https://maison.example.com") {
				t.Fatalf("a redirect without iss: %q", loc)
			}
		}
	})
}

// FuzzRedirectAllowed: only the Claude app's callbacks and loopback http
// addresses pass, however a URI is spelled.
func FuzzRedirectAllowed(f *testing.F) {
	as, _ := New(Config{Issuer: "https://maison.example.com", Secret: testSecret})
	for _, s := range []string{claudeCallback, "http://127.0.0.1:8/cb", "http://localhost/x", "https://claude.ai@evil/", "http://[::1]:9/a", "http://127.0.0.1.evil/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !as.redirectAllowed(s) {
			return
		}
		if slices.Contains(claudeCallbacks, s) {
			return
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "http" || !isLoopbackHost(u.Hostname()) || u.User != nil || u.Fragment != "" {
			t.Fatalf("%q allowed", s)
		}
	})
}
