package assist

import (
	"strings"
	"testing"

	"maison/voice"
)

// Home Assistant 2026.11 words a failed match as a sentence (the error's
// str, helpers/intent.py), not as the MatchFailedError repr earlier
// releases gave; maison reads both the same way. Texts as measured
// against a real Home Assistant 2026.11.0.
func TestMatchFailureInHomeAssistantsSentences(t *testing.T) {
	for _, c := range []struct {
		text, reason, said string
	}{
		{"Error calling tool: No matching entities are exposed to the assistant (given name 'Front Door')", "ASSISTANT", "Home Assistant has nothing shared with Assist called “Front Door”"},
		{"Error calling tool: No entities matched the name (given name 'Front Door')", "NAME", "Home Assistant has nothing shared with Assist called “Front Door”"},
		{"Error calling tool: No entities were in the area (given name 'Front Door', area 'Shed')", "AREA", "Home Assistant has nothing shared with Assist called “Front Door”"},
		{"Error calling tool: The area does not exist (given name 'Front Door', area 'Nowhere')", "INVALID_AREA", "Home Assistant has nothing shared with Assist called “Front Door”"},
		{"Error calling tool: No entities matched (given name 'Front Door')", "NAME", "Home Assistant has nothing shared with Assist called “Front Door”"},
		{"Error calling tool: Multiple entities share the name (given name 'Front Door')", "DUPLICATE_NAME", "More than one device is called “Front Door”"},
		{"Error calling tool: Multiple entities matched, but a single target is required (given name 'Front Door')", "MULTIPLE_TARGETS", "That matched several devices"},
	} {
		if got := MatchReason(c.text); got != c.reason {
			t.Errorf("MatchReason(%q) = %q, want %q", c.text, got, c.reason)
		}
		out := SayResult(voice.English, "HassTurnOff", map[string]any{"name": "Front Door"}, c.text, true)
		if !out.IsError || !strings.Contains(out.Text, c.said) {
			t.Errorf("SayResult(%q) = %q, want %q", c.text, out.Text, c.said)
		}
	}
	if got := MatchReason("Error calling tool: the lock jammed: No entities matched the name"); got != "" {
		t.Errorf("a device's own error that quotes a match sentence later on: reason %q, want none", got)
	}
}
