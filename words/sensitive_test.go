package words

import (
	"strings"
	"testing"

	"maison/voice"
)

// « de » before an action that starts with a vowel is elided in every
// French sentence built with it: « avant d'ouvrir », never « avant de
// ouvrir ».
func TestFrenchElidesDeBeforeAnAction(t *testing.T) {
	fr := voice.French
	for _, c := range []struct{ action, want string }{
		{Open(fr, "« Garage »"), "avant d'ouvrir « Garage »"},
		{Operate(fr, "« Relais »"), "avant d'actionner « Relais »"},
		{ActOnMaybeLock(fr, "« Porte »"), "avant d'agir sur « Porte »"},
		{Unlock(fr, "« Serrure »"), "avant de déverrouiller « Serrure »"},
	} {
		for _, said := range []string{ApprovalAsked(fr, Sent{}, c.action, "à 9 h", "a-x"), Proposal(fr, c.action)} {
			if !strings.Contains(said, c.want) || strings.Contains(said, "de a") || strings.Contains(said, "de o") {
				t.Errorf("%q: want %q", said, c.want)
			}
		}
	}
}
