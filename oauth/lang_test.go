package oauth

import (
	"net/http"
	"strings"
	"testing"

	"maison/voice"
)

// The sign-in page speaks the browser's first language among maison's
// (Accept-Language), the house's when it asks for none of them, and says
// so to caches (Vary); the answer to its form speaks it too.
func TestThePageFollowsTheBrowsersLanguage(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *Config) { c.Lang = voice.French })
	client := r.register(claudeCallback)
	_, challenge := pkce()
	u := r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge})
	for accept, want := range map[string]string{
		"de-DE,de;q=0.9,en;q=0.5": `lang="de"`,
		"en-GB, fr;q=0.3":         `lang="en"`,
		"es, it;q=0.8":            `lang="fr"`,
		"":                        `lang="fr"`,
	} {
		p := r.open(u, func(req *http.Request) { req.Header.Set("Accept-Language", accept) })
		if !strings.Contains(p.body, want) {
			t.Errorf("Accept-Language %q: the page is not %s:\n%s", accept, want, p.body)
		}
		if !strings.Contains(p.header.Get("Vary"), "Accept-Language") {
			t.Errorf("Accept-Language %q: Vary %q does not name it", accept, p.header.Get("Vary"))
		}
	}
	p := r.open(u, func(req *http.Request) { req.Header.Set("Accept-Language", "de") })
	if !strings.Contains(p.body, "Zulassen") || !strings.Contains(p.body, "Das Haus sehen") {
		t.Errorf("the German page lacks its words:\n%s", p.body)
	}
	status, _, body := r.submit(p, "wrong password!", "approve", []string{ScopeRead}, func(req *http.Request) {
		req.Header.Set("Accept-Language", "de")
	})
	if status != http.StatusUnauthorized || !strings.Contains(string(body), "Falsches Passwort") {
		t.Errorf("a wrong password, in German: %d\n%s", status, body)
	}
}
