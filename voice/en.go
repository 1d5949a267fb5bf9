package voice

import "fmt"

// english is how maison says numbers, units, times and lists in English:
// US spelling, a 12-hour clock.
var english = rules{
	name: "English",
	and:  "and", or: "or",

	minus: "minus", groupSep: ",", decimalMark: ".",
	words:    func(n int, _ Gender) string { return enWords(n) },
	unknown:  "unknown",
	infinity: "infinity",

	units:   enUnits,
	unitOne: func(rounded float64) bool { return rounded == 1 },
	count: func(r *rules, n int, noun Noun) string {
		switch {
		case n == 0:
			return "no " + noun.many()
		case n == 1 || n == -1:
			return r.number(n, noun.Gender) + " " + noun.One
		}
		return r.number(n, noun.Gender) + " " + noun.many()
	},

	amount: enAmount,
	ago:    func(r *rules, n int, u timeUnit) string { return enAmount(r, n, u) + " ago" },
	timeWords: [...]Noun{
		seconds: {One: "second"}, minutes: {One: "minute"}, hours: {One: "hour"}, days: {One: "day"},
		weeks: {One: "week"}, months: {One: "month"}, years: {One: "year"},
	},
	justNow:     "just now",
	zeroSeconds: "zero seconds",
	underSecond: "less than a second",
	clock:       enClock,
	at:          "at ",

	open: "“", close: "”",

	common: wordSet("the a an is are was were and of to in on at with nobody no there someone something it its this that by from be has have not empty closed open person people car door"),
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

// enAmount says n of a unit of time: "an hour", "two hours".
func enAmount(r *rules, n int, u timeUnit) string {
	if n == 1 {
		if u == hours {
			return "an hour"
		}
		return "a " + r.timeWords[u].One
	}
	return r.number(n, Masculine) + " " + r.timeWords[u].many()
}

// enClock says a time of day: "7:05 PM", "7 PM", "noon", "midnight".
func enClock(h, m int) string {
	switch {
	case h == 0 && m == 0:
		return "midnight"
	case h == 12 && m == 0:
		return "noon"
	}
	suffix := "AM"
	if h >= 12 {
		suffix = "PM"
	}
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	if m == 0 {
		return fmt.Sprintf("%d %s", h12, suffix)
	}
	return fmt.Sprintf("%d:%02d %s", h12, m, suffix)
}

// enUnits maps the unit symbols Home Assistant uses to their spoken words,
// in US spelling.
var enUnits = map[string]unitWords{
	"°C":     {"degree Celsius", "degrees Celsius"},
	"℃":      {"degree Celsius", "degrees Celsius"},
	"°F":     {"degree Fahrenheit", "degrees Fahrenheit"},
	"℉":      {"degree Fahrenheit", "degrees Fahrenheit"},
	"K":      {"kelvin", "kelvins"},
	"°":      {"degree", "degrees"},
	"%":      {"percent", "percent"},
	"W":      {"watt", "watts"},
	"kW":     {"kilowatt", "kilowatts"},
	"Wh":     {"watt-hour", "watt-hours"},
	"kWh":    {"kilowatt-hour", "kilowatt-hours"},
	"V":      {"volt", "volts"},
	"A":      {"ampere", "amperes"},
	"mA":     {"milliampere", "milliamperes"},
	"Hz":     {"hertz", "hertz"},
	"lx":     {"lux", "lux"},
	"lm":     {"lumen", "lumens"},
	"ppm":    {"part per million", "parts per million"},
	"ppb":    {"part per billion", "parts per billion"},
	"µg/m³":  {"microgram per cubic meter", "micrograms per cubic meter"},
	"μg/m³":  {"microgram per cubic meter", "micrograms per cubic meter"},
	"Pa":     {"pascal", "pascals"},
	"hPa":    {"hectopascal", "hectopascals"},
	"kPa":    {"kilopascal", "kilopascals"},
	"mbar":   {"millibar", "millibars"},
	"bar":    {"bar", "bars"},
	"inHg":   {"inch of mercury", "inches of mercury"},
	"psi":    {"pound per square inch", "pounds per square inch"},
	"km/h":   {"kilometer per hour", "kilometers per hour"},
	"m/s":    {"meter per second", "meters per second"},
	"mph":    {"mile per hour", "miles per hour"},
	"mm":     {"millimeter", "millimeters"},
	"cm":     {"centimeter", "centimeters"},
	"m":      {"meter", "meters"},
	"km":     {"kilometer", "kilometers"},
	"in":     {"inch", "inches"},
	"ft":     {"foot", "feet"},
	"mi":     {"mile", "miles"},
	"mm/h":   {"millimeter per hour", "millimeters per hour"},
	"L":      {"liter", "liters"},
	"mL":     {"milliliter", "milliliters"},
	"m³":     {"cubic meter", "cubic meters"},
	"gal":    {"gallon", "gallons"},
	"g":      {"gram", "grams"},
	"kg":     {"kilogram", "kilograms"},
	"lb":     {"pound", "pounds"},
	"ms":     {"millisecond", "milliseconds"},
	"s":      {"second", "seconds"},
	"min":    {"minute", "minutes"},
	"h":      {"hour", "hours"},
	"d":      {"day", "days"},
	"dB":     {"decibel", "decibels"},
	"MB":     {"megabyte", "megabytes"},
	"GB":     {"gigabyte", "gigabytes"},
	"Mbit/s": {"megabit per second", "megabits per second"},
}
