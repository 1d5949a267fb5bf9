package voice

import "fmt"

// french is how maison says numbers, units, times and lists in French as
// written in Québec: a 24-hour clock, no-break spaces in numbers and times.
var french = rules{
	name: "français",
	and:  "et", or: "ou",

	minus: "moins", groupSep: nbsp, decimalMark: ",",
	words:    frWords,
	unknown:  "inconnu",
	infinity: "l'infini",

	units: frUnits,
	// French grammar wants the singular for anything below two: « 1,5 degré ».
	unitOne: func(rounded float64) bool { return rounded < 2 },
	count: func(r *rules, n int, noun Noun) string {
		switch {
		case n == 0 && noun.Gender == Feminine:
			return "aucune " + noun.One
		case n == 0:
			return "aucun " + noun.One
		case n == 1 || n == -1:
			return r.number(n, noun.Gender) + " " + noun.One
		}
		return r.number(n, noun.Gender) + " " + noun.many()
	},

	amount: func(r *rules, n int, u timeUnit) string { return r.count(r, n, r.timeWords[u]) },
	ago:    func(r *rules, n int, u timeUnit) string { return "il y a " + r.count(r, n, r.timeWords[u]) },
	timeWords: [...]Noun{
		seconds: {One: "seconde", Gender: Feminine}, minutes: {One: "minute", Gender: Feminine},
		hours: {One: "heure", Gender: Feminine}, days: {One: "jour"}, weeks: {One: "semaine", Gender: Feminine},
		months: {One: "mois", Many: "mois"}, years: {One: "an"},
	},
	justNow:     "à l'instant",
	zeroSeconds: "zéro seconde",
	underSecond: "moins d'une seconde",
	clock:       frClock,
	at:          "à ",

	open: "« ", close: " »",

	common: wordSet("le la les l un une des est sont était et de du d à au aux dans sur avec personne il y a ce cette qui que ne pas n vide fermé fermée ouvert ouverte voiture porte"),
}

// nbsp is the no-break space used in French numbers and clock times.
const nbsp = "\u00a0"

var frSmall = [20]string{"zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
	"dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"}

var frTens = [7]string{2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}

// frWords says 0..100 in French words, in the traditional spelling used in
// Québec (« vingt et un », « soixante-dix », « quatre-vingts »; no septante
// or nonante). When feminine, un becomes une, alone or at the end of a
// compound (« vingt et une », « quatre-vingt-une »).
func frWords(n int, g Gender) string {
	un := func(w string) string {
		if g == Feminine && w == "un" {
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

// frClock says a time of day: « 19 h 05 », « 19 h », « midi », « minuit »,
// with no-break spaces around the h as in Québec usage.
func frClock(h, m int) string {
	switch {
	case h == 0 && m == 0:
		return "minuit"
	case h == 12 && m == 0:
		return "midi"
	case m == 0:
		return fmt.Sprintf("%d%sh", h, nbsp)
	}
	return fmt.Sprintf("%d%sh%s%02d", h, nbsp, nbsp, m)
}

// frUnits maps the unit symbols Home Assistant uses to their spoken words,
// as the Office québécois de la langue française has them (kilowattheure,
// kilomètres à l'heure, milles à l'heure).
var frUnits = map[string]unitWords{
	"°C":     {"degré Celsius", "degrés Celsius"},
	"℃":      {"degré Celsius", "degrés Celsius"},
	"°F":     {"degré Fahrenheit", "degrés Fahrenheit"},
	"℉":      {"degré Fahrenheit", "degrés Fahrenheit"},
	"K":      {"kelvin", "kelvins"},
	"°":      {"degré", "degrés"},
	"%":      {"pour cent", "pour cent"},
	"W":      {"watt", "watts"},
	"kW":     {"kilowatt", "kilowatts"},
	"Wh":     {"wattheure", "wattheures"},
	"kWh":    {"kilowattheure", "kilowattheures"},
	"V":      {"volt", "volts"},
	"A":      {"ampère", "ampères"},
	"mA":     {"milliampère", "milliampères"},
	"Hz":     {"hertz", "hertz"},
	"lx":     {"lux", "lux"},
	"lm":     {"lumen", "lumens"},
	"ppm":    {"partie par million", "parties par million"},
	"ppb":    {"partie par milliard", "parties par milliard"},
	"µg/m³":  {"microgramme par mètre cube", "microgrammes par mètre cube"},
	"μg/m³":  {"microgramme par mètre cube", "microgrammes par mètre cube"},
	"Pa":     {"pascal", "pascals"},
	"hPa":    {"hectopascal", "hectopascals"},
	"kPa":    {"kilopascal", "kilopascals"},
	"mbar":   {"millibar", "millibars"},
	"bar":    {"bar", "bars"},
	"inHg":   {"pouce de mercure", "pouces de mercure"},
	"psi":    {"livre par pouce carré", "livres par pouce carré"},
	"km/h":   {"kilomètre à l'heure", "kilomètres à l'heure"},
	"m/s":    {"mètre par seconde", "mètres par seconde"},
	"mph":    {"mille à l'heure", "milles à l'heure"},
	"mm":     {"millimètre", "millimètres"},
	"cm":     {"centimètre", "centimètres"},
	"m":      {"mètre", "mètres"},
	"km":     {"kilomètre", "kilomètres"},
	"in":     {"pouce", "pouces"},
	"ft":     {"pied", "pieds"},
	"mi":     {"mille", "milles"},
	"mm/h":   {"millimètre à l'heure", "millimètres à l'heure"},
	"L":      {"litre", "litres"},
	"mL":     {"millilitre", "millilitres"},
	"m³":     {"mètre cube", "mètres cubes"},
	"gal":    {"gallon", "gallons"},
	"g":      {"gramme", "grammes"},
	"kg":     {"kilogramme", "kilogrammes"},
	"lb":     {"livre", "livres"},
	"ms":     {"milliseconde", "millisecondes"},
	"s":      {"seconde", "secondes"},
	"min":    {"minute", "minutes"},
	"h":      {"heure", "heures"},
	"d":      {"jour", "jours"},
	"dB":     {"décibel", "décibels"},
	"MB":     {"mégaoctet", "mégaoctets"},
	"GB":     {"gigaoctet", "gigaoctets"},
	"Mbit/s": {"mégabit par seconde", "mégabits par seconde"},
}
