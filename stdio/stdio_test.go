package stdio

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/internal/testkit"
	"maison/voice"
)

type slowIn struct {
	Wait int `json:"wait" jsonschema:"milliseconds to wait"`
}

func server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "waits"}, func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Duration(in.Wait) * time.Millisecond):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// A malformed line gets a parse error and the session goes on; at the end
// of input, every call already read is answered before the session ends.
func TestMalformedLinesAndEndOfInput(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"wait":300}}}`,
		`this is not json`,
		`{"jsonrpc":"1.0","id":3,"method":"tools/list"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\"}}",
		`[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]`,
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
		`{"jsonrpc":"2.0","id":6,"method":"no/such/method","params":{}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"slow","arguments":{"wait":500}}}`,
	}, "\n") // no newline after the last line, and then end of input
	out := runToEnd(t, in)
	answers := map[string]map[string]any{}
	nulls := 0
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout carries something other than JSON-RPC: %q", l)
		}
		id, _ := json.Marshal(m["id"])
		if string(id) == "null" {
			nulls++
			continue
		}
		answers[string(id)] = m
	}
	for _, id := range []string{"1", "2", "7", "8"} {
		if a, ok := answers[id]; !ok || a["result"] == nil {
			t.Errorf("call %s: no result: %v", id, a)
		}
	}
	for _, id := range []string{"3", "6"} {
		if a, ok := answers[id]; !ok || a["error"] == nil {
			t.Errorf("call %s: no error answer: %v", id, a)
		}
	}
	if nulls != 4 { // not JSON, invalid UTF-8, a batch, too deep
		t.Errorf("%d errors without an id, want 4:\n%s", nulls, out.String())
	}
}

// An id the SDK would answer under another number (a fraction, an
// exponent, or past the integers a float64 holds exactly) is refused: the client could not match
// the answer to its call. A call sent twice under one id while the first is
// still running is refused in words, not dropped without an answer.
func TestIDsAnsweredAsSent(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1e2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","arguments":{"wait":3000}}}`, // still running when its twin is read, on any machine
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","arguments":{"wait":10}}}`,
	}, "\n")
	out := runToEnd(t, in)
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout carries something other than JSON-RPC: %q", l)
		}
		ids = append(ids, string(m["id"]))
		if string(m["id"]) == "null" && m["error"] == nil {
			t.Errorf("an answer without id that is no error: %s", l)
		}
	}
	count := map[string]int{}
	for _, id := range ids {
		count[id]++
	}
	if count["null"] != 4 || count[`"a"`] != 1 {
		t.Errorf("answers by id %v, want four refusals (null), \"a\" once:\n%s", count, out.String())
	}
	for _, id := range ids {
		if id != "null" && id != "1" && id != `"a"` {
			t.Errorf("an answer under an id no call had: %s", id)
		}
	}
}

// runToEnd runs a session of the test server on in and returns what it
// wrote, failing t if the session does not end at the end of input.
func runToEnd(t *testing.T, in string) *testkit.Buffer {
	t.Helper()
	return runToEndIn(t, voice.English, in)
}

// runToEndIn is runToEnd with maison's refusals in lang.
func runToEndIn(t *testing.T, lang voice.Lang, in string) *testkit.Buffer {
	t.Helper()
	var out testkit.Buffer
	done := make(chan error, 1)
	go func() {
		done <- server().Run(t.Context(), &Transport{In: strings.NewReader(in), Out: &out, Lang: lang})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the session did not end at the end of input")
	}
	return &out
}

// A call before initialize is refused as an invalid request (-32600) in
// maison's words, not with the SDK's own text and code 0; once initialized,
// the same call is answered.
func TestCallBeforeInitializeIsAnInvalidRequestInWords(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"wait":1}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	}, "\n")
	out := runToEnd(t, in)
	type answer struct {
		ID     json.RawMessage
		Result any
		Error  *struct {
			Code    int
			Message string
		}
	}
	answers := map[string]answer{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a answer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("stdout carries something other than JSON-RPC: %q", l)
		}
		answers[string(a.ID)] = a
	}
	for _, id := range []string{"1", "2"} {
		a := answers[id]
		if a.Error == nil || a.Error.Code != -32600 {
			t.Errorf("call %s before initialize: %+v, want the error -32600:\n%s", id, a, out.String())
			continue
		}
		for _, w := range []string{"initialize", "Nothing was done"} {
			if !strings.Contains(a.Error.Message, w) {
				t.Errorf("call %s before initialize: %q does not say %q", id, a.Error.Message, w)
			}
		}
	}
	if a := answers["4"]; a.Result == nil {
		t.Errorf("tools/list after initialize: %+v, want a result", a)
	}
}

