package door

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Requests Go's HTTP server cannot read as HTTP are answered before the
// door runs; the connections the door hands out put those answers into
// JSON-RPC in words, with Go's status, over a real socket.
func TestMalformedHTTPAnsweredInJSONRPC(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(okDoor(t, Config{Lang: "fr"}))
	limited := LimitConns(srv.Listener, 16)
	limited.Lang = "fr"
	srv.Listener = limited
	srv.Config.ConnState = limited.ConnState
	srv.Config.MaxHeaderBytes = 64 << 10
	srv.Start()
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	ask := func(raw string) (*http.Response, string) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(30 * time.Second))
		if _, err := io.WriteString(c, raw); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%.60q: %v", raw, err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	head := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer right\r\nContent-Type: application/json\r\n"
	for _, c := range []struct {
		name, raw string
		status    int
		words     string
	}{
		{"two different Content-Length", head + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "n'est pas du HTTP bien formé"},
		{"headers over 64 KB", head + "X-Big: " + strings.Repeat("a", 80<<10) + "\r\n\r\n", 431, "64 Ko"},
		{"no Host", "POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", 400, "Host"},
		{"a malformed request line", "POST  /mcp HTTP/1.1 x\r\nHost: 127.0.0.1\r\n\r\n", 400, "Rien n'a été fait"},
		{"an unknown transfer encoding", head + "Transfer-Encoding: gzip\r\n\r\n", 501, "encodage de transfert"},
		{"HTTP/3 over TCP", "POST /mcp HTTP/3.0\r\nHost: 127.0.0.1\r\n\r\n", 505, "HTTP/1.1"},
		// Go's server lets these through to the door, which words them alike.
		{"HTTP/2's opening line (h2c)", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, "HTTP/1.1"},
		{"an empty Host", "POST /mcp HTTP/1.1\r\nHost:\r\nAuthorization: Bearer right\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", 400, "Host"},
		{"HTTP/1.0 without Host", "POST /mcp HTTP/1.0\r\nAuthorization: Bearer right\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", 400, "Host"},
		{"a port past 65535", "POST /mcp HTTP/1.1\r\nHost: localhost:99999\r\nAuthorization: Bearer right\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", 400, "65535"},
		{"a port that is no number", "POST /mcp HTTP/1.1\r\nHost: localhost:x80\r\nAuthorization: Bearer right\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", 400, "65535"},
	} {
		resp, body := ask(c.raw)
		var r struct {
			ID    json.RawMessage
			Error struct {
				Code    int
				Message string
			}
		}
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &r) != nil ||
			r.Error.Code != codeInvalidRequest || string(r.ID) != "null" || !strings.Contains(r.Error.Message, c.words) || !strings.Contains(r.Error.Message, "Rien n'a été fait") ||
			strings.Contains(r.Error.Message, "DNS") {
			t.Errorf("%s: %d %q %s", c.name, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	// Answers the handlers give are passed on untouched, plain text too.
	if resp, body := ask("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", resp.StatusCode, body)
	}
	if resp, body := ask(head + "Content-Length: " + itoa(len(listBody)) + "\r\n\r\n" + listBody); resp.StatusCode != 200 || body != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("a right request: %d %q", resp.StatusCode, body)
	}
}

// Only Go's own early answers are rewritten: a write that merely looks
// like one, with a Date or a body of its own, is not.
func TestRewriteEarlyOnlyGoesOwn(t *testing.T) {
	t.Parallel()
	for _, w := range []string{
		"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nDate: Tue, 01 Dec 2026 19:00:00 GMT\r\n\r\n400 Bad Request",
		"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nsomething else",
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n200 OK",
	} {
		if rewriteEarly([]byte(w), "") != nil {
			t.Errorf("rewritten: %q", w)
		}
	}
	if rewriteEarly([]byte("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"), "") == nil {
		t.Error("Go's own 400 is not rewritten")
	}
}
