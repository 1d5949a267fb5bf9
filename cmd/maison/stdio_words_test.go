package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The person's answer to a confirmation question that is not an answer (a
// bare "yes" where an elicitation result belongs, or a result whose form
// holds a word where a yes or no belongs) is refused with a JSON-RPC code
// and words that say nothing was done, not code 0 and the SDK's text; the
// lock stays locked.
func TestStdioWrongTypedConfirmationAnswerIsRefusedInWords(t *testing.T) {
	t.Parallel()
	for i, answer := range []string{`"yes"`, `{"action":"accept","content":{"confirm":"yes"}}`, `{"action":7}`} {
		_, stdin, lines, stderr := stdioProcess(t, nil, "--demo")
		send := func(s string) { io.WriteString(stdin, s+"\n") }
		send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"e2e","version":"1"}}}`)
		await(t, lines, `"id":1`, stderr)
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"turn_off","arguments":{"name":"Front Door Lock"}}}`)
		ask := await(t, lines, `"method":"elicitation/create"`, stderr)
		var req struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(ask), &req); err != nil {
			t.Fatal(err)
		}
		send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + answer + `}`)
		var got struct {
			Result *struct{ IsError bool }
			Error  *struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal([]byte(await(t, lines, `"id":2,`, stderr)), &got); err != nil {
			t.Fatal(err)
		}
		switch {
		case got.Error != nil && got.Error.Code == 0:
			t.Errorf("answer %d (%s): JSON-RPC code 0: %q", i, answer, got.Error.Message)
		case got.Error != nil:
			if got.Error.Code != -32602 {
				t.Errorf("answer %d (%s): JSON-RPC code %d, want -32602 (invalid params: the client's answer)", i, answer, got.Error.Code)
			}
			for _, w := range []string{"answer to the confirmation question", "Nothing was done", "again"} {
				if !strings.Contains(got.Error.Message, w) {
					t.Errorf("answer %d (%s): %q does not say %q", i, answer, got.Error.Message, w)
				}
			}
			if strings.Contains(got.Error.Message, "multi-round-trip") || strings.Contains(got.Error.Message, "unmarshal") {
				t.Errorf("answer %d (%s): the SDK's own text: %q", i, answer, got.Error.Message)
			}
		case got.Result == nil || !got.Result.IsError:
			t.Errorf("answer %d (%s): the unlock went ahead on an answer that is not a yes", i, answer)
		}
		send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"describe_house","arguments":{"name":"Front Door Lock"}}}`)
		if st := await(t, lines, `"id":3,`, stderr); !strings.Contains(st, "locked") || strings.Contains(st, "unlocked") {
			t.Errorf("answer %d (%s): the front door lock is no longer locked: %.300s", i, answer, st)
		}
	}
}
