package jpegfix

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestQuoteShowsWhatAPersonSeesOfTheStart: the excerpt of a body that is
// not a JPEG holds at most 60 runes of it and "…" where cut, and nothing a
// reader would not see (controls, bidi overrides, zero-width characters),
// which would otherwise reorder or hide the error's text.
func TestQuoteShowsWhatAPersonSeesOfTheStart(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 100)
	got := quote([]byte(long))
	if want := `: it begins "` + strings.Repeat("é", 60) + `…"`; got != want {
		t.Errorf("quote of 100 runes = %q, want %q", got, want)
	}
	exact := strings.Repeat("x", 60)
	if got := quote([]byte(exact)); got != `: it begins "`+exact+`"` {
		t.Errorf("quote of 60 runes = %q, want it whole", got)
	}
	got = quote([]byte("<html>\u202e\x01\u200bError\x00 page</html>"))
	if want := `: it begins "<html>Error page</html>"`; got != want {
		t.Errorf("quote with invisible characters = %q, want %q", got, want)
	}
	if got := quote([]byte("\u200b\u202e\x00")); got != "" {
		t.Errorf("quote of nothing visible = %q, want none", got)
	}
	if n := utf8.RuneCountInString(quote([]byte(strings.Repeat("\u200b", 500) + long))); n > len(`: it begins ""`)+60 {
		t.Errorf("quote is %d runes long", n)
	}
}
