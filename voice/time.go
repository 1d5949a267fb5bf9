package voice

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// timeUnit names a unit of time: English singular with its article, English
// plural, and the French noun.
type timeUnit struct {
	enA, enMany string
	fr          Noun
}

var (
	second = timeUnit{"a second", "seconds", Noun{One: "seconde", Feminine: true}}
	minute = timeUnit{"a minute", "minutes", Noun{One: "minute", Feminine: true}}
	hour   = timeUnit{"an hour", "hours", Noun{One: "heure", Feminine: true}}
	day    = timeUnit{"a day", "days", Noun{One: "jour"}}
	week   = timeUnit{"a week", "weeks", Noun{One: "semaine", Feminine: true}}
	month  = timeUnit{"a month", "months", Noun{One: "mois", Many: "mois"}}
	year   = timeUnit{"a year", "years", Noun{One: "an"}}
)

const (
	dayLen   = 24 * time.Hour
	weekLen  = 7 * dayLen
	monthLen = time.Duration(30.436875 * float64(dayLen)) // a Gregorian year over twelve
	yearLen  = time.Duration(365.2425 * float64(dayLen))
)

// amount says n of a unit: "an hour", "two hours", « une heure », « deux heures ».
func (l Lang) amount(n int, u timeUnit) string {
	switch {
	case l.fr():
		return l.Count(n, u.fr)
	case n == 1:
		return u.enA
	}
	return l.Number(n) + " " + u.enMany
}

// in rounds d to the nearest whole number of u, halves up.
func in(d, u time.Duration) int {
	return int(math.Round(float64(d) / float64(u)))
}

// Ago says how long ago something happened, d being the time elapsed
// (time.Since). Under 45 seconds, and for negative d (a clock running ahead),
// it is "just now" / « à l'instant ». Otherwise d is rounded to the nearest
// whole unit, halves up, and said in the largest unit that stays at least one:
// minutes below an hour (90 s is "two minutes ago"), hours below a day, days
// below two weeks, weeks below five, months below twelve, then years: "an
// hour ago", "three days ago", « il y a une heure », « il y a trois jours ».
// A day is "a day ago", never "yesterday": the calendar day is not known here.
func (l Lang) Ago(d time.Duration) string {
	if d < 45*time.Second {
		return l.Pick("just now", "à l'instant")
	}
	var n int
	var u timeUnit
	switch {
	case in(d, time.Minute) < 60:
		n, u = in(d, time.Minute), minute
	case in(d, time.Hour) < 24:
		n, u = in(d, time.Hour), hour
	case in(d, dayLen) < 14:
		n, u = in(d, dayLen), day
	case in(d, weekLen) < 5:
		n, u = in(d, weekLen), week
	case in(d, monthLen) < 12:
		n, u = in(d, monthLen), month
	default:
		n, u = max(in(d, yearLen), 1), year
	}
	if l.fr() {
		return "il y a " + l.amount(n, u)
	}
	return l.amount(n, u) + " ago"
}

// Duration says a length of time in its largest unit, rounded to the nearest
// whole one, halves up: seconds below a minute, then minutes, hours, days.
// "forty seconds", "a minute", "two hours", « une heure », « trois jours ».
// Zero is "zero seconds" / « zéro seconde »; anything shorter than half a
// second is "less than a second" / « moins d'une seconde ». The sign of d is
// ignored.
func (l Lang) Duration(d time.Duration) string {
	if d < 0 {
		d = -max(d, -math.MaxInt64) // the smallest Duration has no opposite
	}
	switch {
	case d == 0:
		return l.Pick("zero seconds", "zéro seconde")
	case in(d, time.Second) < 1:
		return l.Pick("less than a second", "moins d'une seconde")
	case in(d, time.Second) < 60:
		return l.amount(in(d, time.Second), second)
	case in(d, time.Minute) < 60:
		return l.amount(in(d, time.Minute), minute)
	case in(d, time.Hour) < 24:
		return l.amount(in(d, time.Hour), hour)
	}
	return l.amount(in(d, dayLen), day)
}

// Clock says the time of day of t, in t's location (convert with t.In to the
// house's time zone first), as a phrase to follow a verb: "at 7:05 PM",
// "at 7 PM", "at noon", "at midnight"; « à 19 h 05 », « à 19 h », « à midi »,
// « à minuit », with no-break spaces around the h as in Québec usage.
// Seconds are not said.
func (l Lang) Clock(t time.Time) string {
	h, m := t.Hour(), t.Minute()
	if l.fr() {
		switch {
		case h == 0 && m == 0:
			return "à minuit"
		case h == 12 && m == 0:
			return "à midi"
		case m == 0:
			return fmt.Sprintf("à %d%sh", h, nbsp)
		}
		return fmt.Sprintf("à %d%sh%s%02d", h, nbsp, nbsp, m)
	}
	switch {
	case h == 0 && m == 0:
		return "at midnight"
	case h == 12 && m == 0:
		return "at noon"
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
		return fmt.Sprintf("at %d %s", h12, suffix)
	}
	return fmt.Sprintf("at %d:%02d %s", h12, m, suffix)
}

// DurationDigits says a length of time with digits, as a page or an error
// message shows it rather than as it is said: in whole seconds rounded up,
// at least one, or in minutes when that is a whole number of them. "a
// second", "45 seconds", "a minute", "10 minutes"; « une seconde »,
// « 45 secondes », « une minute », « 10 minutes ». The sign of d is ignored.
func (l Lang) DurationDigits(d time.Duration) string {
	if d < 0 {
		d = -max(d, -math.MaxInt64)
	}
	s := int(d / time.Second)
	if d%time.Second != 0 || s == 0 {
		s++
	}
	switch {
	case s == 1:
		return l.Pick("a second", "une seconde")
	case s == 60:
		return l.Pick("a minute", "une minute")
	case s%60 == 0:
		return strconv.Itoa(s/60) + " minutes"
	}
	return strconv.Itoa(s) + l.Pick(" seconds", " secondes")
}
