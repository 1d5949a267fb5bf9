package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"maison/demo"
	"maison/demotest"
)

// guard bounds a blocking read so that a missing message fails the test
// instead of hanging it; it is not a timing assertion.
const guard = 20 * time.Second

// newHouse serves a demo house built with opts for t; its frames are drawn
// on first fetch (the house's own tests make many houses and fetch few).
func newHouse(t *testing.T, opts demo.Options) (*demo.House, *httptest.Server) {
	t.Helper()
	h := demotest.NewHouse(t, demotest.Options{House: opts, LazyFrames: true})
	return h.House, h.Server
}

// wsClient is a minimal Home Assistant websocket client for tests. It splits
// coalesced arrays and keeps messages it was not asked for yet.
type wsClient struct {
	t      *testing.T
	c      *websocket.Conn
	nextID int
	queue  []map[string]any
	frames [][]byte // raw frames received, for coalescing checks
}

func wsURL(srv *httptest.Server) string {
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/websocket"
}

// dialRaw connects and returns the connection and the auth_required message.
func dialRaw(t *testing.T, srv *httptest.Server) (*wsClient, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	c, _, err := websocket.Dial(ctx, wsURL(srv), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(32 << 20)
	t.Cleanup(func() { c.CloseNow() })
	w := &wsClient{t: t, c: c, nextID: 1}
	return w, w.read()
}

// dialAuth connects and authenticates, returning the auth answer.
func dialAuth(t *testing.T, srv *httptest.Server, token string) (*wsClient, map[string]any) {
	t.Helper()
	w, first := dialRaw(t, srv)
	if first["type"] != "auth_required" {
		t.Fatalf("first message = %v, want auth_required", first)
	}
	w.write(map[string]any{"type": "auth", "access_token": token})
	return w, w.read()
}

// dial connects, authenticates (failing the test otherwise) and enables
// coalescing when asked.
func dial(t *testing.T, srv *httptest.Server, token string, coalesce bool) *wsClient {
	t.Helper()
	w, ok := dialAuth(t, srv, token)
	if ok["type"] != "auth_ok" {
		t.Fatalf("auth answer = %v, want auth_ok", ok)
	}
	if coalesce {
		id := w.send("supported_features", map[string]any{"features": map[string]any{"coalesce_messages": 1}})
		if r := w.result(id); r["success"] != true {
			t.Fatalf("supported_features: %v", r)
		}
	}
	return w
}

func (w *wsClient) write(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(w.t.Context(), guard)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// send sends a command with the next id and returns the id.
func (w *wsClient) send(typ string, fields map[string]any) int {
	w.t.Helper()
	id := w.nextID
	w.nextID++
	msg := map[string]any{"id": id, "type": typ}
	for k, v := range fields {
		msg[k] = v
	}
	w.write(msg)
	return id
}

// readFrame reads one websocket frame, or returns the error.
func (w *wsClient) readFrame() ([]byte, error) {
	ctx, cancel := context.WithTimeout(w.t.Context(), guard)
	defer cancel()
	_, b, err := w.c.Read(ctx)
	if err == nil {
		w.frames = append(w.frames, b)
	}
	return b, err
}

// read returns the next message, splitting arrays.
func (w *wsClient) read() map[string]any {
	w.t.Helper()
	for len(w.queue) == 0 {
		b, err := w.readFrame()
		if err != nil {
			w.t.Fatalf("read: %v", err)
		}
		w.queue = append(w.queue, decodeFrame(w.t, b)...)
	}
	m := w.queue[0]
	w.queue = w.queue[1:]
	return m
}

func decodeFrame(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var arr []map[string]any
		if err := json.Unmarshal(b, &arr); err != nil {
			t.Fatalf("bad array frame %s: %v", b, err)
		}
		return arr
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("bad frame %s: %v", b, err)
	}
	return []map[string]any{m}
}

// next returns the first message matching f, keeping the others queued.
func (w *wsClient) next(f func(map[string]any) bool) map[string]any {
	w.t.Helper()
	for i, m := range w.queue {
		if f(m) {
			w.queue = append(w.queue[:i:i], w.queue[i+1:]...)
			return m
		}
	}
	var held []map[string]any
	defer func() { w.queue = append(held, w.queue...) }()
	for {
		m := w.read()
		if f(m) {
			return m
		}
		held = append(held, m)
	}
}

// result waits for the result of command id.
func (w *wsClient) result(id int) map[string]any {
	w.t.Helper()
	return w.next(func(m map[string]any) bool { return m["type"] == "result" && num(m["id"]) == id })
}

// event waits for the next event of subscription id and returns its body.
func (w *wsClient) event(id int) map[string]any {
	w.t.Helper()
	m := w.next(func(m map[string]any) bool { return m["type"] == "event" && num(m["id"]) == id })
	ev, _ := m["event"].(map[string]any)
	return ev
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// errorCode returns a failed result's error code.
func errorCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

// mcpPost posts body to path with the usual MCP headers, overridden by hdr
// (an empty value deletes a header).
func mcpPost(t *testing.T, srv *httptest.Server, path, token, body string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// rpc sends one JSON-RPC request to /api/mcp/assist and decodes the answer.
func rpc(t *testing.T, srv *httptest.Server, token, method string, params any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	resp, b := mcpPost(t, srv, "/api/mcp/assist", token, string(body), nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d: %s", method, resp.StatusCode, b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v: %s", method, err, b)
	}
	return m
}

// callTool calls an Assist tool and returns its text and isError.
func callTool(t *testing.T, srv *httptest.Server, token, name string, args map[string]any) (string, bool) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	m := rpc(t, srv, token, "tools/call", map[string]any{"name": name, "arguments": args})
	res, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("tools/call %s: no result: %v", name, m)
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("tools/call %s: content = %v", name, content)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	isErr, _ := res["isError"].(bool)
	return text, isErr
}

// get performs a GET with an optional bearer token.
func get(t *testing.T, srv *httptest.Server, path, token string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// read2ping sends a ping and returns the next message.
func (w *wsClient) read2ping() map[string]any {
	w.t.Helper()
	w.send("ping", nil)
	return w.read()
}
