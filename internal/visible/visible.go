// Package visible keeps, of text from outside, what a person reading it
// sees: the one rule for what is invisible or reorders text, and the
// bounding every repetition of such text shares, the limit given by the
// caller. voice builds what is said aloud on it (voice.Clean) and passes it
// on to the packages above (voice.Visible, voice.Invisible); jpegfix, below
// voice, uses it directly. It imports only the standard library.
package visible

import (
	"strings"
	"unicode"
)

// Invisible reports whether r is one of the characters a person reading a
// name does not see, or that changes the order in which they see the rest:
// every control and format character (general categories Cc and Cf: the
// bidi embeddings, overrides, isolates and marks U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C; zero-width spaces and joiners;
// soft hyphens; tag characters U+E0000–U+E007F), every variation selector
// (U+FE00–U+FE0F, U+E0100–U+E01EF, the Mongolian ones), the other default
// ignorable code points of Unicode's DerivedCoreProperties (the Hangul
// fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme joiner,
// the reserved U+2065, U+FFF0–U+FFF8 and U+E0080–U+E0FFF), the braille
// blank U+2800 and private-use characters. White space is not in the set:
// it is collapsed instead.
//
// The zero-width joiner goes too, even inside an emoji sequence: an emoji
// stays, but a joined one is said as its parts (a family as its people), and
// U+FE0F no longer asks for the colour form. Names are read aloud and
// compared, and a joiner is the usual carrier of text that cannot be seen.
func Invisible(r rune) bool {
	if unicode.IsSpace(r) {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) ||
		r == '\u2800'
}

// Text gives text from outside (a tool's name, a method, a header, a
// client's name, the start of a body) as it may be repeated in an error, a
// page or a log line: every [Invisible] character and invalid UTF-8
// dropped, white space collapsed to single spaces, and, when max > 0, at
// most max runes, ending with "…" where cut. It keeps markup characters and
// underscores and does not reorder: with the bidi controls gone the text
// reads as it is stored, so an identifier stays the identifier that was
// sent, minus what cannot be seen.
func Text(s string, max int) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case Invisible(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))), " ")
	if r := []rune(s); max > 0 && len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
