package voice

import (
	"math"
	"strconv"
	"time"
)

const (
	dayLen   = 24 * time.Hour
	weekLen  = 7 * dayLen
	monthLen = time.Duration(30.436875 * float64(dayLen)) // a Gregorian year over twelve
	yearLen  = time.Duration(365.2425 * float64(dayLen))
)

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
	r := l.r()
	if d < 45*time.Second {
		return r.justNow
	}
	var n int
	var u timeUnit
	switch {
	case in(d, time.Minute) < 60:
		n, u = in(d, time.Minute), minutes
	case in(d, time.Hour) < 24:
		n, u = in(d, time.Hour), hours
	case in(d, dayLen) < 14:
		n, u = in(d, dayLen), days
	case in(d, weekLen) < 5:
		n, u = in(d, weekLen), weeks
	case in(d, monthLen) < 12:
		n, u = in(d, monthLen), months
	default:
		n, u = max(in(d, yearLen), 1), years
	}
	return r.ago(r, n, u)
}

// Duration says a length of time in its largest unit, rounded to the nearest
// whole one, halves up: seconds below a minute, then minutes, hours, days.
// "forty seconds", "a minute", "two hours", « une heure », « trois jours ».
// Zero is "zero seconds" / « zéro seconde »; anything shorter than half a
// second is "less than a second" / « moins d'une seconde ». The sign of d is
// ignored.
func (l Lang) Duration(d time.Duration) string {
	r := l.r()
	if d < 0 {
		d = -max(d, -math.MaxInt64) // the smallest Duration has no opposite
	}
	switch {
	case d == 0:
		return r.zeroSeconds
	case in(d, time.Second) < 1:
		return r.underSecond
	case in(d, time.Second) < 60:
		return r.amount(r, in(d, time.Second), seconds)
	case in(d, time.Minute) < 60:
		return r.amount(r, in(d, time.Minute), minutes)
	case in(d, time.Hour) < 24:
		return r.amount(r, in(d, time.Hour), hours)
	}
	return r.amount(r, in(d, dayLen), days)
}

// Clock says the time of day of t, in t's location (convert with t.In to the
// house's time zone first), as a phrase to follow a verb: "at 7:05 PM",
// "at 7 PM", "at noon", "at midnight"; « à 19 h 05 », « à 19 h », « à midi »,
// « à minuit », with no-break spaces around the h as in Québec usage.
// Seconds are not said.
func (l Lang) Clock(t time.Time) string { return l.r().at + l.TimeOfDay(t) }

// TimeOfDay is the time of day of t as Clock says it, without the word
// that makes it follow a verb: "7:05 PM", "noon"; « 19 h 05 », « midi »;
// for "since" and "from … to".
func (l Lang) TimeOfDay(t time.Time) string { return l.r().clock(t.Hour(), t.Minute()) }

// DurationDigits says a length of time with digits, as a page or an error
// message shows it rather than as it is said: in whole seconds rounded up,
// at least one, or in minutes when that is a whole number of them. "a
// second", "45 seconds", "a minute", "10 minutes"; « une seconde »,
// « 45 secondes », « une minute », « 10 minutes ». The sign of d is ignored.
func (l Lang) DurationDigits(d time.Duration) string {
	r := l.r()
	if d < 0 {
		d = -max(d, -math.MaxInt64)
	}
	s := int(d / time.Second)
	if d%time.Second != 0 || s == 0 {
		s++
	}
	switch {
	case s == 1:
		return r.amount(r, 1, seconds)
	case s == 60:
		return r.amount(r, 1, minutes)
	case s%60 == 0:
		return strconv.Itoa(s/60) + " " + r.timeWords[minutes].many()
	}
	return strconv.Itoa(s) + " " + r.timeWords[seconds].many()
}
