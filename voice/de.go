package voice

import "fmt"

// german is how maison says numbers, units, times and lists in German: a
// 24-hour clock ("um 19:05 Uhr"), a comma before decimals and a full stop
// between groups of digits ("1.013,3"), „…“ around quoted data.
var german = rules{
	name: "Deutsch",
	and:  "und", or: "oder",

	minus: "minus", groupSep: ".", decimalMark: ",",
	words:    func(n int, _ Gender) string { return deWords(n) },
	unknown:  "unbekannt",
	infinity: "unendlich",

	units:   deUnits,
	unitOne: func(rounded float64) bool { return rounded == 1 },
	count: func(r *rules, n int, noun Noun) string {
		switch {
		case n == 0:
			return "keine " + noun.many()
		case n == 1:
			return deOne(noun.Gender) + " " + noun.One
		case n == -1:
			return r.minus + " " + deOne(noun.Gender) + " " + noun.One
		}
		return r.number(n, noun.Gender) + " " + noun.many()
	},

	amount: func(r *rules, n int, u timeUnit) string { return r.count(r, n, r.timeWords[u]) },
	// "vor" takes the dative: vor einer Stunde, vor drei Tagen.
	ago: func(r *rules, n int, u timeUnit) string {
		w := r.timeWords[u]
		switch {
		case n == 1 && w.Gender == Feminine:
			return "vor einer " + w.One
		case n == 1:
			return "vor einem " + w.One
		}
		return "vor " + r.number(n, w.Gender) + " " + deDativePlural[u]
	},
	timeWords: [...]Noun{
		seconds: {One: "Sekunde", Many: "Sekunden", Gender: Feminine}, minutes: {One: "Minute", Many: "Minuten", Gender: Feminine},
		hours: {One: "Stunde", Many: "Stunden", Gender: Feminine}, days: {One: "Tag", Many: "Tage"},
		weeks: {One: "Woche", Many: "Wochen", Gender: Feminine}, months: {One: "Monat", Many: "Monate"},
		years: {One: "Jahr", Many: "Jahre", Gender: Neuter},
	},
	justNow:     "gerade eben",
	zeroSeconds: "null Sekunden",
	underSecond: "weniger als eine Sekunde",
	clock:       deClock,
	at:          "um ",

	open: "„", close: "“",

	common: wordSet("der die das den dem des ein eine einen einem einer ist sind war waren und oder nicht kein keine niemand jemand ich sie er es im auf mit von bei für hat haben wurde wird tür tor geschlossen offen leer auto personen zu vor"),
}

// deOne is "one" before a noun of gender g, in the nominative: eine
// Lampe, ein Sensor, ein Gerät.
func deOne(g Gender) string {
	if g == Feminine {
		return "eine"
	}
	return "ein"
}

// deDativePlural are the units of time after "vor" and a number: vor zwei
// Tagen, vor drei Monaten.
var deDativePlural = [...]string{seconds: "Sekunden", minutes: "Minuten", hours: "Stunden", days: "Tagen",
	weeks: "Wochen", months: "Monaten", years: "Jahren"}

var deSmall = [20]string{"null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
	"zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"}

var deTens = [10]string{2: "zwanzig", 3: "dreißig", 4: "vierzig", 5: "fünfzig", 6: "sechzig", 7: "siebzig", 8: "achtzig", 9: "neunzig"}

// deWords says 0..100 in German words, written as one word: einundzwanzig,
// siebenundneunzig, hundert.
func deWords(n int) string {
	switch {
	case n == 100:
		return "hundert"
	case n < 20:
		return deSmall[n]
	case n%10 == 0:
		return deTens[n/10]
	case n%10 == 1:
		return "einund" + deTens[n/10]
	}
	return deSmall[n%10] + "und" + deTens[n/10]
}

// deClock says a time of day: "19:05 Uhr", "19 Uhr", "Mitternacht".
func deClock(h, m int) string {
	switch {
	case h == 0 && m == 0:
		return "Mitternacht"
	case m == 0:
		return fmt.Sprintf("%d Uhr", h)
	}
	return fmt.Sprintf("%d:%02d Uhr", h, m)
}

