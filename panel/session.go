package panel

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/internal/scope"
)

// sessionPrefix starts the Mcp-Session-Id that Remember gives a client
// declaring the extension.
const sessionPrefix = "apps."

// Remember carries, over stateless HTTP, what a client of the initialize
// era declared once: its initialize request names the extension, but the
// requests after it (tools/list, tools/call) reach a fresh session that
// knows no capability. So the answer to such an initialize gives the
// client an Mcp-Session-Id that says it renders apps, which the transport
// (2025-11-25, "Session Management") obliges it to send with every later
// request; Declared reads it there. The id holds nothing secret and
// grants nothing: any client may declare the extension, and scopes,
// exposure and budgets apply as to any other. Nothing is kept, so any
// replica understands it, and none expires. Clients of the 2026-07-28
// revision declare their capabilities with every request and need no id.
//
// The initialize is found in the body, alone or in a batch, whatever the
// headers say. An initialize that does not declare the extension, sent
// with an id Remember gave before, is given a new id that says nothing,
// which the client must use from then on, and the old one is not passed
// on with it. A token without scope.Resource is given no apps id. A body
// longer than limit bytes is refused as the handler refuses one (413),
// unread.
func Remember(h http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A request of the 2026 revision names its method, never initialize.
		if m := r.Header.Get("Mcp-Method"); r.Method != http.MethodPost || r.Body == nil || (m != "" && m != "initialize") {
			h.ServeHTTP(w, r)
			return
		}
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
		if declares, ok := initialize(b); err == nil && ok {
			switch {
			case declares && mayRead(r):
				w.Header().Set("Mcp-Session-Id", sessionPrefix+random())
			case Declared(r.Header):
				w.Header().Set("Mcp-Session-Id", random())
				r.Header.Del("Mcp-Session-Id")
			}
		}
		h.ServeHTTP(w, r)
	})
}

// mayRead reports whether the request's token, if any, holds the scope
// every resource needs: a token without it is offered no panel.
func mayRead(r *http.Request) bool {
	ti := auth.TokenInfoFromContext(r.Context())
	return ti == nil || slices.Contains(ti.Scopes, scope.Resource)
}

// Declared reports whether the request's headers carry the session id
// Remember gave a client that declared the extension.
func Declared(h http.Header) bool {
	return h != nil && strings.HasPrefix(h.Get("Mcp-Session-Id"), sessionPrefix)
}

// initialize reports whether body holds an initialize request, alone or
// in a batch, and whether its capabilities declare the extension.
func initialize(body []byte) (declares, ok bool) {
	type message struct {
		Method string `json:"method"`
		Params struct {
			Capabilities *mcp.ClientCapabilities `json:"capabilities"`
		} `json:"params"`
	}
	var msgs []message
	if json.Unmarshal(body, &msgs) != nil {
		var m message
		if json.Unmarshal(body, &m) != nil {
			return false, false
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.Method == "initialize" {
			return Renders(m.Params.Capabilities), true
		}
	}
	return false, false
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// errReader gives back, after the body, the error reading it ended with,
// so the handler sees a body that failed as it failed.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}
