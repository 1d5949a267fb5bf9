package homeassistant

import (
	"testing"

	"maison/voice"
)

func TestSayIsSpeakableInBothLanguages(t *testing.T) {
	for k := KindUnreachable; k <= KindAITaskFailed; k++ {
		for _, lang := range []voice.Lang{voice.English, voice.French} {
			s := (&Error{Kind: k}).Say(lang)
			if err := voice.Speakable(s); err != nil {
				t.Errorf("%v in %s: %v: %q", k, lang, err, s)
			}
		}
	}
}
