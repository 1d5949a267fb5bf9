package voice

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCleanersShareOneInvisibleRule: what is said (Clean) and what is
// repeated in an error or a log line (Visible) drop the same characters, so
// nothing hidden passes either way, and both hold their limit, "…"
// included, however much hidden text pads the input.
func TestCleanersShareOneInvisibleRule(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff || !Invisible(r) {
			continue
		}
		in := "Lo" + strings.Repeat(string(r), 3) + "ck"
		// A bidi control reorders what Clean says (it says the text as it
		// displays), but it is never said itself.
		if got := Clean(in, 0); strings.ContainsRune(got, r) || got != "Lock" && !hasBidiControl(in) {
			t.Fatalf("Clean(%q) = %q: U+%04X is invisible but was said", in, got, r)
		}
		if got := Visible(in, 0); got != "Lock" {
			t.Fatalf("Visible(%q) = %q: U+%04X is invisible but was repeated", in, got, r)
		}
	}
	padded := strings.Repeat("front\u200b door\u202e ", 40)
	for _, max := range []int{1, 2, 10, 64} {
		for name, got := range map[string]string{"Clean": Clean(padded, max), "Visible": Visible(padded, max)} {
			if n := utf8.RuneCountInString(got); n > max || !strings.HasSuffix(got, "…") {
				t.Errorf("%s(…, %d) = %q (%d runes), want at most %d ending with …", name, max, got, n, max)
			}
			if strings.ContainsFunc(got, Invisible) {
				t.Errorf("%s(…, %d) = %q keeps an invisible character", name, max, got)
			}
		}
	}
}
