package door

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// readScope is the scope a prompt needs: prompts read the house.
const readScope = "house.read"

// earlyScope refuses, before the body is read, a request whose Mcp-Method
// and Mcp-Name headers name a tool or prompt the token's scopes do not
// cover. The decision to go on is always made from the body (bodyScope),
// since initialize-era clients send no such headers and a header can lie.
// The MCP server, which parses the body itself, checks again.
func (d *Door) earlyScope(w http.ResponseWriter, r *http.Request, ti *auth.TokenInfo) *refusal {
	if d.cfg.ToolScope == nil {
		return nil
	}
	name := r.Header.Get("Mcp-Name")
	if need := d.needs(r.Header.Get("Mcp-Method"), name); need != "" && !slices.Contains(ti.Scopes, need) {
		return d.forbid(w, ti, need, name, nil)
	}
	return nil
}

// bodyScope refuses, with 403 and a step-up challenge, a request any of
// whose messages would use a tool or prompt the token's scopes do not
// cover.
func (d *Door) bodyScope(q *request, ti *auth.TokenInfo, w http.ResponseWriter) *refusal {
	if d.cfg.ToolScope == nil {
		return nil
	}
	for _, m := range q.body.msgs {
		if need := d.needs(m.Method, m.Name); need != "" && !slices.Contains(ti.Scopes, need) {
			return d.forbid(w, ti, need, m.Name, m.ID)
		}
	}
	return nil
}

// needs is the scope a method on a named tool or prompt needs, or "".
func (d *Door) needs(method, name string) string {
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

// forbid refuses with 403 insufficient_scope, naming every scope needed so
// the client can ask the person for them (step-up).
func (d *Door) forbid(w http.ResponseWriter, ti *auth.TokenInfo, need, name string, id []byte) *refusal {
	want := slices.Clone(ti.Scopes)
	if !slices.Contains(want, need) {
		want = append(want, need)
	}
	c := `Bearer error="insufficient_scope", scope="` + strings.Join(want, " ") + `"`
	if d.cfg.ResourceMetadataURL != "" {
		c += `, resource_metadata="` + d.cfg.ResourceMetadataURL + `"`
	}
	w.Header().Set("WWW-Authenticate", c)
	return &refusal{status: http.StatusForbidden, code: codeForbidden, id: id, reason: "insufficient scope: needs " + need + " for " + clip(name),
		msg: "This connection may not use " + clip(name) + ": it needs the " + need + " permission, which was not granted. The person can reconnect the app and tick it on maison's page."}
}

func readerOf(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

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
