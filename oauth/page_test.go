package oauth

import (
	"net/http"
	"strings"
	"testing"

	"maison/voice"
)

// The page: strict headers, no script, the client and the exact redirect
// shown, French when asked.
func TestThePage(t *testing.T) {
	t.Parallel()
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		r := newRig(t, func(c *Config) { c.Lang = lang })
		client := r.register(claudeCallback)
		_, challenge := pkce()
		p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
		csp := p.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "form-action 'self' https://claude.ai"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", lang, csp, want)
			}
		}
		if p.header.Get("X-Frame-Options") != "DENY" || p.header.Get("Referrer-Policy") != "same-origin" || p.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: headers %v", lang, p.header)
		}
		if strings.Contains(strings.ToLower(p.body), "<script") || !strings.Contains(p.body, claudeCallback) || !strings.Contains(p.body, "Claude") {
			t.Errorf("%s: the page: %s", lang, p.body)
		}
		word := map[voice.Lang]string{voice.English: "Approve", voice.French: "Autoriser"}[lang]
		if !strings.Contains(p.body, word) || !strings.Contains(p.body, `lang="`+string(lang)+`"`) {
			t.Errorf("%s: the page is not in its language", lang)
		}
		for _, c := range p.cookies {
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
				t.Errorf("%s: transaction cookie %+v", lang, c)
			}
		}
	}
	// A client name that tries markup is shown as text.
	r := newRig(t, nil)
	_, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{claudeCallback}, "client_name": `<img src=x onerror=alert(1)>Claude`, "token_endpoint_auth_method": "none"})
	_, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: out["client_id"].(string), redirect: claudeCallback, challenge: challenge}), nil)
	if strings.Contains(p.body, "<img") {
		t.Errorf("the client's name is not escaped: %s", p.body)
	}
}
