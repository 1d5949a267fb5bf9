package tools

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/accesslog"
	"maison/voice"
)

// The scopes a caller may hold. A call over stdio, or through --no-auth on
// loopback, carries no token and may use everything.
const (
	ScopeRead    = "house.read"    // cameras, states, descriptions: every read-only tool, and the prompt
	ScopeControl = "house.control" // actions: every tool that can change something
)

// ScopeOf is the scope a tool needs: house.read for a read-only tool,
// house.control for any other, present or future.
func ScopeOf(t *mcp.Tool) string {
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		return ScopeRead
	}
	return ScopeControl
}

// Scopes lists the scope each tool of srv needs, by name, for the HTTP door
// to refuse early what the token does not allow.
func Scopes(ctx context.Context, srv *mcp.Server) (map[string]string, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "maison-scopes", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	out := map[string]string{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out[t.Name] = ScopeOf(t)
	}
	return out, nil
}

// granted returns the scopes of the caller's token, and whether a token
// limits it at all.
func granted(req mcp.Request) ([]string, bool) {
	if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
		return ex.TokenInfo.Scopes, true
	}
	return nil, false
}

// clientOf names who is calling, for the audit log: the client id and name
// from the token, or the local process.
func clientOf(req mcp.Request) (id, name string) {
	if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
		id, _ = ex.TokenInfo.Extra["client_id"].(string)
		name, _ = ex.TokenInfo.Extra["client_name"].(string)
		if id == "" {
			id = "token"
		}
		return id, name
	}
	return "local", ""
}

// toolScopes remembers which scope each tool needs. The tools are fixed
// once New returns; a server from NewAwaiting gains the house's actions
// later, and each addition makes the map be listed again.
type toolScopes struct {
	mu    sync.Mutex
	scope map[string]string // nil until listed, and after tools are added
}

// forget makes the next call list the tools again.
func (t *toolScopes) forget() {
	t.mu.Lock()
	t.scope = nil
	t.mu.Unlock()
}

// guard is the receiving middleware every request passes: it narrows
// tools/list to the tools the token allows, refuses a call to any other as
// if the tool did not exist, writes the audit line of every tool call, and
// keeps every result within the result budget.
func (s *server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		scopes, limited := granted(req)
		switch method {
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && limited {
				lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return !slices.Contains(scopes, ScopeOf(t)) })
			}
			return res, err
		case "prompts/get":
			var name string
			if gr, ok := req.(*mcp.GetPromptRequest); ok && gr.Params != nil {
				name = gr.Params.Name
			}
			if limited && !slices.Contains(scopes, ScopeRead) {
				return nil, s.unknown("prompt", name)
			}
			res, err := next(ctx, method, req)
			return res, s.unknownIf(err, "prompt", name)
		case "resources/read":
			var uri string
			if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil {
				uri = rr.Params.URI
			}
			res, err := next(ctx, method, req)
			var e *jsonrpc.Error
			if errors.As(err, &e) && e.Message == "Resource not found" {
				err = s.unknown("resource", uri)
			}
			return res, err
		case "prompts/list":
			if limited && !slices.Contains(scopes, ScopeRead) {
				res, err := next(ctx, method, req)
				if pr, ok := res.(*mcp.ListPromptsResult); ok && err == nil {
					pr.Prompts = []*mcp.Prompt{}
				}
				return res, err
			}
		case "tools/call":
			cr, ok := req.(*mcp.CallToolRequest)
			if !ok || cr.Params == nil {
				break
			}
			// One of the house's actions, not offered yet, is answered in
			// words to whoever will be allowed it once it is.
			if res := s.notYetOffered(cr.Params.Name, func(scope string) bool { return !limited || slices.Contains(scopes, scope) }); res != nil {
				s.audit(ctx, req, cr, res, nil, 0)
				return res, nil
			}
			if limited {
				// A tool the list does not hold is refused as unknown, as
				// the server would: failing to list refuses too.
				if need, known := s.scopeOf(ctx, cr, next); !known || !slices.Contains(scopes, need) {
					id, _ := clientOf(req)
					s.log.Info("tool call refused: not in the token's scopes", "client", id, "tool", cr.Params.Name, "needs", need)
					return nil, s.unknown("tool", cr.Params.Name)
				}
			}
			start := time.Now()
			callCtx, cancel := context.WithTimeout(ctx, s.deps.CallBudget)
			res, err := next(callCtx, method, req)
			cancel()
			err = s.unknownIf(s.confirmFault(err), "tool", cr.Params.Name)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
				s.fitBudget(ctx, r)
			}
			s.audit(ctx, req, cr, res, err, time.Since(start))
			return res, err
		}
		return next(ctx, method, req)
	}
}

