package voice

import (
	"math"
	"strconv"
	"strings"
)

// Number says a whole number: in words from minus one hundred to one hundred
// ("twenty-one", « soixante et onze », « quatre-vingts »), in digits grouped
// by thousands beyond ("1,250", « 1 250 » with a no-break space). Negative
// numbers start with "minus" / « moins ».
func (l Lang) Number(n int) string { return l.r().number(n, Masculine) }

func (r *rules) number(n int, g Gender) string {
	if n < 0 {
		// -(n+1) cannot overflow, even for the smallest int.
		return r.minus + " " + r.unsigned(uint64(-(n+1))+1, g)
	}
	return r.unsigned(uint64(n), g)
}

func (r *rules) unsigned(n uint64, g Gender) string {
	if n > 100 {
		return group(strconv.FormatUint(n, 10), r.groupSep)
	}
	return r.words(int(n), g)
}

// group inserts sep between groups of three digits of a string of digits.
func group(digits, sep string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteString(sep)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Gender is a noun's grammatical gender, for the languages that have one:
// « une lumière », « un capteur ».
type Gender int

// The genders.
const (
	Masculine Gender = iota
	Feminine
	Neuter
)

// Noun is a countable thing named in one language, for [Lang.Count].
// French needs its gender: « une lumière », « un capteur », « aucune porte ».
type Noun struct {
	One    string // singular: "light", « lumière »
	Many   string // plural: "lights", « lumières »; empty means One followed by s
	Gender Gender // its grammatical gender; ignored in English
}

func (n Noun) many() string {
	if n.Many == "" {
		return n.One + "s"
	}
	return n.Many
}

// Count says how many of a thing there are, the number in words up to one
// hundred: "no lights", "one light", "three lights"; « aucune lumière »,
// « une lumière », « vingt et une lumières », « aucun capteur », « un
// capteur ». The noun must be in the language spoken.
func (l Lang) Count(n int, noun Noun) string { return l.r().count(l.r(), n, noun) }

// Decimal says v in digits with at most maxFrac digits after the decimal
// mark (0 to 9), trailing zeros dropped: "21.5", « 21,5 », "1,013.3",
// « 1 013,3 ». Negative values start with "minus" / « moins »; a value that
// rounds to zero has no sign. Rounding is of the decimal number, halves away
// from zero (3.25 to one digit is 3.3). NaN is "unknown" / « inconnu ».
func (l Lang) Decimal(v float64, maxFrac int) string {
	r := l.r()
	switch {
	case math.IsNaN(v):
		return r.unknown
	case math.IsInf(v, 1):
		return r.infinity
	case math.IsInf(v, -1):
		return r.minus + " " + r.infinity
	}
	s := round(math.Abs(v), maxFrac)
	whole, frac, _ := strings.Cut(s, ".")
	out := group(whole, r.groupSep)
	if frac != "" {
		out += r.decimalMark + frac
	}
	if v < 0 && s != "0" {
		out = r.minus + " " + out
	}
	return out
}

// round writes a (not negative) with at most maxFrac digits after the point,
// clamped to 0..9, trailing zeros dropped. It rounds the decimal a listener
// would see, halves away from zero: 3.25 is 3.3 with one digit, although the
// binary double nearest 3.25 would round to 3.2.
func round(a float64, maxFrac int) string {
	maxFrac = min(max(maxFrac, 0), 9)
	s := strconv.FormatFloat(a, 'f', -1, 64) // shortest decimal that reads back as a
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > maxFrac {
		up := frac[maxFrac] >= '5'
		frac = frac[:maxFrac]
		if up {
			digits := []byte(whole + frac)
			i := len(digits) - 1
			for ; i >= 0 && digits[i] == '9'; i-- {
				digits[i] = '0'
			}
			if i < 0 {
				digits = append([]byte{'1'}, digits...)
			} else {
				digits[i]++
			}
			whole, frac = string(digits[:len(digits)-maxFrac]), string(digits[len(digits)-maxFrac:])
		}
	}
	if frac = strings.TrimRight(frac, "0"); frac != "" {
		return whole + "." + frac
	}
	return whole
}

// Measure says a quantity with its unit spoken in full, as Home Assistant
// writes units: "21.5 degrees Celsius", « 21,5 degrés Celsius », "45 percent",
// « 45 pour cent », "1 kilowatt-hour". Precision follows size: no decimals
// from 100 up, one from 1 up, two below 1. The unit is singular for exactly 1
// in English and, as French grammar wants, for anything below 2 in French
// (« 1,5 degré Celsius »). A unit not in the table is said as given, cleaned
// with [Clean]; an empty unit gives the number alone, and so does a value
// that is not finite ("unknown" for NaN).
func (l Lang) Measure(v float64, unit string) string {
	frac := 2
	if a := math.Abs(v); a >= 100 {
		frac = 0
	} else if a >= 1 {
		frac = 1
	}
	num := l.Decimal(v, frac)
	unit = strings.TrimSpace(unit)
	if unit == "" || math.IsNaN(v) || math.IsInf(v, 0) {
		return num
	}
	w, ok := l.r().units[unit]
	if !ok {
		return num + " " + l.Quote(unit, 32) // a unit maison does not know is data from the house
	}
	rounded, _ := strconv.ParseFloat(round(math.Abs(v), frac), 64)
	if l.r().unitOne(rounded) {
		return num + " " + w.one
	}
	return num + " " + w.many
}
