package oauth

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClientNameIsWhatAPersonSees: a registered client's name, shown on
// the sign-in page and in the audit log, keeps at most 80 runes and "…"
// where cut, and nothing a reader would not see (a Hangul filler, a
// private-use character, a variation selector, a bidi override), which
// could make one app's name pass for another's.
func TestClientNameIsWhatAPersonSees(t *testing.T) {
	r := newRig(t, nil)
	for _, c := range []struct{ name, want string }{
		{"Claude\u3164\ue000\ufe0f\u202e Code", "Claude Code"},
		{strings.Repeat("n", 80), strings.Repeat("n", 80)},
		{strings.Repeat("n\u3164", 200), strings.Repeat("n", 80) + "…"},
	} {
		status, out := r.postJSON("/register", map[string]any{"redirect_uris": []string{"http://localhost/callback"}, "client_name": c.name})
		got, _ := out["client_name"].(string)
		if status != 201 || got != c.want {
			t.Errorf("client_name %q: %d, registered as %q, want %q", c.name, status, got, c.want)
		}
		if utf8.RuneCountInString(got) > 81 {
			t.Errorf("client_name %q: registered as %d runes", c.name, utf8.RuneCountInString(got))
		}
	}
}
