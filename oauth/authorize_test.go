package oauth

import (
	"strings"
	"testing"

	"maison/voice"
)

// /authorize opened by a person, without an app: the page says what the
// address is for and how to connect an app, in the page's language, and
// never that the app will register anew.
func TestAuthorizeWithoutAClientExplains(t *testing.T) {
	t.Parallel()
	for lang, want := range map[voice.Lang][]string{
		"en": {"opened by an app", "custom connector", "Settings › Connectors"},
		"fr": {"ouverte par une application", "connecteur personnalisé", "Paramètres › Connecteurs"},
	} {
		r := newRig(t, func(c *Config) { c.Lang = lang })
		for _, u := range []string{r.url + "/authorize", r.url + "/authorize?response_type=code&state=x"} {
			p := r.open(u, nil)
			if p.status != 200 && p.status != 400 {
				t.Errorf("%s %s: %d", lang, u, p.status)
			}
			for _, w := range append(want, r.url+"/mcp") {
				if !strings.Contains(p.body, w) {
					t.Errorf("%s %s: the page does not say %q:\n%s", lang, u, w, p.body)
				}
			}
			for _, wrong := range []string{"register anew", "s'enregistrera", "ne reconnaît pas", "does not recognise"} {
				if strings.Contains(p.body, wrong) {
					t.Errorf("%s %s: the page says %q", lang, u, wrong)
				}
			}
			if p.tx != "" {
				t.Errorf("%s %s: a page without a client offers a form", lang, u)
			}
		}
	}
}
