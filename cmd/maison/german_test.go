package main

import (
	"encoding/json"
	"io"
	"regexp"
	"testing"

	"maison/demotest"
	"maison/voice"
)

// spokenIn checks that a tool's answer reads as lang: fit for the ear, no
// other language's reading, and, outside quoted data, none of English's
// commonest words.
func spokenIn(t *testing.T, lang voice.Lang, what, text string) {
	t.Helper()
	if err := voice.Speakable(text); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	words := regexp.MustCompile(`„[^“]*“|“[^”]*”|« [^»]* »`).ReplaceAllString(text, "")
	if got, ok := voice.Language(words); !ok || got != lang {
		t.Errorf("%s: does not read as %s: %q", what, lang, text)
	}
	if m := regexp.MustCompile(`\b(the|is|are|and|of|to|with|not|camera|picture|door|nothing)\b`).FindString(words); m != "" {
		t.Errorf("%s: English %q left in: %q", what, m, text)
	}
}

// With MAISON_LANG=de maison answers in German over HTTP and over stdio,
// as it does in English and French.
func TestGermanOverHTTPAndStdio(t *testing.T) {
	t.Parallel()
	url := startDemo(t, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0", "MAISON_LANG": "de"})
	cs := connect(t, url, e2eToken, "2025-11-25")
	for tool, args := range map[string]map[string]any{
		"describe_house":  nil,
		"list_cameras":    nil,
		"describe_camera": {"camera": "front door"},
		"what_happened":   nil,
		"turn_on":         {"name": "Shed Power"},
	} {
		spokenIn(t, voice.German, "over HTTP, "+tool, demotest.Text(demotest.Call(t, cs, tool, args)))
	}

	_, stdin, lines, stderr := stdioProcess(t, []string{"MAISON_LANG=de"}, "--demo")
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	await(t, lines, `"id":1`, stderr)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_house","arguments":{}}}`)
	var house struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(await(t, lines, `"id":2,`, stderr)), &house); err != nil || len(house.Result.Content) == 0 {
		t.Fatalf("describe_house over stdio: %v", err)
	}
	spokenIn(t, voice.German, "over stdio, describe_house", house.Result.Content[0].Text)
}
