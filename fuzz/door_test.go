package fuzz

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/door"
)

// FuzzDoor sends arbitrary methods, credentials, origins and bodies to the
// door in front of a stateless JSON MCP server: it must never panic, never
// let an unauthenticated request through, and answer with a known status.
func FuzzDoor(f *testing.F) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	reached := false
	gate, err := door.New(door.Config{Token: "secret"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = true
		h.ServeHTTP(w, r)
	}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add("POST", "Bearer secret", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`)
	f.Add("POST", "Bearer wrong", "", `{}`)
	f.Add("GET", "", "http://evil.example", ``)
	f.Add("POST", "bearer  secret ", "http://127.0.0.1", `[{"jsonrpc":"2.0"}]`)
	f.Fuzz(func(t *testing.T, method, auth, origin, body string) {
		if !validMethod(method) {
			return
		}
		req := httptest.NewRequest(method, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" && validHeader(auth) {
			req.Header.Set("Authorization", auth)
		}
		if origin != "" && validHeader(origin) {
			req.Header.Set("Origin", origin)
		}
		reached = false
		rec := httptest.NewRecorder()
		gate.ServeHTTP(rec, req)
		// Whatever the spelling, only the right token may pass.
		scheme, token, _ := strings.Cut(strings.TrimSpace(req.Header.Get("Authorization")), " ")
		authorized := strings.EqualFold(scheme, "bearer") && strings.TrimSpace(token) == "secret"
		if reached && !authorized {
			t.Fatalf("%s with Authorization %q reached the MCP server", method, req.Header.Get("Authorization"))
		}
		switch rec.Code {
		case 200, 202, 400, 401, 403, 404, 405, 406, 413, 415, 429, 500:
		default:
			t.Fatalf("unexpected status %d for %s %q", rec.Code, method, body)
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