// Params a method cannot take are refused in words with -32602, and no
// answer repeats a character a person cannot see from what was sent.
func TestParamsAndNamesAnsweredInWords(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1,2]}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":1,"arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":"nope\u3164\u202e/x"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"slow\u3164\u200b","arguments":{}}}`,
	}, "\n")
	answers := errorsOf(t, runToEnd(t, in))
	for _, id := range []string{"2", "3", "4"} {
		a := answers[id]
		if a.Code != -32602 || !strings.Contains(a.Message, "Nothing was done") || strings.Contains(a.Message, "unmarshal") || strings.Contains(a.Message, "missing required") {
			t.Errorf("call %s: %d %q, want -32602 in words", id, a.Code, a.Message)
		}
	}
	for _, id := range []string{"5", "6"} {
		a, ok := answers[id]
		if !ok || strings.ContainsFunc(a.Message, voice.Invisible) {
			t.Errorf("call %s: %+q, want an error without invisible characters", id, a.Message)
		}
	}
}

// The SDK's own refusals reach a stdio client as maison's sentences, with
// the SDK's JSON-RPC code kept: no Go type, no bare "invalid params", no
// method name with invisible letters.
func TestSDKRefusalsInWords(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, params string
		code                 int
		says                 string
	}{
		{"cursor a number", "tools/list", `{"cursor":5}`, -32602, "tools/list"},
		{"cursor not maison's", "tools/list", `{"cursor":"zzz"}`, -32602, "cursor"},
		{"level a number", "logging/setLevel", `{"level":3}`, -32602, "logging/setLevel"},
		{"uri a number", "resources/subscribe", `{"uri":5}`, -32602, "resources/subscribe"},
		{"_meta a number", "tools/call", `{"name":"slow","arguments":{},"_meta":5}`, -32602, "tools/call"},
		{"completion with a ref", "completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}}`, -32601, "completion/complete"},
		{"unknown method", "x/\u202enope", `{}`, -32601, "x/nope"},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for i, c := range cases {
		lines = append(lines, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+`,"method":"`+c.method+`","params":`+c.params+`}`)
	}
	answers := errorsOf(t, runToEnd(t, strings.Join(lines, "\n")))
	for i, c := range cases {
		a, ok := answers[strconv.Itoa(i+1)]
		if !ok || a.Code != c.code {
			t.Errorf("%s: %+v, want the error %d", c.name, a, c.code)
			continue
		}
		for _, bad := range []string{"*mcp.", "unmarshal", "handling '", "JSON RPC", "json:", "\u202e"} {
			if strings.Contains(a.Message, bad) {
				t.Errorf("%s: the answer repeats the SDK's %q: %q", c.name, bad, a.Message)
			}
		}
		if a.Message == "invalid params" || !strings.Contains(a.Message, c.says) || !strings.Contains(a.Message, "othing was done") || !strings.HasSuffix(a.Message, ".") {
			t.Errorf("%s: %q does not say %q, that nothing was done, in sentences", c.name, a.Message, c.says)
		}
	}
}

// rpcError is a JSON-RPC error answer's code and message.
type rpcError struct {
	Code    int
	Message string
}

// errorsOf reads the error answers on out, by id.
func errorsOf(t *testing.T, out *testkit.Buffer) map[string]rpcError {
	t.Helper()
	answers := map[string]rpcError{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a struct {
			ID    json.RawMessage
			Error *rpcError
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("stdout carries something other than JSON-RPC: %q", l)
		}
		if a.Error != nil {
			answers[string(a.ID)] = *a.Error
		}
	}
	return answers
}
