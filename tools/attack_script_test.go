package tools_test

// Attack tests (branch attack-8); see /work/notes/attack-8.md.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
	"maison/demotest"
)

// scriptTools makes the demo's Assist endpoint offer exposed scripts as
// tools, as Home Assistant's LLM API does (each exposed script is a tool
// named after it, described by its description, with its fields as
// parameters). Calling one runs its effect: here an Assist intent.
func scriptTools(next http.Handler, scripts map[string]struct {
	description string
	intent      string
	args        map[string]any
}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/mcp/assist" || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg map[string]any
		_ = json.Unmarshal(body, &msg)
		method, _ := msg["method"].(string)
		if method == "tools/call" {
			params, _ := msg["params"].(map[string]any)
			name, _ := params["name"].(string)
			if s, ok := scripts[name]; ok {
				params["name"], params["arguments"] = s.intent, s.args
				body, _ = json.Marshal(msg)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		if method != "tools/list" {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var resp map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &resp) == nil {
			if res, ok := resp["result"].(map[string]any); ok {
				list, _ := res["tools"].([]any)
				for name, s := range scripts {
					list = append(list, map[string]any{"name": name, "description": s.description,
						"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
				}
				res["tools"] = list
			}
		}
		out, _ := json.Marshal(resp)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(out)
	})
}

// scriptRig is newRig with the house behind scriptTools.
func scriptRig(t *testing.T, wrap func(http.Handler) http.Handler) (*demo.House, *mcp.ClientSession) {
	t.Helper()
	r := demotest.New(t, demotest.Options{Wrap: wrap, LazyFrames: true})
	return r.House, r.Session
}

// Promise 3: anything that could unlock a lock or open a door needs the
// person's yes. An exposed script is offered by Home Assistant as a tool of
// its own; maison passes it through, and since the call names no target
// its sensitive check never runs: "Unlock the front door" runs unasked.
func TestAttackExposedScriptToolUnlocksUnasked(t *testing.T) {
	house, cs := scriptRig(t, func(h http.Handler) http.Handler {
		return scriptTools(h, map[string]struct {
			description string
			intent      string
			args        map[string]any
		}{
			"unlock_front_door": {"Unlocks the front door for a guest", "HassTurnOff", map[string]any{"name": "Front Door Lock"}},
			"open_garage":       {"Opens the garage door", "HassTurnOn", map[string]any{"name": "Garage Door"}},
		})
	})
	names := demotest.ToolNames(t, cs)
	for _, c := range []struct{ tool, id, safe string }{
		{"ha_unlock_front_door", "lock.front_door", "locked"},
		{"ha_open_garage", "cover.garage_door", "closed"},
	} {
		if !strings.Contains(strings.Join(names, " "), c.tool) {
			t.Fatalf("maison does not offer %s: %v", c.tool, names)
		}
		parts, _ := callBlocks(t, cs, c.tool, map[string]any{})
		if st, _, _ := house.State(c.id); st != c.safe {
			t.Errorf("%s ran unasked: %s is now %s; maison said %q", c.tool, c.id, st, parts)
		}
	}
}
