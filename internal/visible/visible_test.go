package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextKeepsAtMostTheLimit: the limit counts runes, "…" included, and
// text within it is never cut; zero means no limit.
func TestTextKeepsAtMostTheLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"éèêëàâ!", 3, "éè…"},
		{"a b", 1, "…"},
		{strings.Repeat("x", 500), 0, strings.Repeat("x", 500)},
		{"  spaced   out  ", 9, "spaced o…"},
	} {
		got := Text(c.in, c.max)
		if got != c.want {
			t.Errorf("Text(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if c.max > 0 && utf8.RuneCountInString(got) > c.max {
			t.Errorf("Text(%q, %d) is %d runes long", c.in, c.max, utf8.RuneCountInString(got))
		}
	}
}

// TestTextDropsWhatIsNotSeen: each kind of invisible character, and bytes
// that are not UTF-8, are dropped before the limit is counted, so they
// neither hide text nor use up the limit.
func TestTextDropsWhatIsNotSeen(t *testing.T) {
	t.Parallel()
	for _, hidden := range []string{"\x00", "\x1b", "\u202e", "\u2066", "\u200b", "\u200d", "\u00ad", "\U000e0041", "\ufe0f", "\u3164", "\u2800", "\ue000", "\xff"} {
		in := "ab" + strings.Repeat(hidden, 10) + "cd"
		if got := Text(in, 5); got != "abcd" {
			t.Errorf("Text(%q, 5) = %q, want %q", in, got, "abcd")
		}
		if !Invisible([]rune(hidden)[0]) && hidden != "\xff" {
			t.Errorf("%q is not Invisible", hidden)
		}
	}
	for _, seen := range []rune{'a', ' ', '_', '{', '…', 'é', '\u00a0'} {
		if Invisible(seen) {
			t.Errorf("%q is Invisible", seen)
		}
	}
}
