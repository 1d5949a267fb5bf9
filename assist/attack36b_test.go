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
	"time"

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

// Finding 7 (promise 5, bounded): flatten stops after 41 phrases said, but
// a phrase voice.Speakable refuses (one naming an entity id, a date, a web
// address) is not counted, and each is its key, unbounded, and a value:
// an array of n values under one long key costs n scans of the key. About
// 16 kB of JSON in a tool's answer (a safe-listed script's response
// variables, a tool's bare data) holds maison's CPU for 5.6 s; 100 kB,
// well under the 8 MB maison reads, for about ten (measured: 102 kB in
// 8.9 s, 108 kB in 39 s), past the call's budget, which does not stop it.
func TestAttack36bSayingDataIsBounded(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("kitchen ", 1250) + "light.kitchen"
	values := strings.TrimSuffix(strings.Repeat("0,", 3000), ",")
	for name, text := range map[string]string{
		"script response": `{"success": true, "result": {"` + key + `": [` + values + `]}}`,
		"bare data":       `{"` + key + `": [` + values + `]}`,
	} {
		done := make(chan time.Duration, 1)
		go func() {
			start := time.Now()
			assist.SayResult(voice.English, "unlock_front_door", nil, text, false)
			done <- time.Since(start)
		}()
		select {
		case took := <-done:
			if took > time.Second {
				t.Errorf("%s of %d bytes took %v to say", name, len(text), took)
			}
		case <-time.After(1500 * time.Millisecond):
			t.Errorf("%s of %d bytes: still being said after 1.5 s", name, len(text))
		}
	}
}
