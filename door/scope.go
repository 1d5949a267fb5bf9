package door

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"maison/accesslog"
	"maison/internal/scope"
	"maison/voice"
	"maison/words"
)

// bodyScope answers, in place of the MCP server, a request any of whose
// messages would use a tool or prompt the token's scopes do not cover. The
// answer is HTTP 200, never 403 insufficient_scope: the clients that exist
// read that as "sign in again for more" and reopen the sign-in page, and
// the call never gets its answer. A tool call gets a tool result in words
// (isError) saying the grant allows looking but not acting and how to
// reconnect with it; a prompt a JSON-RPC error in the same words. The
// decision is made from the body alone, since a header can lie; the MCP
// server, which parses the body itself, checks again.
func (d *Door) bodyScope(q *request, ti *auth.TokenInfo, r *http.Request) *refusal {
	if d.cfg.ToolScope == nil {
		return nil
	}
	refused := -1
	for i, m := range q.body.msgs {
		if need := d.needs(m.Method, m.Name); need != "" && !slices.Contains(ti.Scopes, need) {
			refused = i
			break
		}
	}
	if refused < 0 {
		return nil
	}
	for _, o := range q.body.msgs {
		if need := d.needs(o.Method, o.Name); o.Method == "tools/call" && need != "" && !slices.Contains(ti.Scopes, need) {
			// The refused call is on the request's log line as any call is.
			q.entry.Tool(voice.Visible(o.Name, nameRunes), "refused: insufficient scope", accesslog.Args(o.args)...)
		}
	}
	m := q.body.msgs[refused]
	need := d.needs(m.Method, m.Name)
	ref := &refusal{status: http.StatusOK, reason: "insufficient scope: needs " + need + " for " + voice.Visible(m.Name, nameRunes)}
	modern := r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28"
	if !q.body.batch {
		if m.isCall() {
			ref.body = d.notGranted(m, ti, modern)
		} else {
			ref.status = http.StatusAccepted // a notification: nothing to answer
		}
		return ref
	}
	var out []json.RawMessage
	for _, o := range q.body.msgs {
		switch {
		case !o.isCall():
		case d.needs(o.Method, o.Name) != "" && !slices.Contains(ti.Scopes, d.needs(o.Method, o.Name)):
			out = append(out, d.notGranted(o, ti, modern))
		default:
			out = append(out, rpcErrorBody(o.ID, codeForbidden, words.DoorBatchNotRun(d.cfg.Lang), 0))
		}
	}
	if len(out) == 0 {
		ref.status = http.StatusAccepted
		return ref
	}
	ref.body, _ = json.Marshal(out)
	return ref
}

// notGranted is the answer to m, which needs a scope the token lacks: a
// tool result in words for a tool call, a JSON-RPC error for a prompt.
func (d *Door) notGranted(m message, ti *auth.TokenInfo, modern bool) json.RawMessage {
	need := d.needs(m.Method, m.Name)
	name := voice.Visible(m.Name, nameRunes)
	msg := words.DoorCannotAct(d.cfg.Lang, name, need, scope.Read)
	if need == scope.Read {
		msg = words.DoorCannotLook(d.cfg.Lang, name, scope.Read)
	}
	if m.Method != "tools/call" {
		return rpcErrorBody(m.ID, codeForbidden, msg, 0)
	}
	return inWords(m.ID, msg, modern)
}

// needs is the scope a method on a named tool or prompt needs, or "".
func (d *Door) needs(method, name string) string {
	switch method {
	case "tools/call":
		if s, ok := d.cfg.ToolScope(name); ok {
			return s
		}
	case "prompts/get":
		return scope.Prompt
	}
	return ""
}

func readerOf(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
