package voice

import (
	"slices"
	"strings"
)

// rules are how one language says what this package says: its number
// words, its units, its times, its lists, its quotation marks. Each
// language's rules live in a file of their own (en.go, fr.go, de.go), and langs
// lists them: adding a language is adding its file and its line there.
type rules struct {
	name string // the language's own name for itself: "English", « français »

	and, or string // the word before a list's last item

	minus       string                       // before a negative number
	groupSep    string                       // between groups of three digits: "1,250"
	decimalMark string                       // before the decimals: "21.5"
	words       func(n int, g Gender) string // 0 to 100 in words
	unknown     string                       // a value that is not a number
	infinity    string                       // a value past every number

	units   map[string]unitWords       // a unit symbol's words, singular and plural
	unitOne func(rounded float64) bool // whether a measure of this size takes the singular
	count   func(r *rules, n int, noun Noun) string

	amount      func(r *rules, n int, u timeUnit) string // "two hours", as a length of time
	ago         func(r *rules, n int, u timeUnit) string // "two hours ago"
	timeWords   [years + 1]Noun                          // the units of time, as nouns
	justNow     string                                   // under 45 seconds ago
	zeroSeconds string                                   // a length of time of zero
	underSecond string                                   // a length of time under half a second
	clock       func(h, m int) string                    // a time of day: "7:05 PM", « 19 h 05 »
	at          string                                   // before a time of day, after a verb: "at "

	open, close string // the quotation marks around quoted data

	common map[string]bool // words common in this language, to tell it from the others
}

// unitWords is how a unit is said, for one and for many.
type unitWords struct{ one, many string }

// timeUnit is a unit of time, from seconds to years.
type timeUnit int

const (
	seconds timeUnit = iota
	minutes
	hours
	days
	weeks
	months
	years
)

// langs are the languages maison speaks, each with its rules.
var langs = map[Lang]*rules{
	English: &english,
	French:  &french,
	German:  &german,
}

// r is l's rules; any Lang maison does not speak speaks English.
func (l Lang) r() *rules {
	if r, ok := langs[l]; ok {
		return r
	}
	return &english
}

// Langs are the languages maison speaks, English first, then in the order
// of their tags.
func Langs() []Lang {
	out := make([]Lang, 0, len(langs))
	for l := range langs {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Lang) int {
		if (a == English) != (b == English) {
			if a == English {
				return -1
			}
			return 1
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}
