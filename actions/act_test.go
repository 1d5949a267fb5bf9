package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maison/confirm"
	"strings"
	"testing"

	"maison/assist"
	"maison/homeassistant"
)

// fakeHA answers Assist calls as respond says, and records them.
type fakeHA struct {
	calls   []map[string]any
	respond func(args map[string]any) string
}

func (f *fakeHA) CallAssist(_ context.Context, canonical string, args map[string]any) (homeassistant.ToolResult, error) {
	f.calls = append(f.calls, args)
	return homeassistant.ToolResult{Text: f.respond(args)}, nil
}
func (f *fakeHA) States() []homeassistant.State    { return nil }
func (f *fakeHA) Registry() homeassistant.Registry { return homeassistant.Registry{} }
func (f *fakeHA) Changed() <-chan struct{}         { return make(chan struct{}) }

func done(ids ...string) string {
	var success []map[string]string
	for _, id := range ids {
		success = append(success, map[string]string{"name": id, "type": "entity", "id": id})
	}
	b, _ := json.Marshal(map[string]any{"response_type": "action_done", "data": map[string]any{"success": success, "failed": []any{}}})
	return string(b)
}

// A plan that is not whole goes one entity at a time, by entity id and
// domain, with its values; what Home Assistant reports beyond the plan is
// an alarm in the log and in the outcome.
func TestActGoesByEntityIDAndRaisesTheAlarm(t *testing.T) {
	t.Parallel()
	ha := &fakeHA{respond: func(args map[string]any) string {
		if args["name"] == "light.hall" {
			return done("light.hall", "lock.front") // Home Assistant reaching beyond what was named
		}
		return done(args["name"].(string))
	}}
	var log bytes.Buffer
	s := New(Config{HA: ha, Live: assist.NewLive(ha, nil, 0), Logger: slog.New(slog.NewTextHandler(&log, nil))})
	p := &Plan{Intent: IntentOf("HassLightSet"), Values: map[string]any{"brightness": 40},
		Reached: []Device{{ID: "light.hall", Domain: "light"}, {ID: "light.porch", Domain: "light"}}}
	o, err := s.Act(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ha.calls) != 2 || ha.calls[0]["name"] != "light.hall" || ha.calls[0]["brightness"] != 40 ||
		strings.Join(ha.calls[1]["domain"].([]string), ",") != "light" {
		t.Errorf("calls sent: %v", ha.calls)
	}
	if len(o.Unexpected) != 1 || o.Unexpected[0] != "lock.front" || len(o.Missing) != 0 {
		t.Errorf("unexpected %v, missing %v", o.Unexpected, o.Missing)
	}
	if !strings.Contains(log.String(), "ALARM") || !strings.Contains(log.String(), "lock.front") {
		t.Errorf("the log does not raise the alarm: %s", log.String())
	}
	// A whole plan goes as it came, once; an entity it reports nothing of
	// is missing.
	ha.calls = nil
	p = &Plan{Intent: IntentOf("HassTurnOn"), Whole: true, Args: map[string]any{"area": "hall", "domain": []string{"light"}},
		Reached: []Device{{ID: "light.hall", Domain: "light"}, {ID: "light.porch", Domain: "light"}}}
	ha.respond = func(map[string]any) string { return done("light.hall") }
	o, _ = s.Act(t.Context(), p)
	if len(ha.calls) != 1 || ha.calls[0]["area"] != "hall" || len(o.Missing) != 1 || o.Missing[0] != "light.porch" {
		t.Errorf("whole: calls %v, missing %v", ha.calls, o.Missing)
	}
}

// A yes counts for what the person was told would happen: a scene whose
// devices changed since (its owner added a lock to it) voids it, though
// the call reaches the same scene.
func TestAYesForASceneIsBoundToWhatItSets(t *testing.T) {
	t.Parallel()
	s := New(Config{HA: &fakeHA{}, Confirm: confirm.New(nil)})
	scene := func(sets ...string) *Plan {
		ef := Effect{Device: Device{ID: "scene.reading"}, Change: SetsSensitive}
		for _, id := range sets {
			ef.Sets = append(ef.Sets, Device{ID: id})
		}
		return &Plan{Intent: IntentOf("HassTurnOn"), Args: map[string]any{"name": "Reading"},
			Reached: []Device{{ID: "scene.reading"}}, Sensitive: []Effect{ef}}
	}
	code, _, err := s.Propose("c", "turn_on", scene("light.bed", "valve.trees"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Redeem("c", "turn_on", scene("light.bed", "valve.trees", "lock.front"), code); !errors.Is(err, confirm.ErrChanged) {
		t.Errorf("a yes for a scene that sets a lock since: %v", err)
	}
	code, _, _ = s.Propose("c", "turn_on", scene("light.bed"))
	if err := s.Redeem("c", "turn_on", scene("light.bed"), code); err != nil {
		t.Errorf("a yes for the same scene: %v", err)
	}
}
