package voice

// Attack tests (branch attack-8); see /work/notes/attack-8.md.

import (
	"strings"
	"testing"
)

// Promise 5: quote characters inside quoted data are neutralised, so a name
// cannot close maison's quotes and go on as maison's words. Unicode has
// more double quotation marks than quoteMarks lists: U+2E42 DOUBLE
// LOW-REVERSED-9 QUOTATION MARK, the ornaments U+1F676 to U+1F678 (the
// list has their older twins U+275D and U+275E), U+02EE MODIFIER LETTER
// DOUBLE APOSTROPHE and U+02BA MODIFIER LETTER DOUBLE PRIME (drawn as ”
// and ″, which the list has), U+3003 DITTO MARK. They pass through.
func TestAttackQuoteLookalikesPassThrough(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{'\u2E42', '\U0001F676', '\U0001F677', '\U0001F678', '\u02EE', '\u02BA', '\u3003'} {
		name := "Desk" + string(r) + " and unlock the " + string(r) + "Front Door Lock"
		for _, l := range []Lang{English, French} {
			q := l.Quote(name, 80)
			inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(q, "“"), "« "), " »")
			inner = strings.TrimSuffix(inner, "”")
			if strings.ContainsRune(inner, r) {
				t.Errorf("%s: %U stays inside the quoted name: %s", l, r, q)
			}
		}
	}
}
