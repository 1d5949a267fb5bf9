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
func (l Lang) Number(n int) string { return l.number(n, false) }

func (l Lang) number(n int, feminine bool) string {
	if n < 0 {
		// -(n+1) cannot overflow, even for the smallest int.
		return l.minus() + " " + l.unsigned(uint64(-(n+1))+1, feminine)
	}
	return l.unsigned(uint64(n), feminine)
}

func (l Lang) unsigned(n uint64, feminine bool) string {
	switch {
	case n > 100:
		return group(strconv.FormatUint(n, 10), l.groupSep())
	case l.fr():
		return frWords(int(n), feminine)
	}
	return enWords(int(n))
}

func (l Lang) minus() string {
	if l.fr() {
		return "moins"
	}
	return "minus"
}

func (l Lang) groupSep() string {
	if l.fr() {
		return nbsp
	}
	return ","
}

var enSmall = [20]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}

var enTens = [10]string{2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}

// enWords says 0..100 in English words.
func enWords(n int) string {
	switch {
	case n == 100:
		return "one hundred"
	case n < 20:
		return enSmall[n]
	case n%10 == 0:
		return enTens[n/10]
	}
	return enTens[n/10] + "-" + enSmall[n%10]
}

var frSmall = [20]string{"zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
	"dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"}

var frTens = [7]string{2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}

