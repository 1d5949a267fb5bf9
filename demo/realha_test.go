package demo_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"maison/demo"
	"maison/internal/hawire"
)

// demoPlaces are the demo house's entities for each part the questions
// need; the unavailable camera is made so by the test.
var demoPlaces = hawire.Places{
	Camera:            "camera.front_door",
	CameraOff:         "camera.porch",
	CameraUnavailable: "camera.backyard",
	Light:             "light.kitchen",
	NotRecorded:       "sensor.shed_power",
	AITask:            "ai_task.demo_vision",
}

// TestDemoAnswersAsTheRealHomeAssistant asks the demo every question maison
// asks Home Assistant and holds its answers to those the real Home
// Assistant gave (demo/testdata/realha, recorded by the real-house tests
// with MAISON_REALHA_RECORD=1): the same statuses, codes and texts, JSON of
// the same shape, live context lines Home Assistant writes.
func TestDemoAnswersAsTheRealHomeAssistant(t *testing.T) {
	t.Parallel()
	rec, err := hawire.Load(strings.TrimPrefix(hawire.RecordingPath, "demo/"))
	if err != nil {
		t.Fatal(err)
	}
	house := demo.New(demo.Options{ToolNaming: demo.NamingPrefixed, Version: "2026.11.0"})
	house.SetState("camera.backyard", "unavailable", nil)
	house.SetRecorded("sensor.shed_power", false)
	srv := httptest.NewServer(house.Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	answers, err := hawire.Peer{URL: srv.URL, Token: house.UserToken(), Places: demoPlaces}.Ask(ctx)
	if err != nil {
		t.Fatal(err)
	}
	diffs := hawire.Compare(answers, rec.Answers)
	for _, d := range diffs {
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Logf("%d differences from %s", len(diffs), rec.From)
	}
	if !strings.HasPrefix(rec.From, "Home Assistant ") {
		t.Errorf("the recording does not say which Home Assistant it came from: %q", rec.From)
	}
}
