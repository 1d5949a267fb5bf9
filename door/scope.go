package door

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// maxBody is the largest request body, as the MCP handler allows it.
const maxBody = 1 << 20

// bodyDeadline bounds how long a body may take to arrive once the token is
// accepted.
const bodyDeadline = 30 * time.Second

// readScope is the scope a prompt needs: prompts read the house.
const readScope = "house.read"

// scopesAllow refuses, with 403 and a step-up challenge, a request that
// would use a tool or prompt the token's scopes do not cover. Mcp-Method
// and Mcp-Name allow an early refusal before the body is read; the decision
// to go on is always made from the body, since initialize-era clients send
// no such headers and a header can lie. The MCP server, which parses the
// body itself, checks again.
func (d *door) scopesAllow(w http.ResponseWriter, r *http.Request, ti *auth.TokenInfo) bool {
	if d.cfg.ToolScope == nil {
		return true
	}
	if need := d.needs(r.Header.Get("Mcp-Method"), r.Header.Get("Mcp-Name")); need != "" && !slices.Contains(ti.Scopes, need) {
		refuseUnread(w)
		d.forbid(w, r, ti, need, r.Header.Get("Mcp-Name"), nil)
		return false
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyDeadline))
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body.Close()
	if err != nil {
		http.Error(w, "Bad Request: the body did not arrive in time", http.StatusRequestTimeout)
		return false
	}
	if len(body) > maxBody {
		http.Error(w, "Request Entity Too Large: the body is over 1 MiB", http.StatusRequestEntityTooLarge)
		return false
	}
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	for _, c := range calls(body) {
		if need := d.needs(c.Method, c.Params.Name); need != "" && !slices.Contains(ti.Scopes, need) {
			d.forbid(w, r, ti, need, c.Params.Name, c.ID)
			return false
		}
	}
	return true
}

// needs is the scope a method on a named tool or prompt needs, or "".
func (d *door) needs(method, name string) string {
	switch method {
	case "tools/call":
		if s, ok := d.cfg.ToolScope(name); ok {
			return s
		}
	case "prompts/get":
		return readScope
	}
	return ""
}

type call struct {
	ID     json.RawMessage
	Method string
	Params struct{ Name string }
}

// calls reads the JSON-RPC messages of a body, one or a batch. Keys are
// matched exactly, as the MCP handler matches them (encoding/json's struct
// decoding would also take "Name" for "name"). What does not parse is left
// to the MCP handler, which refuses it.
func calls(body []byte) []call {
	body = bytes.TrimSpace(body)
	var msgs []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return nil
		}
	} else {
		msgs = []json.RawMessage{body}
	}
	var out []call
	for _, m := range msgs {
		var fields map[string]json.RawMessage
		if json.Unmarshal(m, &fields) != nil {
			continue
		}
		var c call
		c.ID = fields["id"]
		json.Unmarshal(fields["method"], &c.Method)
		var params map[string]json.RawMessage
		if json.Unmarshal(fields["params"], &params) == nil {
			json.Unmarshal(params["name"], &c.Params.Name)
		}
		out = append(out, c)
	}
	return out
}

// forbid answers 403 insufficient_scope, naming every scope needed so the
// client can ask the person for them (step-up).
func (d *door) forbid(w http.ResponseWriter, r *http.Request, ti *auth.TokenInfo, need, name string, id json.RawMessage) {
	client, _ := ti.Extra["client_id"].(string)
	d.log.Info("request refused: insufficient scope", "client", client, "needs", need, "name", clip(name), "remote", r.RemoteAddr)
	want := slices.Clone(ti.Scopes)
	if !slices.Contains(want, need) {
		want = append(want, need)
	}
	c := `Bearer error="insufficient_scope", scope="` + strings.Join(want, " ") + `"`
	if d.cfg.ResourceMetadataURL != "" {
		c += `, resource_metadata="` + d.cfg.ResourceMetadataURL + `"`
	}
	w.Header().Set("WWW-Authenticate", c)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	msg := "This connection may not use " + clip(name) + ": it needs the " + need + " permission, which was not granted. The person can reconnect the app and tick it on maison's page."
	json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": -32003, "message": msg},
	})
}

// clip bounds a name from outside for logs and messages.
func clip(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return strings.ToValidUTF8(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s), "")
}
