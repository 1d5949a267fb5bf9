//go:build unix

package main

import "testing"

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		status      int
		body, kind  string
		lostVerdict bool
	}{
		{200, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Three cameras."}]}}`, "ok", false},
		{200, `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"Home Assistant is slow. Try again."}]}}`, "tool error", false},
		{200, `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"camera failed: EOF"}]}}`, "tool error", true},
		{429, `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Too many requests. Try again in 2 seconds."}}`, "rpc error", false},
		{400, `Bad Request: malformed payload`, "http error", true},
		{200, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"unknown"}}]`, "rpc error", true},
	} {
		kind, words := judge(c.status, []byte(c.body))
		if kind != c.kind {
			t.Errorf("%s: %s, want %s", c.body, kind, c.kind)
		}
		if got := lost(outcome{kind: kind, words: words}); got != c.lostVerdict {
			t.Errorf("%s: lost %v, want %v", c.body, got, c.lostVerdict)
		}
	}
}

func TestLoopbackOnly(t *testing.T) {
	for u, ok := range map[string]bool{
		"http://127.0.0.1:8765/mcp": true, "http://[::1]:1/mcp": true,
		"http://10.0.0.1:8765/mcp": false, "http://example.com/mcp": false, "http://192.168.1.2/mcp": false,
	} {
		if err := loopbackOnly(u); (err == nil) != ok {
			t.Errorf("%s: %v", u, err)
		}
	}
}
