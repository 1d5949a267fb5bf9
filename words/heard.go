package words

import (
	"strings"

	"maison/voice"
)

// What a person may say to maison rather than hear from it: the words
// that name the parts of a picture and the day before. Each key's text in
// a language is its words, separated by spaces; Heard gives them from
// every language maison speaks, since a person may mix them whatever the
// house's language.
const (
	HeardTop       Key = "heard.top"       // the upper part of a picture
	HeardBottom    Key = "heard.bottom"    // its lower part
	HeardLeft      Key = "heard.left"      // its left side
	HeardRight     Key = "heard.right"     // its right side
	HeardCentre    Key = "heard.centre"    // its centre
	HeardFiller    Key = "heard.filler"    // words people put around a part's name
	HeardYesterday Key = "heard.yesterday" // the day before today
	HeardHour      Key = "heard.hour"      // the mark between hours and minutes, or after the hour
)

// Heard is what a person may say for k, in every language maison speaks,
// in lower case.
func Heard(k Key) []string {
	var out []string
	for _, l := range voice.Langs() {
		out = append(out, strings.Fields(strings.ToLower(text(l, k)))...)
	}
	return out
}
