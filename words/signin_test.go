package words

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"maison/voice"
)

// Every place of the sign-in and approval pages has its own words in each
// language.
func TestPagesInEveryLanguage(t *testing.T) {
	t.Parallel()
	for _, page := range []func(voice.Lang) any{
		func(l voice.Lang) any { return SignIn(l) },
		func(l voice.Lang) any { return Approve(l) },
	} {
		en := reflect.ValueOf(page(voice.English))
		for _, l := range voice.Langs()[1:] {
			other := reflect.ValueOf(page(l))
			for i := range en.NumField() {
				name := en.Type().Field(i).Name
				e, f := en.Field(i).String(), other.Field(i).String()
				if e == "" || f == "" || e == f && name != "App" {
					t.Errorf("%s: %q / %q (%s), want words of its own in each language", name, e, f, l)
				}
			}
		}
	}
	if got := SignIn("").Title; got != SignIn(voice.English).Title {
		t.Errorf("no language: %q, want English", got)
	}
}

// A wait on the sign-in page is said in whole minutes, rounded up, so a
// person is never told a wait shorter than it is.
func TestSignInWaitRoundsUp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		wait   time.Duration
		en, fr string
	}{
		{0, "Try again in a minute.", "Réessayez dans une minute."},
		{time.Minute, "Try again in a minute.", "Réessayez dans une minute."},
		{time.Minute + time.Second, "Try again in 2 minutes.", "Réessayez dans 2 minutes."},
		{29*time.Minute + 30*time.Second, "Try again in 30 minutes.", "Réessayez dans 30 minutes."},
	} {
		if got := SignInRegistrationFlood(voice.English, c.wait); !strings.HasSuffix(got, c.en) {
			t.Errorf("%v: %q, want it to end %q", c.wait, got, c.en)
		}
		if got := SignInRegistrationFlood(voice.French, c.wait); !strings.HasSuffix(got, c.fr) {
			t.Errorf("%v: %q, want it to end %q", c.wait, got, c.fr)
		}
		if got := SignInLockedOut(voice.French, c.wait, false); !strings.Contains(got, strings.TrimSuffix(c.fr, ".")) {
			t.Errorf("%v: %q, want %q", c.wait, got, c.fr)
		}
	}
}
