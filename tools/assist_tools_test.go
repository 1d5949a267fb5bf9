package tools_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"maison/demo"
	"maison/homeassistant"
	"maison/tools"
	"maison/voice"
)

// Home Assistant's other real behaviours, answered in words.

func TestActionCutAtHomeAssistantsLimit(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	r.house.SetAssistStall(50 * time.Millisecond)
	text, isErr := call(t, r.cs, "turn_on", map[string]any{"name": "Porch Light"})
	if !isErr || !strings.Contains(text, "may or may not have happened") || !strings.Contains(text, "ask for the state of the device") {
		t.Errorf("an action cut at Home Assistant's limit: %q", text)
	}
}

func TestAssistLoadingIsNotCalledMissing(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	_, cs := session(t, voice.English, demo.NamingPrefixed)
	text, isErr := call(t, cs, "ha_ask", map[string]any{"action": "GetDateTime"})
	if isErr || !strings.HasPrefix(text, "It is ") {
		t.Errorf("GetDateTime when Home Assistant calls it llm__GetDateTime: %q", text)
	}
}

func TestPassthroughIsTheOperatorsChoice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    tools.Passthrough
		want []string
	}{
		{tools.Passthrough{}, []string{"ha_act", "ha_ask"}},
		{tools.Passthrough{Off: true}, nil},
		{tools.Passthrough{Only: []string{"GetDateTime"}}, []string{"ha_ask"}},
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
