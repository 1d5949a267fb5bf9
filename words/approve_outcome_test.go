package words

import (
	"strings"
	"testing"

	"maison/voice"
)

// An approved action cut on its way to Home Assistant may still have
// happened: neither the page nor the model is told, before Home
// Assistant's words, that nothing was done.
func TestAnApprovedActionNotConfirmedClaimsNothing(t *testing.T) {
	t.Parallel()
	said := ActionTooSlow(voice.English)
	for _, got := range []string{ApproveFailed(voice.English, said), ApprovalNotDone(voice.English, said), Approve(voice.English).NotConfirmedTitle} {
		if strings.Contains(strings.ToLower(got), "nothing was done") || strings.Contains(got, "not carried out") {
			t.Errorf("%q claims nothing was done, though the action may have happened", got)
		}
	}
	if Approve(voice.French).NotConfirmedTitle == Approve(voice.English).NotConfirmedTitle {
		t.Error("the page's title for an unconfirmed action is not in French")
	}
}
