package homeassistant

import (
	"errors"
	"testing"
)

func TestCanonical(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"HassTurnOn":                            "HassTurnOn",
		"intent__HassTurnOn":                    "HassTurnOn",
		"light__HassLightSet":                   "HassLightSet",
		"homeassistant__GetLiveContext":         "GetLiveContext",
		"assist__homeassistant__GetLiveContext": "GetLiveContext",
		"todo_get_items":                        "todo_get_items",
		"weird__":                               "weird__",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// ownBare stands for actions.BareName (which imports this package): the
// intents these tests call had their canonical name alone before 2026.9.
func ownBare(name string) (string, bool) {
	bare, ok := map[string]string{
		"intent__HassTurnOn": "HassTurnOn", "intent__HassTurnOff": "HassTurnOff",
		"homeassistant__GetLiveContext": "GetLiveContext", "llm__GetDateTime": "GetDateTime",
	}[name]
	return bare, ok
}

func TestFindTool(t *testing.T) {
	t.Parallel()
	prefixed := []Tool{
		{Name: "intent_script__HassTurnOn"},
		{Name: "intent__HassTurnOn"},
		{Name: "light__HassLightSet"},
		{Name: "intent_script__get_items"},
		{Name: "script__get_items"},
	}
	plain := []Tool{{Name: "HassTurnOn"}, {Name: "get_items"}, {Name: "GetLiveContext"}}
	for _, c := range []struct {
		tools      []Tool
		name, want string // want "" for none
	}{
		{prefixed, "intent__HassTurnOn", "intent__HassTurnOn"},
		{prefixed, "intent_script__HassTurnOn", "intent_script__HassTurnOn"},
		{prefixed, "light__HassLightSet", "light__HassLightSet"},
		{prefixed, "HassTurnOn", ""},          // a bare name says no origin
		{prefixed, "todo__get_items", ""},     // never another origin's get_items
		{prefixed, "intent__HassTurnOff", ""}, // not listed
		{prefixed, "climate__HassTurnOn", ""}, // another origin
		{plain, "intent__HassTurnOn", "HassTurnOn"},
		{plain, "homeassistant__GetLiveContext", "GetLiveContext"},
		{plain, "todo__get_items", ""}, // a bare lowercase name could be a script's
		{plain, "get_items", "get_items"},
	} {
		got, ok := findTool(c.tools, c.name, ownBare)
		if c.want == "" && ok {
			t.Errorf("%s found %s, want none", c.name, got.Name)
		}
		if c.want != "" && (!ok || got.Name != c.want) {
			t.Errorf("%s found %q (%v), want %s", c.name, got.Name, ok, c.want)
		}
	}
}

func TestCleanArgs(t *testing.T) {
	t.Parallel()
	got := cleanArgs(map[string]any{
		"name": "Kitchen Light", "area": "", "floor": "  ", "domain": []string{}, "device_class": []any{},
		"brightness": 0, "color": nil, "keep": []string{"light"},
	})
	want := map[string]bool{"name": true, "brightness": true, "keep": true}
	if len(got) != len(want) {
		t.Fatalf("cleanArgs = %v", got)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s dropped", k)
		}
	}
}

func TestUnknownTool(t *testing.T) {
	t.Parallel()
	if !unknownTool("HassTurnOn", ToolResult{IsError: true, Text: `Error calling tool: Tool "HassTurnOn" not found`}, nil) {
		t.Error("HA's not-found text not recognised")
	}
	if unknownTool("HassTurnOn", ToolResult{IsError: true, Text: `Error calling tool: <MatchFailedError result=MatchTargetsResult(is_match=False, no_match_reason=<MatchFailedReason.NAME: 1>)>`}, nil) {
		t.Error("a match failure is not an unknown tool")
	}
	if !unknownTool("x", ToolResult{}, &Error{Kind: KindProtocol, Err: &rpcError{Code: -32602, Message: `unknown tool "x"`}}) {
		t.Error("json-rpc unknown tool not recognised")
	}
	if unknownTool("x", ToolResult{}, errors.New("boom")) {
		t.Error("plain error taken for unknown tool")
	}
}

func TestFirstSSEData(t *testing.T) {
	t.Parallel()
	stream := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\n" + "data: \"result\":{}}\n\n"
	got, err := firstSSEData([]byte(stream))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"jsonrpc\":\"2.0\",\"id\":7,\n\"result\":{}}"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := firstSSEData([]byte(": keepalive\n\n")); err == nil {
		t.Error("empty stream: want error")
	}
}