// frWords says 0..100 in French words, in the traditional spelling used in
// Québec (« vingt et un », « soixante-dix », « quatre-vingts »; no septante
// or nonante). When feminine, un becomes une, alone or at the end of a
// compound (« vingt et une », « quatre-vingt-une »).
func frWords(n int, feminine bool) string {
	un := func(w string) string {
		if feminine && w == "un" {
			return "une"
		}
		return w
	}
	switch {
	case n == 100:
		return "cent"
	case n < 20:
		return un(frSmall[n])
	case n == 80:
		return "quatre-vingts"
	}
	tens, rest := n/10, n%10
	var base string
	switch tens {
	case 7: // soixante-dix, soixante et onze, soixante-douze…
		base, rest = "soixante", 10+rest
	case 8: // quatre-vingt-un, quatre-vingt-deux…
		base = "quatre-vingt"
	case 9: // quatre-vingt-dix, quatre-vingt-onze…
		base, rest = "quatre-vingt", 10+rest
	default:
		base = frTens[tens]
	}
	switch {
	case rest == 0:
		return base
	case (rest == 1 || rest == 11) && tens < 8:
		return base + " et " + un(frSmall[rest])
	}
	return base + "-" + un(frSmall[rest])
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

// Noun is a countable thing named in one language, for [Lang.Count].
// French needs its gender: « une lumière », « un capteur », « aucune porte ».
type Noun struct {
	One      string // singular: "light", « lumière »
	Many     string // plural: "lights", « lumières »; empty means One followed by s
	Feminine bool   // French grammatical gender; ignored in English
}

func (n Noun) many() string {
	if n.Many == "" {
		return n.One + "s"
	}
	return n.Many
}

// Plural chooses the form for n things, in either language: one when n is
// 1, many otherwise (voice.Plural(n, "has", "have")).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count says how many of a thing there are, the number in words up to one
// hundred: "no lights", "one light", "three lights"; « aucune lumière »,
// « une lumière », « vingt et une lumières », « aucun capteur », « un
// capteur ». The noun must be in the language spoken.
func (l Lang) Count(n int, noun Noun) string {
	switch {
	case n == 0 && l.fr():
		if noun.Feminine {
			return "aucune " + noun.One
		}
		return "aucun " + noun.One
	case n == 0:
		return "no " + noun.many()
	case n == 1 || n == -1:
		return l.number(n, noun.Feminine) + " " + noun.One
	}
	return l.number(n, noun.Feminine) + " " + noun.many()
}

// Decimal says v in digits with at most maxFrac digits after the decimal
// mark (0 to 9), trailing zeros dropped: "21.5", « 21,5 », "1,013.3",
// « 1 013,3 ». Negative values start with "minus" / « moins »; a value that
// rounds to zero has no sign. Rounding is of the decimal number, halves away
// from zero (3.25 to one digit is 3.3). NaN is "unknown" / « inconnu ».
func (l Lang) Decimal(v float64, maxFrac int) string {
	switch {
	case math.IsNaN(v):
		return l.Pick("unknown", "inconnu")
	case math.IsInf(v, 1):
		return l.Pick("infinity", "l'infini")
	case math.IsInf(v, -1):
		return l.minus() + " " + l.Pick("infinity", "l'infini")
	}
	s := round(math.Abs(v), maxFrac)
	whole, frac, _ := strings.Cut(s, ".")
	out := group(whole, l.groupSep())
	if frac != "" {
		out += l.Pick(".", ",") + frac
	}
	if v < 0 && s != "0" {
		out = l.minus() + " " + out
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
	w, ok := units[unit]
	if !ok {
		return num + " " + l.Quote(unit, 32) // a unit maison does not know is data from the house
	}
	rounded, _ := strconv.ParseFloat(round(math.Abs(v), frac), 64)
	switch {
	case l.fr() && rounded < 2:
		return num + " " + w.frOne
	case l.fr():
		return num + " " + w.frMany
	case rounded == 1:
		return num + " " + w.enOne
	}
	return num + " " + w.enMany
}

// unitWords is how a unit is said, singular and plural, in each language.
type unitWords struct{ enOne, enMany, frOne, frMany string }

// units maps the unit symbols Home Assistant uses to their spoken words.
// English follows US spelling, French the usage of the Office québécois de la
// langue française (kilowattheure, kilomètres à l'heure, milles à l'heure).
var units = map[string]unitWords{
	"°C":     {"degree Celsius", "degrees Celsius", "degré Celsius", "degrés Celsius"},
	"℃":      {"degree Celsius", "degrees Celsius", "degré Celsius", "degrés Celsius"},
	"°F":     {"degree Fahrenheit", "degrees Fahrenheit", "degré Fahrenheit", "degrés Fahrenheit"},
	"℉":      {"degree Fahrenheit", "degrees Fahrenheit", "degré Fahrenheit", "degrés Fahrenheit"},
	"K":      {"kelvin", "kelvins", "kelvin", "kelvins"},
	"°":      {"degree", "degrees", "degré", "degrés"},
	"%":      {"percent", "percent", "pour cent", "pour cent"},
	"W":      {"watt", "watts", "watt", "watts"},
	"kW":     {"kilowatt", "kilowatts", "kilowatt", "kilowatts"},
	"Wh":     {"watt-hour", "watt-hours", "wattheure", "wattheures"},
	"kWh":    {"kilowatt-hour", "kilowatt-hours", "kilowattheure", "kilowattheures"},
	"V":      {"volt", "volts", "volt", "volts"},
	"A":      {"ampere", "amperes", "ampère", "ampères"},
	"mA":     {"milliampere", "milliamperes", "milliampère", "milliampères"},
	"Hz":     {"hertz", "hertz", "hertz", "hertz"},
	"lx":     {"lux", "lux", "lux", "lux"},
	"lm":     {"lumen", "lumens", "lumen", "lumens"},
	"ppm":    {"part per million", "parts per million", "partie par million", "parties par million"},
	"ppb":    {"part per billion", "parts per billion", "partie par milliard", "parties par milliard"},
	"µg/m³":  {"microgram per cubic meter", "micrograms per cubic meter", "microgramme par mètre cube", "microgrammes par mètre cube"},
	"μg/m³":  {"microgram per cubic meter", "micrograms per cubic meter", "microgramme par mètre cube", "microgrammes par mètre cube"},
	"Pa":     {"pascal", "pascals", "pascal", "pascals"},
	"hPa":    {"hectopascal", "hectopascals", "hectopascal", "hectopascals"},
	"kPa":    {"kilopascal", "kilopascals", "kilopascal", "kilopascals"},
	"mbar":   {"millibar", "millibars", "millibar", "millibars"},
	"bar":    {"bar", "bars", "bar", "bars"},
	"inHg":   {"inch of mercury", "inches of mercury", "pouce de mercure", "pouces de mercure"},
	"psi":    {"pound per square inch", "pounds per square inch", "livre par pouce carré", "livres par pouce carré"},
	"km/h":   {"kilometer per hour", "kilometers per hour", "kilomètre à l'heure", "kilomètres à l'heure"},
	"m/s":    {"meter per second", "meters per second", "mètre par seconde", "mètres par seconde"},
	"mph":    {"mile per hour", "miles per hour", "mille à l'heure", "milles à l'heure"},
	"mm":     {"millimeter", "millimeters", "millimètre", "millimètres"},
	"cm":     {"centimeter", "centimeters", "centimètre", "centimètres"},
	"m":      {"meter", "meters", "mètre", "mètres"},
	"km":     {"kilometer", "kilometers", "kilomètre", "kilomètres"},
	"in":     {"inch", "inches", "pouce", "pouces"},
	"ft":     {"foot", "feet", "pied", "pieds"},
	"mi":     {"mile", "miles", "mille", "milles"},
	"mm/h":   {"millimeter per hour", "millimeters per hour", "millimètre à l'heure", "millimètres à l'heure"},
	"L":      {"liter", "liters", "litre", "litres"},
	"mL":     {"milliliter", "milliliters", "millilitre", "millilitres"},
	"m³":     {"cubic meter", "cubic meters", "mètre cube", "mètres cubes"},
	"gal":    {"gallon", "gallons", "gallon", "gallons"},
	"g":      {"gram", "grams", "gramme", "grammes"},
	"kg":     {"kilogram", "kilograms", "kilogramme", "kilogrammes"},
	"lb":     {"pound", "pounds", "livre", "livres"},
	"ms":     {"millisecond", "milliseconds", "milliseconde", "millisecondes"},
	"s":      {"second", "seconds", "seconde", "secondes"},
	"min":    {"minute", "minutes", "minute", "minutes"},
	"h":      {"hour", "hours", "heure", "heures"},
	"d":      {"day", "days", "jour", "jours"},
	"dB":     {"decibel", "decibels", "décibel", "décibels"},
	"MB":     {"megabyte", "megabytes", "mégaoctet", "mégaoctets"},
	"GB":     {"gigabyte", "gigabytes", "gigaoctet", "gigaoctets"},
	"Mbit/s": {"megabit per second", "megabits per second", "mégabit par seconde", "mégabits par seconde"},
}
