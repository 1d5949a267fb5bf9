package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/demotest"
	"maison/internal/testkit"
)

// startServe runs `maison serve` in process against a demo house the test
// controls, and returns its /mcp URL, its logs and how to stop it.
func startServe(t *testing.T, house *demotest.House, env map[string]string) (url string, logs *testkit.Buffer, stop func() int) {
	t.Helper()
	full := map[string]string{"MAISON_HA_URL": house.URL, "MAISON_HA_TOKEN": house.UserToken(), "MAISON_LISTEN": "127.0.0.1:0"}
	for k, v := range env {
		full[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &testkit.Buffer{}, &testkit.Buffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, strings.NewReader(""), out, logs, func(k string) string { return full[k] })
	}()
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	for {
		for _, line := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "maison is serving "); ok {
				return strings.TrimSpace(u), logs, stop
			}
		}
		select {
		case code := <-done:
			t.Fatalf("maison serve exited %d before serving: %s %s", code, out.String(), logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// postRPC posts one JSON-RPC message and returns the status and body.
func postRPC(t *testing.T, url, token, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestShortTokenRefused(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	code := run(t.Context(), []string{"demo"}, strings.NewReader(""), io.Discard, &stderr,
		func(k string) string { return map[string]string{"MAISON_TOKEN": "hunter2"}[k] })
	if code == 0 || !strings.Contains(stderr.String(), "MAISON_TOKEN is too short (7 characters)") || !strings.Contains(stderr.String(), "openssl rand") {
		t.Errorf("a 7-character token: exit %d, %q", code, stderr.String())
	}
}

// maison serve never prints a fresh token where it would be kept: a log, a
// file, a container's output.
func TestServeRefusesToPrintATokenIntoALog(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	var stdout, stderr strings.Builder
	code := run(t.Context(), []string{"serve"}, strings.NewReader(""), &stdout, &stderr, func(k string) string {
		return map[string]string{"MAISON_HA_URL": house.URL, "MAISON_HA_TOKEN": house.UserToken(), "MAISON_LISTEN": "127.0.0.1:0"}[k]
	})
	if code == 0 || !strings.Contains(stderr.String(), "standard output is not a terminal") || strings.Contains(stdout.String(), "Bearer token") {
		t.Errorf("serve without MAISON_TOKEN, stdout a buffer: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// On SIGTERM a request in flight finishes, a new one is refused in words,
// and one line says so.
func TestShutdownDrains(t *testing.T) {
	t.Parallel()
	// The front door's picture is held at Home Assistant until the test
	// lets it go: the request is surely in flight while maison drains.
	arrived, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	house := demotest.NewHouse(t, demotest.Options{Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/api/camera_proxy/camera.front_door") {
				once.Do(func() { close(arrived) })
				<-release
			}
			h.ServeHTTP(w, r)
		})
	}})
	url, logs, stop := startServe(t, house, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_SHUTDOWN_GRACE": "60s"})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"describe_house","arguments":{}}}`
	if code, _, body := postRPC(t, url, e2eToken, list); code != 200 {
		t.Fatalf("before: %d %s", code, body)
	}
	var wg sync.WaitGroup
	var slowCode int
	var slowBody string
	snap := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"camera_snapshot","arguments":{"camera":"front door"}}}`
	wg.Go(func() { slowCode, _, slowBody = postRPC(t, url, e2eToken, snap) })
	select {
	case <-arrived:
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("the snapshot never reached Home Assistant")
	}
	exited := make(chan int, 1)
	go func() { exited <- stop() }()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(logs.String(), `msg="shutting down`); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			close(release)
			t.Fatal("maison never said it was shutting down")
		}
	}
	code, hdr, body := postRPC(t, url, e2eToken, list)
	if code != 503 || hdr.Get("Retry-After") == "" || !strings.Contains(body, "shutting down") {
		t.Errorf("a new request while draining: %d %q", code, body)
	}
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) != nil || e.Error.Message == "" {
		t.Errorf("the refusal is not a JSON-RPC error: %q", body)
	}
	close(release)
	wg.Wait()
	if slowCode != 200 || !strings.Contains(slowBody, `"result"`) {
		t.Errorf("the request in flight: %d %.200s", slowCode, slowBody)
	}
	if c := <-exited; c != 0 {
		t.Errorf("exit %d", c)
	}
	if n := strings.Count(logs.String(), `msg="shutting down`); n != 1 {
		t.Errorf("%d shutdown lines, want 1:\n%s", n, logs.String())
	}
}

