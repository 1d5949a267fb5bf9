package realhouse_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"maison/internal/hawire"
	"maison/internal/realha"
)

// realPlaces are the real house's entities for each part (scripts/realha.d).
var realPlaces = hawire.Places{
	Camera:            "camera.dahua_com_too_short",
	CameraOff:         "camera.porch",
	CameraUnavailable: "camera.attic",
	Light:             "light.kitchen_lights",
	NotRecorded:       "sensor.outside_humidity",
	AITask:            "ai_task.fixture_vision",
}

// TestRecordingMatchesTheRealHouse asks the real Home Assistant every
// question maison asks and compares its answers with the recording the
// demo is held to, so the recording cannot go stale when Home Assistant is
// bumped. With MAISON_REALHA_RECORD=1 it writes the recording instead.
func TestRecordingMatchesTheRealHouse(t *testing.T) {
	house := realha.Load(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	answers, err := hawire.Peer{URL: house.URL, Token: house.Token, Places: realPlaces}.Ask(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", hawire.RecordingPath)
	if os.Getenv("MAISON_REALHA_RECORD") == "1" {
		rec := hawire.Recording{From: "Home Assistant " + house.Version, Places: realPlaces, Answers: answers}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := rec.Save(path); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %d answers of %s in %s", len(answers), rec.From, path)
		return
	}
	rec, err := hawire.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.From != "Home Assistant "+house.Version {
		t.Errorf("the recording is of %s, the real house runs %s: record again (MAISON_REALHA_RECORD=1)", rec.From, house.Version)
	}
	// The real house against its own recording: every difference is a
	// change in Home Assistant (or in the house scripts/realha builds).
	// Statuses, codes, texts and tools must be the same; of the shapes and
	// the live context's lines, only what the recording always holds must
	// still be there: a field the house's state adds or a value's kind
	// (an event's context is a string, or an object once a user acted)
	// varies from one run to the next.
	for _, d := range hawire.CompareLive(answers, rec.Answers) {
		t.Error(d)
	}
}
