// Package voice writes text for the ear, in English, in French as it is
// written in Québec, and in German; each language's rules are in a file of
// their own (en.go, fr.go, de.go).
//
// What maison's tools return is read by a model and often spoken aloud, so
// everything here produces plain sentences: lists said as people say them
// ("a, b and c", « a, b et c »), times relative to now ("two minutes ago",
// « il y a deux minutes »), numbers with their units spoken ("21.5 degrees
// Celsius", « 21,5 degrés Celsius »), clock times as a listener expects them
// ("at 7:05 PM", « à 19 h 05 »).
//
// German writes numbers as German does ("1.013,3", "21,5 Grad Celsius"), its
// clock times on 24 hours ("um 19:05 Uhr"), quoted data between „ and “.
//
// French output uses a no-break space (U+00A0) where Québec typography puts
// one: between groups of digits (« 1 250 ») and around the h of a clock time
// (« 19 h 05 »). A no-break space keeps a number in one piece for line
// wrappers and text-to-speech normalisers alike, where a plain space lets
// « 1 250 » be taken for two numbers; it is also more widely handled by speech
// engines and tokenisers than the narrow no-break space U+202F.
// [Sentence] and [Paragraph] keep a lone no-break space; [Clean] does not.
//
// Text read from Home Assistant (names, states) is data: [Clean] makes it safe
// to say without interpreting it. [Speakable] checks that a finished text is
// fit for the ear, for tests across the project.
//
// The package is pure: no I/O, no state, safe for concurrent use.
package voice

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Lang is a language maison speaks. Methods on a value that is not one of
// [Langs] speak English. Each language's rules live in a file of its own
// (en.go, fr.go): its number words, units, times, lists and quotation marks.
type Lang string

// The languages maison speaks.
const (
	English Lang = "en" // English, US spelling and 12-hour clock.
	French  Lang = "fr" // French as written in Québec, 24-hour clock.
	German  Lang = "de" // German, 24-hour clock.
)

// ErrLang is wrapped by the error [ParseLang] returns for a language maison
// does not speak.
var ErrLang = errors.New("voice: unsupported language")

// ParseLang reads a language tag as found in MAISON_LANG or a POSIX locale:
// "", "en", "en-US", "EN", "en_US.UTF-8" are English; "fr", "fr-CA", "fr_CA"
// are French. Anything else is an error naming MAISON_LANG and the accepted
// values.
func ParseLang(s string) (Lang, error) {
	tag := strings.ToLower(strings.TrimSpace(s))
	tag, _, _ = strings.Cut(tag, ".") // POSIX encoding, as in fr_CA.UTF-8
	tag, _, _ = strings.Cut(tag, "@") // POSIX modifier
	primary, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	if tag == "" {
		return English, nil
	}
	if _, ok := langs[Lang(primary)]; ok {
		return Lang(primary), nil
	}
	tags := make([]string, 0, len(langs))
	for _, l := range Langs() {
		tags = append(tags, string(l))
	}
	return "", fmt.Errorf("%w %q: set MAISON_LANG to %s (a region such as en-US or fr-CA is accepted)", ErrLang, s, English.Or(tags))
}

// Preferred is the language a browser asks for first, in an HTTP
// Accept-Language header ("de-CH, fr;q=0.8, en;q=0.5"), among those maison
// speaks, or fallback when it asks for none of them (or for "*"). Tags are
// ordered by their quality, the header's order breaking ties; a tag's
// region is not considered. Only the header's first 32 tags are read.
func Preferred(accept string, fallback Lang) Lang {
	type pick struct {
		lang Lang
		q    float64
	}
	var picks []pick
	for i, item := range strings.Split(accept, ",") {
		if i == 32 {
			break
		}
		tag, params, _ := strings.Cut(item, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		tag = strings.TrimSpace(tag)
		if q == 0 || tag == "" {
			continue
		}
		if tag == "*" {
			picks = append(picks, pick{fallback, q})
			continue
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(tag, "_", "-")), "-")
		if _, ok := langs[Lang(primary)]; ok {
			picks = append(picks, pick{Lang(primary), q})
		}
	}
	best := pick{fallback, 0}
	for _, p := range picks {
		if p.q > best.q {
			best = p
		}
	}
	return best.lang
}

// List says items as a list joined by "and" / « et », without a serial
// comma: "", "a", "a and b", "a, b and c" / « a, b et c ». Blank items are
// left out.
func (l Lang) List(items []string) string { return join(items, l.r().and) }

// Or says items as alternatives: "a, b or c" / « a, b ou c ». Blank items are
// left out.
func (l Lang) Or(items []string) string { return join(items, l.r().or) }

func join(items []string, last string) string {
	kept := make([]string, 0, len(items))
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			kept = append(kept, it)
		}
	}
	switch len(kept) {
	case 0:
		return ""
	case 1:
		return kept[0]
	}
	n := len(kept)
	return strings.Join(kept[:n-1], ", ") + " " + last + " " + kept[n-1]
}