// Over the per-client limit, the real stack answers as the SDKs survive:
// HTTP 200 and a JSON-RPC error that says when to retry, the wait in its
// data; probes answer.
func TestRateLimitAndProbes(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	url, _, _ := startServe(t, house, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_RATE_LIMIT": "3/10s"})
	list := `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`
	for i := range 3 {
		if code, _, body := postRPC(t, url, e2eToken, list); code != 200 {
			t.Fatalf("request %d: %d %s", i+1, code, body)
		}
	}
	code, _, body := postRPC(t, url, e2eToken, list)
	if code != 200 || !strings.Contains(body, `"id":5`) || !strings.Contains(body, `"retryAfterSeconds":`) || !strings.Contains(body, "Try again in") {
		t.Errorf("over the limit: %d %s", code, body)
	}
	base := strings.TrimSuffix(url, "/mcp")
	house.SetDown(true) // Home Assistant down: maison stays ready, to say so in words
	defer house.SetDown(false)
	for _, p := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s with Home Assistant down: %d", p, resp.StatusCode)
		}
	}
}

// Behind Cloudflare without MAISON_CLIENT_IP_HEADER, maison says once how
// to count each client apart; with it, each client is counted under its
// own address, and a stranger's wrong tokens never refuse the owner's.
func TestClientAddressBehindCloudflare(t *testing.T) {
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	send := func(url, token, from string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Cf-Connecting-Ip", from)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	url, logs, _ := startServe(t, house, map[string]string{"MAISON_TOKEN": e2eToken})
	send(url, e2eToken, "198.51.100.1")
	send(url, e2eToken, "198.51.100.2")
	time.Sleep(50 * time.Millisecond)
	if n := strings.Count(logs.String(), "set MAISON_CLIENT_IP_HEADER=CF-Connecting-IP"); n != 1 {
		t.Errorf("%d hints to set the header, want 1:\n%s", n, logs.String())
	}
	url, logs, _ = startServe(t, house, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_CLIENT_IP_HEADER": "CF-Connecting-IP"})
	for range 12 {
		send(url, "a-stranger-guessing-a-token-of-some-length", "203.0.113.66")
	}
	if code := send(url, "a-stranger-guessing-a-token-of-some-length", "203.0.113.66"); code != 429 {
		t.Errorf("the stranger's 13th wrong token: %d, want 429", code)
	}
	if code := send(url, "another-wrong-token-from-a-friend-address", "198.51.100.1"); code != 401 {
		t.Errorf("a wrong token from another client behind the same tunnel: %d, want 401", code)
	}
	if code := send(url, e2eToken, "203.0.113.66"); code != 200 {
		t.Errorf("the right token from the stranger's very address: %d, want 200", code)
	}
	if !strings.Contains(logs.String(), "remote=203.0.113.66") {
		t.Errorf("the log does not name the client's own address:\n%s", logs.String())
	}
}

// With MAISON_SECRET and no MAISON_TOKEN, serve starts (its standard
// output a buffer) without a static token, and takes only signed tokens.
func TestServeWithSignedTokensOnly(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	url, _, _ := startServe(t, house, map[string]string{"MAISON_SECRET": e2eToken + e2eToken})
	if code, _, _ := postRPC(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`); code != 401 {
		t.Errorf("no token: %d, want 401", code)
	}
}
