package tools_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"maison/camera"
	"maison/demo"
	"maison/homeassistant"
	"maison/tools"
	"maison/voice"
)

// Home Assistant's other real behaviours, answered in words.

func TestAITaskFailuresAreSaidByKind(t *testing.T) {
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		r := newRig(t, rigOptions{lang: lang, camera: func(c *camera.Config) {
			c.AI = c.Source.(*homeassistant.Client)
			c.AIBudget = time.Minute
		}})
		for _, tc := range []struct {
			code, message string
			en, fr        string
		}{
			{"not_found", "Service ai_task.generate_data not found.", "no AI set up that can look at pictures", "pas d'IA capable de regarder"},
			{"invalid_format", "extra keys not allowed", "did not accept the way I asked", "n'a pas accepté ma façon de demander"},
			{"service_validation_error", "Validation error: The action requires responses", "did not accept the way I asked", "n'a pas accepté ma façon de demander"},
			{"unauthorized", "Unauthorized", "does not let my user ask its AI", "ne permet pas à mon utilisateur"},
			{"home_assistant_error", "Error talking to the AI service", "could not describe the picture this time", "n'a pas pu décrire l'image cette fois"},
			{"unknown_error", "Unknown error", "could not describe the picture this time", "n'a pas pu décrire l'image cette fois"},
		} {
			r.house.SetAITaskError(tc.code, tc.message)
			text, isErr := call(t, r.cs, "describe_camera", map[string]any{"camera": "front door"})
			want := tc.en
			if lang == voice.French {
				want = tc.fr
			}
			if isErr || !strings.Contains(text, want) {
				t.Errorf("%s %s: %q lacks %q", lang, tc.code, text, want)
			}
		}
	}
}

func TestActionCutAtHomeAssistantsLimit(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.house.SetAssistStall(50 * time.Millisecond)
	text, isErr := call(t, r.cs, "turn_on", map[string]any{"name": "Porch Light"})
	if !isErr || !strings.Contains(text, "may or may not have happened") || !strings.Contains(text, "ask for the state of the device") {
		t.Errorf("an action cut at Home Assistant's limit: %q", text)
	}
}

func TestAssistLoadingIsNotCalledMissing(t *testing.T) {
	r := newRig(t, rigOptions{ha: func(c *homeassistant.Config) { c.AssistGrace = time.Hour }})
	r.house.SetMCPServerLoaded(false)
	text, isErr := call(t, r.cs, "describe_house", nil)
	if !isErr || !strings.Contains(text, "still loading its Assist tools") || strings.Contains(text, "setup step") {
		t.Errorf("describe_house while the integration loads: %q", text)
	}
	r.house.SetMCPServerLoaded(true)
	if text, isErr := call(t, r.cs, "describe_house", nil); isErr {
		t.Errorf("once loaded: %q", text)
	}
}

func TestGetDateTimeIn2026Naming(t *testing.T) {
	_, cs := session(t, voice.English, demo.NamingPrefixed)
	text, isErr := call(t, cs, "ha_get_date_time", nil)
	if isErr || !strings.HasPrefix(text, "It is ") {
		t.Errorf("ha_get_date_time when Home Assistant calls it llm__GetDateTime: %q", text)
	}
}

func TestPassthroughIsTheOperatorsChoice(t *testing.T) {
	for _, c := range []struct {
		p    tools.Passthrough
		want []string
	}{
		{tools.Passthrough{}, []string{"ha_get_date_time", "ha_hass_set_position"}},
		{tools.Passthrough{Off: true}, nil},
		{tools.Passthrough{Only: []string{"GetDateTime"}}, []string{"ha_get_date_time"}},
	} {
		r := newRig(t, rigOptions{passthrough: c.p})
		res, err := r.cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tool := range res.Tools {
			if strings.HasPrefix(tool.Name, "ha_") {
				got = append(got, tool.Name)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v: passthrough tools %v, want %v", c.p, got, c.want)
		}
	}
}

// TestWhatHappenedGolden pins what_happened over the demo's seeded day, in
// both languages: the whole house, one device, one area, an empty period,
// and Home Assistant's recorder unavailable.
func TestWhatHappenedGolden(t *testing.T) {
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		t.Run(string(lang), func(t *testing.T) {
			now := func() time.Time { return goldenClock }
			r := newRig(t, rigOptions{house: demo.Options{Now: now, NoAITask: true}, lang: lang, now: now})
			calls := []goldenCall{
				{"what_happened", nil},
				{"what_happened", map[string]any{"hours": 24}},
				{"what_happened", map[string]any{"since": "yesterday 18:00"}},
				{"what_happened", map[string]any{"name": "front door lock"}},
				{"what_happened", map[string]any{"name": "garage door", "since": "08:00"}},
				{"what_happened", map[string]any{"area": "Entrance"}},
				{"what_happened", map[string]any{"area": "Living Room", "hours": 2}},
				{"what_happened", map[string]any{"hours": 3, "since": "08:00"}},
				{"what_happened", map[string]any{"since": "25:99"}},
			}
			golden(t, r.cs, "happened."+string(lang)+".golden", calls)
			r.house.SetRecorderAvailable(false)
			text, isErr := call(t, r.cs, "what_happened", nil)
			if !isErr || !strings.Contains(text, pickLang(lang, "history is not available right now", "historique de Home Assistant n'est pas disponible")) {
				t.Errorf("with the recorder unavailable: %q", text)
			}
		})
	}
}

// TestWhatHappenedNeverTellsWhatIsNotExposed: the shed's door opened during
// the seeded day, and hidden look-alikes change too; no answer tells it, and
// Home Assistant is asked about exposed entities only.
func TestWhatHappenedNeverTellsWhatIsNotExposed(t *testing.T) {
	r := newRig(t, rigOptions{setup: hostileHouse(t)})
	now := time.Now()
	r.house.AddHistory("lock.front_door_2", demo.HistoryChange{State: "unlocked", At: now.Add(-2 * time.Hour)})
	r.house.AddHistory("lock.vault", demo.HistoryChange{State: "locked", At: now.Add(-3 * time.Hour)}, demo.HistoryChange{State: "unlocked", At: now.Add(-2 * time.Hour)})
	var answers []string
	for _, a := range []map[string]any{nil, {"hours": 168}, {"area": "Shed"}, {"name": "Shed Door"}, {"name": "Vault Lock"}, {"area": "Office", "hours": 48}, {"name": "Front Door Lock"}} {
		text, _ := call(t, r.cs, "what_happened", a)
		answers = append(answers, text)
	}
	for _, a := range answers {
		for _, w := range append(hiddenWords(), "Shed Door") {
			if strings.Contains(strings.ToLower(a), strings.ToLower(w)) {
				t.Errorf("what_happened tells %q, which only an unexposed entity has: %q", w, a)
			}
		}
	}
	notExposed := map[string]bool{"binary_sensor.shed_door": true, "camera.shed": true, "sensor.shed_power": true}
	for _, e := range hidden {
		notExposed[e.ID] = true
	}
	for _, id := range r.house.HistoryAsked() {
		if notExposed[id] {
			t.Errorf("Home Assistant was asked for the history of %s, which is not exposed", id)
		}
	}
	if !strings.Contains(answers[6], "“Front Door Lock” was unlocked") {
		t.Errorf("the exposed lock's own history is missing: %q", answers[6])
	}
}