// unknown refuses a call of a tool, prompt or resource ("tool", "prompt",
// "resource") this caller is not offered, in words, repeating its name
// only as far as a person sees it.
func (s *server) unknown(what, name string) error {
	n := voice.Visible(name, 64)
	en, fr, list := "Unknown tool “"+n+"”: maison offers no tool", "Outil inconnu « "+n+" » : maison n'offre aucun outil", "tools/list"
	switch what {
	case "prompt":
		en, fr, list = "Unknown prompt “"+n+"”: maison offers no prompt", "Invite inconnue « "+n+" » : maison n'offre aucune invite (prompt)", "prompts/list"
	case "resource":
		en, fr, list = "Unknown resource “"+n+"”: maison offers no resource", "Ressource inconnue « "+n+" » : maison n'offre aucune ressource", "resources/list"
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: s.deps.Lang.Pick(
		en+" by that name to this connection, so nothing was done. Call "+list+" for the names it offers and send one exactly as listed.",
		fr+" de ce nom à cette connexion, alors rien n'a été fait. Appelez "+list+" pour les noms offerts et envoyez-en un tel quel.")}
}

// unknownIf puts the SDK's own refusal of an unknown tool or prompt in
// maison's words; any other err is returned as is.
func (s *server) unknownIf(err error, what, name string) error {
	var e *jsonrpc.Error
	if errors.As(err, &e) && e.Code == jsonrpc.CodeInvalidParams && strings.HasPrefix(e.Message, "unknown "+what+" ") {
		return s.unknown(what, name)
	}
	return err
}

// scopeOf finds the scope a called tool needs, listing the tools once
// (again after tools are added).
func (s *server) scopeOf(ctx context.Context, cr *mcp.CallToolRequest, next mcp.MethodHandler) (string, bool) {
	s.scopes.mu.Lock()
	defer s.scopes.mu.Unlock()
	if s.scopes.scope == nil {
		m := map[string]string{}
		params := &mcp.ListToolsParams{}
		for {
			res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: cr.Session, Params: params})
			lr, ok := res.(*mcp.ListToolsResult)
			if err != nil || !ok {
				return "", false // listed again at the next call
			}
			for _, t := range lr.Tools {
				m[t.Name] = ScopeOf(t)
			}
			if lr.NextCursor == "" {
				break
			}
			params = &mcp.ListToolsParams{Cursor: lr.NextCursor}
		}
		s.scopes.scope = m
	}
	need, ok := s.scopes.scope[cr.Params.Name]
	return need, ok
}

// audit accounts for every tool call: which client read which camera or
// ran which action, and how it ended. Over HTTP it joins the one line the
// door writes for the request; elsewhere (stdio) it is a line of its own.
func (s *server) audit(ctx context.Context, req mcp.Request, cr *mcp.CallToolRequest, res mcp.Result, err error, took time.Duration) {
	attrs := accesslog.Args(cr.Params.Arguments)
	outcome := "ok"
	switch r, _ := res.(*mcp.CallToolResult); {
	case err != nil:
		outcome = "protocol error"
	case r != nil && r.IsError:
		outcome = "refused or failed"
	case r != nil && len(r.InputRequests) > 0:
		outcome = "asked the person"
	}
	if e := accesslog.FromContext(ctx); e != nil {
		e.Tool(cr.Params.Name, outcome, attrs...)
		return
	}
	id, name := clientOf(req)
	head := []any{"client", id}
	if name != "" {
		head = append(head, "client_name", accesslog.Text(name))
	}
	head = append(head, "tool", cr.Params.Name)
	attrs = append(head, append(attrs, "outcome", outcome, "took", took.Round(time.Millisecond))...)
	s.log.Info("tool call", attrs...)
}
