package door

import (
	"encoding/json"
	"net/http"
	"time"

	"maison/accesslog"
	"maison/voice"
	"maison/words"
)

// slowDown answers, in place of the MCP server, a client whose token was
// accepted and who is over its budget (Config.RateLimit), as the official
// SDKs survive: HTTP 200, a tool call with a tool result in words saying
// when to try again (the model reads it), any other call with a JSON-RPC
// error in the same words and the wait in its data (retryAfterSeconds),
// each under its own id; notifications in a refused request are accepted
// and dropped (alone, they open a session and pass: body.opening). An HTTP
// 429 would end the session of a client that raises on it (the Python
// SDK does); 429 stays for those without a right token (unauthorized).
func (d *Door) slowDown(q *request, r *http.Request, wait time.Duration) *refusal {
	wait = time.Duration(seconds(wait)) * time.Second // the words and the data say the same
	msg := words.DoorTooManyRequests(d.cfg.Lang, d.cfg.RateLimit, d.cfg.RatePeriod, wait)
	ref := &refusal{status: http.StatusOK, code: codeTooMany, reason: "too many requests from this client", retry: wait}
	modern := r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28"
	var out []json.RawMessage
	for _, m := range q.body.msgs {
		if m.Method == "tools/call" {
			q.entry.Tool(voice.Visible(m.Name, nameRunes), "refused: too many requests", accesslog.Args(m.args)...)
		}
		if !m.isCall() {
			continue
		}
		if m.Method == "tools/call" {
			out = append(out, inWords(m.ID, msg, modern))
		} else {
			out = append(out, rpcErrorBody(m.ID, codeTooMany, msg, wait))
		}
	}
	switch {
	case len(out) == 0:
		ref.status = http.StatusAccepted // notifications only: nothing to answer
	case q.body.batch:
		ref.body, _ = json.Marshal(out)
	default:
		ref.body = out[0]
	}
	return ref
}

// inWords is a tool result in words answering the call id: the model
// reads it, as it reads any tool's failure.
func inWords(id json.RawMessage, msg string, modern bool) json.RawMessage {
	result := map[string]any{"content": []map[string]string{{"type": "text", "text": msg}}, "isError": true}
	if modern {
		result["resultType"] = "complete"
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	return b
}
