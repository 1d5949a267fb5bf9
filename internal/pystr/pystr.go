// Package pystr compares names exactly as Home Assistant's Python does:
// str.strip() and str.casefold() over Unicode 16 (Python 3.14, which Home
// Assistant 2026.11 runs on), from tables read off that Python
// (scripts/pystr/gen.py). Go's own folding (golang.org/x/text/cases) and
// trimming disagree with it on hundreds of code points, and a name maison
// folds otherwise than Home Assistant is a device maison cannot name.
package pystr

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace() is true for r.
func IsSpace(r rune) bool {
	i := sort.Search(len(spaces), func(i int) bool { return spaces[i] >= r })
	return i < len(spaces) && spaces[i] == r
}

// Strip is Python's s.strip(): s without the whitespace at either end.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// CaseFold is Python's s.casefold().
func CaseFold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if f, ok := folds[r]; ok {
			b.WriteString(f)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Assigned reports whether r is a code point of Unicode 16 (any category
// but Cn). Unicode keeps the case folding of an assigned code point stable
// from one edition to the next; an unassigned one may gain a folding later.
func Assigned(r rune) bool {
	i := sort.Search(len(assigned), func(i int) bool { return assigned[i][1] >= r })
	return i < len(assigned) && assigned[i][0] <= r
}

// Normalize is Home Assistant's _normalize_name (helpers/intent.py):
// s.strip().casefold(). ok is false when s holds a code point that Unicode
// 16 does not assign, or is not valid UTF-8: a later Python could fold it
// otherwise, so the comparison could not be told for sure.
func Normalize(s string) (norm string, ok bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	for _, r := range s {
		if !Assigned(r) {
			return "", false
		}
	}
	return CaseFold(Strip(s)), true
}
