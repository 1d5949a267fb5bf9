package words

import (
	"strings"
	"testing"

	"maison/homeassistant"
	"maison/voice"
)

// The words for Home Assistant's troubles: every kind said in both
// languages, fit for the ear, and the few a person most needs to hear.
func TestHomeAssistantTroubleWords(t *testing.T) {
	t.Parallel()
	for k := homeassistant.KindUnreachable; k <= homeassistant.KindNoHistory; k++ {
		for _, lang := range []voice.Lang{voice.English, voice.French} {
			s := Trouble(lang, k)
			if err := voice.Speakable(s); err != nil {
				t.Errorf("%v in %s: %v: %q", k, lang, err, s)
			}
			if s == say(lang, "trouble.other") {
				t.Errorf("%v has no words of its own", k)
			}
		}
	}
	for _, tc := range []struct {
		kind homeassistant.Kind
		lang voice.Lang
		want []string
	}{
		{homeassistant.KindLocalOnly, voice.French, []string{"réseau local"}},
		{homeassistant.KindAssistLoading, voice.English, []string{"after a restart"}},
		{homeassistant.KindServerError, voice.English, []string{"may or may not have happened", "state of the device"}},
	} {
		said := Trouble(tc.lang, tc.kind)
		for _, w := range tc.want {
			if !strings.Contains(said, w) {
				t.Errorf("%v in %s lacks %q: %s", tc.kind, tc.lang, w, said)
			}
		}
	}
}
