package demo_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"maison/demo"
)

func TestAPIRoot(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	resp, b := get(t, srv, "/api/", h.UserToken())
	if resp.StatusCode != 200 || string(b) != `{"message":"API running."}` {
		t.Errorf("GET /api/ = %d %s", resp.StatusCode, b)
	}
	if resp, _ := get(t, srv, "/api/", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/ without a token = %d, want 401", resp.StatusCode)
	}
	if resp, _ := get(t, srv, "/api/nothing", h.UserToken()); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path = %d, want 404", resp.StatusCode)
	}
}

func TestDropConnections(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	w := dial(t, srv, h.UserToken(), true)
	w.result(w.send("subscribe_entities", nil))
	h.DropConnections()
	var err error
	for err == nil {
		_, err = w.readFrame()
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		t.Errorf("dropped connection ended with a close frame (%v); want an abrupt end", ce)
	}
	// A new connection works at once.
	w2 := dial(t, srv, h.UserToken(), false)
	if m := w2.read2ping(); m["type"] != "pong" {
		t.Errorf("after the drop: %v", m)
	}
}

func TestSetDown(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	w := dial(t, srv, h.UserToken(), false)
	h.SetDown(true)
	var err error
	for err == nil {
		_, err = w.readFrame()
	}
	for _, path := range []string{"/api/", "/api/camera_proxy/camera.front_door", "/api/websocket"} {
		if resp, _ := get(t, srv, path, h.UserToken()); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("while down, GET %s = %d, want 503", path, resp.StatusCode)
		}
	}
	if resp, _ := mcpPost(t, srv, "/api/mcp/assist", h.UserToken(), toolsCall, nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("while down, MCP = %d, want 503", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	if _, _, err := websocket.Dial(ctx, wsURL(srv), nil); err == nil {
		t.Error("websocket accepted while down")
	}
	h.SetState("lock.front_door", "unlocked", nil) // changed during the restart
	h.SetDown(false)

	w = dial(t, srv, h.UserToken(), false)
	sub := w.send("subscribe_entities", nil)
	lock := w.event(sub)["a"].(map[string]any)["lock.front_door"].(map[string]any)
	if lock["s"] != "unlocked" {
		t.Errorf("after the restart the lock is %v, want unlocked", lock["s"])
	}
}

func TestSetLatencyRespectsContext(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	h.SetLatency(time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/", nil)
	req.Header.Set("Authorization", "Bearer "+h.UserToken())
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	cancel()
	if err := <-done; err == nil {
		t.Error("a delayed request answered although its context was cancelled")
	}
	h.SetLatency(time.Millisecond)
	if resp, _ := get(t, srv, "/api/", h.UserToken()); resp.StatusCode != 200 {
		t.Errorf("with a small latency: %d", resp.StatusCode)
	}
	h.SetLatency(0)
	w := dial(t, srv, h.UserToken(), false)
	if m := w.read2ping(); m["type"] != "pong" {
		t.Errorf("ping: %v", m)
	}
}

// TestSetLatencyReleasesAbandonedPOST proves a delayed POST ends when its
// client leaves: otherwise Close would wait for the whole hour.
func TestSetLatencyReleasesAbandonedPOST(t *testing.T) {
	t.Parallel()
	h := demo.New(demo.Options{})
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		h.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h.SetLatency(time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/api/mcp/assist", strings.NewReader(toolsCall))
	req.Header.Set("Authorization", "Bearer "+h.UserToken())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-arrived
	cancel()
	if err := <-done; err == nil {
		t.Error("a delayed POST answered although its context was cancelled")
	}
	srv.Close() // hangs for an hour if the handler is still sleeping
}

func TestHousesAreIndependent(t *testing.T) {
	t.Parallel()
	a, _ := newHouse(t, demo.Options{})
	b, _ := newHouse(t, demo.Options{})
	if a.UserToken() == b.UserToken() || a.UserToken() == a.AdminToken() {
		t.Error("tokens are shared")
	}
	a.SetState("light.porch", "on", nil)
	if s, _, _ := b.State("light.porch"); s != "off" {
		t.Errorf("a change in one house shows in another: %s", s)
	}
}
