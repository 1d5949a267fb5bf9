package accesslog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextCannotForgeNorHideALogLine: text from outside on a log line is
// at most 81 runes, "…" included, on one line, without what a reader of
// the log would not see.
func TestTextCannotForgeNorHideALogLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Claude\n2026-12-01 level=INFO msg=\"forged\"", `Claude 2026-12-01 level=INFO msg="forged"`},
		{"ha_turn\u202e\u200b_on\x1b[31m", "ha_turn_on[31m"},
		{strings.Repeat("a", 81), strings.Repeat("a", 81)},
		{strings.Repeat("a\u200b", 82), strings.Repeat("a", 80) + "…"},
	} {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if utf8.RuneCountInString(got) > 81 || strings.ContainsAny(got, "\r\n") {
			t.Errorf("Text(%q) = %q is more than one bounded line", c.in, got)
		}
	}
}
