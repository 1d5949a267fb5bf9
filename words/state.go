package words

import "maison/voice"

// StoreTrouble says why a sensitive action, or an answer on maison's
// approval page, was refused because the store of answers (which
// confirmations and approvals were already used) could not record it: it
// did not answer, or it is full. Nothing was done either way.
func StoreTrouble(l voice.Lang, full bool) string {
	if full {
		return say(l, "store.full")
	}
	return say(l, "store.unavailable")
}
