package assist_test

// Attack 36b, finding 5 (promise 5, a failure never said as success):
// SayResult says bare JSON data only when it is an object or an array; a
// tool's answer that is a JSON string, a boolean or plain text, and an
// "error" that is an object, is said as "Home Assistant did it." or as an
// answer, never as a failure. A safe-listed script or a tool of another
// integration that answers so in ha_act has its failure reported as done.
// Run: go test ./assist -run TestAttack36b

import (
	"strings"
	"testing"

	"maison/assist"
	"maison/voice"
)

func TestAttack36bFailureIsNotSaidAsDone(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`"Could not unlock: the door is jammed"`,
		`Failed: the door is jammed`,
		`false`,
		`{"success": true, "error": "the door is jammed"}`,
	} {
		// Whatever maison makes of it, it is not "done".
		if o := assist.SayResult(voice.English, "unlock_front_door", nil, text, false); strings.Contains(o.Text, "did it") {
			t.Errorf("Home Assistant answered %s; maison says %q (error %v)", text, o.Text, o.IsError)
		}
	}
	for _, text := range []string{`{"error": {"message": "the door is jammed"}}`, `{"success": "false", "error": "the door is jammed"}`} {
		if o := assist.SayResult(voice.English, "unlock_front_door", nil, text, false); !o.IsError {
			t.Errorf("Home Assistant answered %s; maison says %q, not a failure", text, o.Text)
		}
	}
}
