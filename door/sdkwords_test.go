package door

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP SDK's own refusals reach an HTTP client as maison's sentences,
// with the SDK's JSON-RPC code kept: no Go type, no bare "invalid params",
// no method name with invisible letters.
func TestSDKRefusalsInWords(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	for _, name := range []string{"a", "b"} {
		mcp.AddTool(srv, &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	srv.AddResource(&mcp.Resource{URI: "maison://x", Name: "x"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	d, err := New(Config{Token: "right"}, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, params string
		code                 int
		says                 string
		version              string // Mcp-Protocol-Version, when not 2025-11-25
	}{
		{"cursor a number", "tools/list", `{"cursor":5}`, codeInvalidParams, "tools/list", ""},
		{"cursor not maison's", "tools/list", `{"cursor":"zzz"}`, codeInvalidParams, "cursor", ""},
		{"level a number", "logging/setLevel", `{"level":3}`, codeInvalidParams, "logging/setLevel", ""},
		{"uri a number", "resources/subscribe", `{"uri":5}`, codeInvalidParams, "resources/subscribe", ""},
		{"_meta a number", "tools/call", `{"name":"a","arguments":{},"_meta":5}`, codeInvalidParams, "tools/call", ""},
		{"completion with a ref", "completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}}`, codeMethodNotFound, "completion/complete", ""},
		{"unknown method", "x/\u202enope", `{}`, codeMethodNotFound, "x/nope", ""},
		{"unknown method, 2026", "x/\u202enope", `{}`, codeMethodNotFound, "x/nope", "2026-07-28"},
	} {
		body := `{"jsonrpc":"2.0","id":7,"method":"` + c.method + `","params":` + c.params + `}`
		version := c.version
		if version == "" {
			version = "2025-11-25"
		}
		rec := post(d, "192.0.2.1:1", "right", body, "Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", version)
		code, msg, id := rpcError(t, c.name, rec)
		if n := rec.Header().Get("Content-Length"); n != "" && n != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("%s: Content-Length %s for a body of %d bytes", c.name, n, rec.Body.Len())
		}
		t.Logf("%s: %d %s", c.name, code, msg)
		if code != c.code || string(id) != "7" {
			t.Errorf("%s (%s): code %d id %s, want %d 7 (%q)", c.name, version, code, id, c.code, msg)
		}
		for _, bad := range []string{"*mcp.", "unmarshal", "handling '", "JSON RPC", "json:", "\u202e"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s (%s): the answer repeats the SDK's %q: %q", c.name, version, bad, msg)
			}
		}
		if msg == "invalid params" || !strings.Contains(msg, c.says) || !strings.Contains(msg, "othing was done") || !strings.HasSuffix(msg, ".") {
			t.Errorf("%s (%s): %q does not say %q, that nothing was done, in sentences", c.name, version, msg, c.says)
		}
	}
	// A call the SDK answers passes through as it was written.
	rec := post(d, "192.0.2.1:1", "right", listBody, "Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", "2025-11-25")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"result"`) || !strings.Contains(rec.Body.String(), `"nextCursor"`) {
		t.Errorf("tools/list: %d %s", rec.Code, rec.Body.String())
	}
}
