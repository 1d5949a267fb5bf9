package fuzz

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/door"
)

// FuzzDoor sends arbitrary methods, credentials, origins, content types
// and bodies to the door in front of a stateless JSON MCP server, through
// a real connection's worth of checks: it must never panic, never let a
// request without the right token through, and answer /mcp with a known
// status and, whenever it refuses, a JSON-RPC error body, never plain text.
func FuzzDoor(f *testing.F) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	reached := false
	const token = "secret-token-of-at-least-32-characters"
	gate, err := door.New(door.Config{Token: token, RateLimit: -1}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = true
		h.ServeHTTP(w, r)
	}))
	if err != nil {
		f.Fatal(err)
	}
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	for _, seed := range []struct{ method, auth, origin, ctype, version, body string }{
		{"POST", "Bearer " + token, "", "application/json", "", list},
		{"POST", "Bearer wrong", "", "application/json", "", `{}`},
		{"GET", "", "http://evil.example", "", "", ``},
		{"POST", "bearer  " + token + " ", "http://127.0.0.1", "application/json", "", `[{"jsonrpc":"2.0"}]`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","id":1,"method":`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{}}`},
		{"POST", "Bearer " + token, "", "application/json", "2026-07-28", `{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{}}`},
		{"POST", "Bearer " + token, "", "application/json", "1999-01-01", list},
		{"POST", "Bearer " + token, "", "text/plain", "", list},
		{"POST", "Bearer " + token, "", "application/json", "", "[" + strings.Repeat(list+",", 8) + list + "]"},
		{"POST", "Bearer " + token, "", "application/json", "2025-03-26", "[" + list + "," + strings.Replace(list, `"id":1`, `"id":2`, 1) + "]"},
		{"POST", "Bearer " + token, "", "application/json", "2025-03-26", "[" + list + "," + list + "]"},
		{"POST", "Bearer " + token, "", "application/json", "", strings.Repeat("[", 70) + strings.Repeat("]", 70)},
		{"POST", "Bearer " + token, "", "application/json", "", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"a\":\"\xff\"}}"},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":` + strings.Repeat(`{"a":`, 60) + `1` + strings.Repeat(`}`, 60) + `}}`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"POST", "Bearer " + token, "", "application/json", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	} {
		f.Add(seed.method, seed.auth, seed.origin, seed.ctype, seed.version, seed.body)
	}
	f.Fuzz(func(t *testing.T, method, auth, origin, ctype, version, body string) {
		if !validMethod(method) {
			return
		}
		req := httptest.NewRequest(method, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.RemoteAddr = "192.0.2.1:1234"
		for k, v := range map[string]string{"Content-Type": ctype, "Authorization": auth, "Origin": origin, "Mcp-Protocol-Version": version} {
			if v != "" && validHeader(v) {
				req.Header.Set(k, v)
			}
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		reached = false
		rec := httptest.NewRecorder()
		gate.ServeHTTP(rec, req)
		// Whatever the spelling, only the right token may pass.
		scheme, tok, _ := strings.Cut(strings.TrimSpace(req.Header.Get("Authorization")), " ")
		authorized := strings.EqualFold(scheme, "bearer") && strings.TrimSpace(tok) == token
		if reached && !authorized {
			t.Fatalf("%s with Authorization %q reached the MCP server", method, req.Header.Get("Authorization"))
		}
		switch rec.Code {
		case 200, 202, 400, 401, 403, 404, 405, 406, 408, 413, 415, 429, 503:
		default:
			t.Fatalf("unexpected status %d for %s %q: %s", rec.Code, method, body, rec.Body.String())
		}
		if rec.Code >= 400 {
			var e struct {
				JSONRPC string `json:"jsonrpc"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if rec.Header().Get("Content-Type") != "application/json" || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.JSONRPC != "2.0" || e.Error == nil || e.Error.Message == "" {
				t.Fatalf("status %d without a JSON-RPC error body for %s %q: %q %q", rec.Code, method, body, rec.Header().Get("Content-Type"), rec.Body.String())
			}
		}
	})
}

func validMethod(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS":
		return true
	}
	return false
}

func validHeader(v string) bool {
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
