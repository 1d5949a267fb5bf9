package homeassistant

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// hits counts requests per path on a small hand-written handler, for endpoint discovery cases the demo does
// not cover (older releases, no integration, admin-only /api/mcp).
type hits struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *hits) add(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == nil {
		h.n = map[string]int{}
	}
	h.n[p]++
}

func (h *hits) get(p string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n[p]
}

func newTestClient(t *testing.T, url, token string) *Client {
	t.Helper()
	c, err := New(Config{URL: url, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// legacyMCP answers JSON-RPC like HA's stateless endpoint, with one tool.
func legacyMCP(t *testing.T, w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Content-Type") != "application/json" || !strings.Contains(r.Header.Get("Accept"), "application/json") {
		http.Error(w, "bad headers", http.StatusBadRequest)
		return
	}
	var req struct {
		ID     int64           `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		t.Errorf("request body %q: %v", body, err)
	}
	w.Header().Set("Content-Type", "application/json")
	switch req.Method {
	case "tools/list":
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
			"tools": []map[string]any{{"name": "HassTurnOn", "description": "Turns on", "inputSchema": map[string]any{"type": "object"}}}}})
	case "tools/call":
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		json.Unmarshal(req.Params, &p)
		if _, ok := p.Arguments["area"]; ok {
			t.Errorf("empty area was sent: %v", p.Arguments)
		}
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
			"isError": false, "content": []map[string]any{{"type": "text", "text": `{"speech": {}, "response_type": "action_done"}`}}}})
	default:
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
	}
}

func TestAssistFallsBackToLegacyEndpoint(t *testing.T) {
	t.Parallel()
	var h hits
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r.URL.Path)
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/api/mcp" {
			legacyMCP(t, w, r)
			return
		}
		http.Error(w, "404: Not Found", http.StatusNotFound)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, "tok")
	tools, err := c.AssistTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Canonical != "HassTurnOn" {
		t.Fatalf("tools = %+v", tools)
	}
	res, err := c.CallAssist(t.Context(), "HassTurnOn", map[string]any{"name": "Kitchen Light", "area": ""})
	if err != nil || res.IsError || !strings.Contains(res.Text, "action_done") {
		t.Fatalf("call = %+v, %v", res, err)
	}
	// Discovery happened once: the remembered endpoint is used afterwards.
	if n := h.get("/api/mcp/assist"); n != 1 {
		t.Errorf("/api/mcp/assist hit %d times, want 1", n)
	}
	if n := h.get("/api/mcp"); n != 2 {
		t.Errorf("/api/mcp hit %d times, want 2 (list, call)", n)
	}
}

func TestAssistNotConfigured(t *testing.T) {
	t.Parallel()
	var h hits
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r.URL.Path)
		http.Error(w, "Model Context Protocol server is not configured", http.StatusNotFound)
	}))
	defer srv.Close()
	c, err := New(Config{URL: srv.URL, Token: "tok", AssistGrace: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// The first 404 may be a restart: the integration is said missing only
	// once the 404s outlast AssistGrace.
	_, _ = c.AssistTools(t.Context())
	time.Sleep(time.Millisecond)
	_, err = c.AssistTools(t.Context())
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindNoAssist {
		t.Fatalf("err = %v, want KindNoAssist", err)
	}
	if h.get("/api/mcp/assist") != 2 || h.get("/api/mcp") != 2 {
		t.Errorf("probes: assist %d, legacy %d; want two each", h.get("/api/mcp/assist"), h.get("/api/mcp"))
	}
}

func TestAssistLegacyAdminOnlyIsNotRetried(t *testing.T) {
	t.Parallel()
	var h hits
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r.URL.Path)
		if r.URL.Path == "/api/mcp" {
			http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
			return
		}
		http.Error(w, "404: Not Found", http.StatusNotFound)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, "tok")
	for range 3 {
		_, err := c.CallAssist(t.Context(), "intent__HassTurnOn", map[string]any{"name": "x"})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindNotAllowed || e.Status != http.StatusUnauthorized {
			t.Fatalf("err = %v, want KindNotAllowed 401", err)
		}
		if e.Case() != CaseOldMCP {
			t.Errorf("case = %v, want the older endpoint's", e.Case())
		}
	}
	if n := h.get("/api/mcp"); n != 1 {
		t.Errorf("/api/mcp hit %d times after a 401, want 1 (401s are ban-counted)", n)
	}
}

func TestUnauthorizedCameraIsNotRepeated(t *testing.T) {
	t.Parallel()
	var h hits
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.add(r.URL.Path)
		http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, "bad")
	for range 2 {
		if _, err := c.CameraImage(t.Context(), "camera.garage", 0, 0); !errors.Is(err, KindAuth) {
			t.Fatalf("err = %v, want KindAuth", err)
		}
	}
	if _, err := c.AssistTools(t.Context()); !errors.Is(err, KindAuth) {
		t.Fatalf("assist after a refused token: %v, want KindAuth", err)
	}
	if err := c.Connect(t.Context()); !errors.Is(err, KindAuth) {
		t.Fatalf("connect after a refused token: %v, want KindAuth", err)
	}
	total := h.get("/api/camera_proxy/camera.garage") + h.get("/api/mcp/assist") + h.get("/api/websocket")
	if total != 1 {
		t.Errorf("%d requests presented a refused token, want 1", total)
	}
}
