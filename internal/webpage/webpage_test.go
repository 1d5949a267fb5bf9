package webpage

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Every page goes out with the headers that keep it unframed and
// script-free, its style admitted by nonce, its forms sent only home.
func TestWriteSendsTheStrictHeaders(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	Write(w, http.StatusTeapot, New("t", `<p>{{.}}</p>`), Frame{Lang: "fr", Title: "Titre", Problem: "<b>non</b>", Body: "corps"}, "https://claude.ai", true)
	h := w.Header()
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "form-action 'self' https://claude.ai", "base-uri 'none'", "style-src 'nonce-"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if h.Get("X-Frame-Options") != "DENY" || h.Get("Cache-Control") != "no-store" || h.Get("Strict-Transport-Security") == "" || w.Code != http.StatusTeapot {
		t.Errorf("headers %v, status %d", h, w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{`lang="fr"`, "<h1>Titre</h1>", "&lt;b&gt;non&lt;/b&gt;", "<p>corps</p>", "prefers-color-scheme:dark"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(body), "<script") {
		t.Error("the page holds a script")
	}
}

// A form counts only from a page of this site, as far as the browser says.
func TestFromThisSite(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		site, origin string
		ok           bool
	}{
		{"same-origin", "https://maison.example.com", true},
		{"", "", true}, // a browser that says nothing: the page's cookie decides
		{"same-site", "https://maison.example.com", false},
		{"cross-site", "", false},
		{"", "https://evil.example", false},
		{"", "null", false},
	} {
		r := httptest.NewRequest("POST", "/approve", nil)
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if ok, why := FromThisSite(r, "https://maison.example.com"); ok != c.ok {
			t.Errorf("%+v: %v (%s)", c, ok, why)
		}
	}
	if Cookie("x", "v", 1, true).Name != "__Host-x" || Cookie("x", "v", 1, false).Name != "x" || Cookie("x", "v", 1, false).SameSite != http.SameSiteStrictMode {
		t.Error("the binding cookie")
	}
}
