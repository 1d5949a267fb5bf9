package stdio

import (
	"encoding/json"
	"strings"
	"testing"

	"maison/voice"
)

// Every refusal stdio writes, its own and the SDK's put in words, reads in
// the language maison speaks: French with MAISON_LANG=fr, German with
// MAISON_LANG=de, English otherwise.
func TestRefusalsSpeakTheSessionsLanguage(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`
	cases := map[string]string{
		"before initialize":    `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		"not JSON":             init + "\n" + `this is not json`,
		"not UTF-8":            init + "\n" + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\"}}",
		"batch":                init + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`,
		"too deep":             init + "\n" + strings.Repeat("[", 200) + strings.Repeat("]", 200),
		"inexact id":           init + "\n" + `{"jsonrpc":"2.0","id":1e3,"method":"tools/list"}`,
		"params not an object": init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`,
		"tool not named":       init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":""}}`,
		"arguments not object": init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":[1]}}`,
		"completion no ref":    init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{}}`,
		"unknown method":       init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"no/such/method","params":{}}`,
		"foreign cursor":       init + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"not-ours"}}`,
		"not JSON-RPC":         init + "\n" + `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			said := map[voice.Lang]string{}
			for _, lang := range voice.Langs() {
				said[lang] = refusalOf(t, runToEndIn(t, lang, in).String())
			}
			en, fr, de := said[voice.English], said[voice.French], said[voice.German]
			if !containsAny(en, "othing was done", "session goes on", "nothing in this one was done") {
				t.Errorf("the English refusal does not say nothing was done: %q", en)
			}
			for _, english := range []string{"Nothing was done", "nothing was done", "session goes on", " must ", " is not "} {
				if strings.Contains(fr, english) {
					t.Errorf("the French refusal holds English %q: %q", english, fr)
				}
				if strings.Contains(de, english) {
					t.Errorf("the German refusal holds English %q: %q", english, de)
				}
			}
			if !containsAny(de, "wurde nichts ausgeführt", "Sitzung geht weiter", "nichts aus diesem wurde ausgeführt") {
				t.Errorf("the German refusal does not say nothing was done: %q", de)
			}
			if got, ok := voice.Language(de); !ok || got != voice.German {
				t.Errorf("the German refusal does not read as German: %q", de)
			}
			if !containsAny(fr, "ien n'a été fait", "session continue", "rien de celui-ci n'a été fait") {
				t.Errorf("the French refusal does not say nothing was done: %q", fr)
			}
		})
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// refusalOf is the message of the one error answer in out.
func refusalOf(t *testing.T, out string) string {
	t.Helper()
	var msgs []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			Error *struct{ Message string } `json:"error"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Error != nil {
			msgs = append(msgs, m.Error.Message)
		}
	}
	if len(msgs) != 1 {
		t.Fatalf("want one refusal, got %d in %q", len(msgs), out)
	}
	return msgs[0]
}