// deUnits maps the unit symbols Home Assistant uses to their spoken words,
// as German says them after a number: most stay in the singular (21,5 Grad
// Celsius, 45 Prozent, 3 Watt).
var deUnits = map[string]unitWords{
	"°C":     {"Grad Celsius", "Grad Celsius"},
	"℃":      {"Grad Celsius", "Grad Celsius"},
	"°F":     {"Grad Fahrenheit", "Grad Fahrenheit"},
	"℉":      {"Grad Fahrenheit", "Grad Fahrenheit"},
	"K":      {"Kelvin", "Kelvin"},
	"°":      {"Grad", "Grad"},
	"%":      {"Prozent", "Prozent"},
	"W":      {"Watt", "Watt"},
	"kW":     {"Kilowatt", "Kilowatt"},
	"Wh":     {"Wattstunde", "Wattstunden"},
	"kWh":    {"Kilowattstunde", "Kilowattstunden"},
	"V":      {"Volt", "Volt"},
	"A":      {"Ampere", "Ampere"},
	"mA":     {"Milliampere", "Milliampere"},
	"Hz":     {"Hertz", "Hertz"},
	"lx":     {"Lux", "Lux"},
	"lm":     {"Lumen", "Lumen"},
	"ppm":    {"Teil pro Million", "Teile pro Million"},
	"ppb":    {"Teil pro Milliarde", "Teile pro Milliarde"},
	"µg/m³":  {"Mikrogramm pro Kubikmeter", "Mikrogramm pro Kubikmeter"},
	"μg/m³":  {"Mikrogramm pro Kubikmeter", "Mikrogramm pro Kubikmeter"},
	"Pa":     {"Pascal", "Pascal"},
	"hPa":    {"Hektopascal", "Hektopascal"},
	"kPa":    {"Kilopascal", "Kilopascal"},
	"mbar":   {"Millibar", "Millibar"},
	"bar":    {"Bar", "Bar"},
	"inHg":   {"Zoll Quecksilbersäule", "Zoll Quecksilbersäule"},
	"psi":    {"Pfund pro Quadratzoll", "Pfund pro Quadratzoll"},
	"km/h":   {"Kilometer pro Stunde", "Kilometer pro Stunde"},
	"m/s":    {"Meter pro Sekunde", "Meter pro Sekunde"},
	"mph":    {"Meile pro Stunde", "Meilen pro Stunde"},
	"mm":     {"Millimeter", "Millimeter"},
	"cm":     {"Zentimeter", "Zentimeter"},
	"m":      {"Meter", "Meter"},
	"km":     {"Kilometer", "Kilometer"},
	"in":     {"Zoll", "Zoll"},
	"ft":     {"Fuß", "Fuß"},
	"mi":     {"Meile", "Meilen"},
	"mm/h":   {"Millimeter pro Stunde", "Millimeter pro Stunde"},
	"L":      {"Liter", "Liter"},
	"mL":     {"Milliliter", "Milliliter"},
	"m³":     {"Kubikmeter", "Kubikmeter"},
	"gal":    {"Gallone", "Gallonen"},
	"g":      {"Gramm", "Gramm"},
	"kg":     {"Kilogramm", "Kilogramm"},
	"lb":     {"Pfund", "Pfund"},
	"ms":     {"Millisekunde", "Millisekunden"},
	"s":      {"Sekunde", "Sekunden"},
	"min":    {"Minute", "Minuten"},
	"h":      {"Stunde", "Stunden"},
	"d":      {"Tag", "Tage"},
	"dB":     {"Dezibel", "Dezibel"},
	"MB":     {"Megabyte", "Megabyte"},
	"GB":     {"Gigabyte", "Gigabyte"},
	"Mbit/s": {"Megabit pro Sekunde", "Megabit pro Sekunde"},
}
