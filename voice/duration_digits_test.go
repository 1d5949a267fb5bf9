package voice

import (
	"math"
	"testing"
	"time"
)

// DurationDigits rounds up to whole seconds, says whole minutes as minutes
// and keeps digits, in both languages.
func TestDurationDigits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d      time.Duration
		en, fr string
	}{
		{0, "a second", "une seconde"},
		{time.Millisecond, "a second", "une seconde"},
		{time.Second, "a second", "une seconde"},
		{time.Second + time.Millisecond, "2 seconds", "2 secondes"},
		{10 * time.Second, "10 seconds", "10 secondes"},
		{90 * time.Second, "90 seconds", "90 secondes"},
		{59*time.Second + 1, "a minute", "une minute"},
		{time.Minute, "a minute", "une minute"},
		{-time.Minute, "a minute", "une minute"},
		{15 * time.Minute, "15 minutes", "15 minutes"},
		{2 * time.Hour, "120 minutes", "120 minutes"},
		{math.MinInt64, "9223372037 seconds", "9223372037 secondes"},
	} {
		if got := English.DurationDigits(c.d); got != c.en {
			t.Errorf("English.DurationDigits(%v) = %q, want %q", c.d, got, c.en)
		}
		if got := French.DurationDigits(c.d); got != c.fr {
			t.Errorf("French.DurationDigits(%v) = %q, want %q", c.d, got, c.fr)
		}
	}
}
