package assist

import (
	"errors"
	"strings"
	"testing"

	"maison/voice"
)

// Home Assistant 2026.11 words a failed match as a sentence naming the
// constraints (helpers/intent.py _match_failure_message) and leaves
// "success" out of its non-intent tools' answers (helpers/llm.py
// ToolResult): the texts below are what the real 2026.11 sent
// (demo/testdata/realha) or what its source writes for the other reasons.
func TestHomeAssistant2026_11Formats(t *testing.T) {
	for _, tc := range []struct {
		name, text, want, reason string
		args                     map[string]any
	}{
		{"no name", "Error calling tool: No entities matched the name (given name 'No Such Thing Anywhere')",
			"Home Assistant has nothing shared with Assist called “No Such Thing Anywhere” that can do that.", "NAME", nil},
		{"a name with a quote", `Error calling tool: No entities matched the name (given name "Bob's lamp")`,
			"Home Assistant has nothing shared with Assist called “Bob's lamp” that can do that.", "NAME", nil},
		{"duplicate", "Error calling tool: Multiple entities share the name (given name 'lamp')",
			"More than one device is called “lamp”.", "DUPLICATE_NAME", nil},
		{"several", "Error calling tool: Multiple entities matched, but a single target is required (given area 'Kitchen', domains light)",
			"That matched several devices", "MULTIPLE_TARGETS", nil},
		{"no such area", "Error calling tool: The area does not exist (given area 'Cellar')",
			"", "INVALID_AREA", nil},
		{"not exposed", "Error calling tool: No matching entities are exposed to the assistant (given name 'shed power')",
			"Home Assistant has nothing shared with Assist called “shed power” that can do that.", "ASSISTANT", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MatchReason(tc.text); got != tc.reason {
				t.Errorf("MatchReason = %q, want %q", got, tc.reason)
			}
			out := SayResult(voice.English, "HassTurnOn", tc.args, tc.text, true)
			if !out.IsError {
				t.Error("a failed match was not said as a failure")
			}
			if tc.want != "" && !contains(out.Text, tc.want) {
				t.Errorf("said %q, want it to hold %q", out.Text, tc.want)
			}
			if contains(out.Text, "in a way I understand") {
				t.Errorf("Home Assistant's reason was not understood: %q", out.Text)
			}
		})
	}

	dt := `{"result": {"date": "2026-11-29", "time": "19:05:12", "timezone": "EST", "weekday": "Sunday"}}`
	if got := SayResult(voice.English, "GetDateTime", nil, dt, false).Text; got != "It is 7:05 PM on Sunday, November 29, 2026." {
		t.Errorf("GetDateTime without success: %q", got)
	}
	if out := SayResult(voice.English, "todo_get_items", nil, `{"error": "No to-do list called 'x'"}`, true); !out.IsError {
		t.Errorf("a non-intent failure without success was not a failure: %+v", out)
	}
	_, err := ParseLiveContext(`{"error": "No exposed entities matched name 'x'"}`)
	if !errors.Is(err, ErrNoMatch) {
		t.Errorf("a live context failure without success: %v, want ErrNoMatch", err)
	}
	ents, err := ParseLiveContext(`{"result": "Live Context: An overview of the areas and the devices in this smart home:\n- names: Bed Light\n  domain: light\n  state: 'on'\n"}`)
	if err != nil || len(ents) != 1 {
		t.Errorf("a live context without success: %v, %d entities", err, len(ents))
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
