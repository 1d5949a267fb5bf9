package words

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"maison/homeassistant"
	"maison/voice"
)

// Home Assistant 2026.11 hands its AI task the camera's own frame: for a
// camera sending truncated frames the task fails with Pillow's words every
// time, which is not "usually brief".
func TestAIFailureOnAPictureHomeAssistantCannotRead(t *testing.T) {
	t.Parallel()
	unreadable := &homeassistant.Error{Kind: homeassistant.KindAITaskFailed, Op: "websocket call_service ai_task.generate_data",
		Err: fmt.Errorf("%w: %w", homeassistant.ErrUnreadablePicture, errors.New("unknown_error: image file is truncated (31 bytes not processed)"))}
	said := AIFailure(voice.English, unreadable)
	for _, want := range []string{"could not read this camera's picture", "damaged", "does not mean the AI is broken", "sensors"} {
		if !strings.Contains(said, want) {
			t.Errorf("%q does not say %q", said, want)
		}
	}
	if strings.Contains(said, "usually brief") {
		t.Errorf("a picture the AI can never read is said brief: %q", said)
	}
	if fr := AIFailure(voice.French, unreadable); !strings.Contains(fr, "abîmée") {
		t.Errorf("in French: %q", fr)
	}
	other := &homeassistant.Error{Kind: homeassistant.KindAITaskFailed, Err: errors.New("unknown_error: Error talking to the AI service")}
	if said := AIFailure(voice.English, other); !strings.Contains(said, "usually brief") {
		t.Errorf("another AI failure: %q", said)
	}
}
