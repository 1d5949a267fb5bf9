package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"maison/voice"
)

// TestHomeAssistantVoiceLoop speaks to maison the way Home Assistant's own
// MCP client integration does (the Python SDK's streamable HTTP client, no
// session, legacy initialize), so Assist with an LLM agent can answer "is
// anyone at the front door?" from describe_camera.
func TestHomeAssistantVoiceLoop(t *testing.T) {
	t.Parallel()
	url := startDemo(t, map[string]string{"MAISON_LISTEN": "127.0.0.1:0"}, "--no-auth")
	post := func(body string, version string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if version != "" {
			req.Header.Set("MCP-Protocol-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, data
	}
	resp, data := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp","version":"0.1.0"}}}`, "")
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") != "" || !bytes.Contains(data, []byte(`"protocolVersion":"2025-11-25"`)) {
		t.Fatalf("initialize: %d %q session=%q", resp.StatusCode, data, resp.Header.Get("Mcp-Session-Id"))
	}
	if resp, _ := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "2025-11-25"); resp.StatusCode != 202 {
		t.Errorf("notifications/initialized: %d, want 202", resp.StatusCode)
	}
	get, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	get.Header.Set("Accept", "text/event-stream")
	if r, err := http.DefaultClient.Do(get); err != nil || r.StatusCode != 405 {
		t.Errorf("the client's standalone stream GET: %v %v, want 405 (it carries on without one)", r.StatusCode, err)
	}
	_, data = post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, "2025-11-25")
	if !bytes.Contains(data, []byte(`"name":"describe_camera"`)) {
		t.Fatalf("tools/list: %.300s", data)
	}
	var rpc struct {
		Result struct {
			Content []struct{ Type, Text string }
			IsError bool
		}
	}
	var err error
	for try := 1; ; try++ {
		resp, data = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_camera","arguments":{"camera":"front door"}}}`, "2025-11-25")
		rpc.Result.Content, rpc.Result.IsError = nil, false // isError is left out when false
		err = json.Unmarshal(data, &rpc)
		// maison demo draws its frames in the background as it starts: on a
		// loaded machine the first answer may say to try again in a moment,
		// and a person asks again.
		if try == 3 || err != nil || !rpc.Result.IsError || !bytes.Contains(data, []byte("Try again in a moment")) {
			break
		}
		t.Logf("describe_camera answered late (%.200s); asking again", data)
	}
	if err != nil || resp.StatusCode != 200 || rpc.Result.IsError || len(rpc.Result.Content) != 1 {
		t.Fatalf("describe_camera: %d %.300s", resp.StatusCode, data)
	}
	text := rpc.Result.Content[0].Text
	if !strings.Contains(text, "“Front Door” camera") || !strings.Contains(text, "Home Assistant's AI, asked what the picture shows, answered “") {
		t.Errorf("the answer a voice assistant would read: %q", text)
	}
	if err := voice.Speakable(text); err != nil {
		t.Errorf("not speakable: %v", err)
	}
}
