package tools

import (
	"testing"
	"time"
)

// parseSince reads a start time as people and careless clients give it:
// a clock time, with seconds or not, or a full date and time as a model
// often writes it; a time in the future or more than a week back is not
// a start (branch attack-13).
func TestParseSince(t *testing.T) {
	t.Parallel()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 20, 5, 0, 0, paris)
	for _, c := range []struct {
		in   string
		want string // in Paris, "" when refused
	}{
		{"08:00", "2026-11-29 08:00"},
		{"8 am", "2026-11-29 08:00"},
		{"21:00", "2026-11-28 21:00"}, // later than now today: yesterday
		{"yesterday 18:00", "2026-11-28 18:00"},
		{"hier 18 h", "2026-11-28 18:00"},
		{"gestern 18 Uhr", "2026-11-28 18:00"},
		{"gestern 18:30 Uhr", "2026-11-28 18:30"},
		{"8 o'clock", "2026-11-29 08:00"},
		{"12 am", "2026-11-29 00:00"},
		{"12 pm", "2026-11-29 12:00"},
		{"08:00:00", "2026-11-29 08:00"},
		{"2026-11-29T08:00:00+01:00", "2026-11-29 08:00"},
		{"2026-11-29T07:00:00Z", "2026-11-29 08:00"},
		{"2026-11-29 08:00", "2026-11-29 08:00"},
		{"2026-11-29T08:00", "2026-11-29 08:00"},
		{"2026-11-23T08:00:00+01:00", "2026-11-23 08:00"},
		{"2026-11-20T08:00:00+01:00", ""}, // more than a week back
		{"2026-11-30T08:00:00+01:00", ""}, // tomorrow
		{"25:99", ""},
		{"13 pm", ""},
		{"", ""},
	} {
		got, ok := parseSince(c.in, now, paris)
		if s := got.In(paris).Format("2006-01-02 15:04"); ok != (c.want != "") || ok && s != c.want {
			t.Errorf("%q: %s %v, want %q", c.in, s, ok, c.want)
		}
	}
}
