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
	"maison/internal/scope"
	"maison/panel"
	"maison/voice"
	"maison/words"
)

// ScopeOf is the scope a tool needs, from its annotations (scope.Tool):
// house.read for a read-only tool, house.control for any other.
func ScopeOf(t *mcp.Tool) string {
	return scope.Tool(t.Annotations != nil && t.Annotations.ReadOnlyHint)
}

// Scopes lists the scope each tool of srv needs, by name, for the HTTP door
// to refuse early what the token does not allow. It asks as a client that
// renders MCP Apps, which is offered every tool.
func Scopes(ctx context.Context, srv *mcp.Server) (map[string]string, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(panel.Extension, map[string]any{"mimeTypes": []string{panel.MIMEType}})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "maison-scopes", Version: "1"}, &mcp.ClientOptions{Capabilities: caps}).Connect(ctx, ct, nil)
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

// toolScopes remembers which scope each tool registered needs (ScopeOf),
// as it is registered: a server from NewAwaiting gains the house's actions
// later.
type toolScopes struct {
	mu    sync.Mutex
	scope map[string]string
}

// add notes the scope t needs; it is called before t is registered.
func (t *toolScopes) add(tool *mcp.Tool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.scope == nil {
		t.scope = map[string]string{}
	}
	t.scope[tool.Name] = ScopeOf(tool)
}

// of is the scope the tool named needs, and whether it is registered.
func (t *toolScopes) of(name string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	need, ok := t.scope[name]
	return need, ok
}

// guard is the receiving middleware every request passes: it narrows
// tools/list to the tools the token allows, refuses a call to any other as
// if the tool did not exist, offers resources (the camera panel) only to a
// token with scope.Resource, from the capabilities of its initialize
// answer on, writes the audit line of every tool call, and
// keeps every result within the result budget.
func (s *server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		scopes, limited := granted(req)
		allows := func(need string) bool { return !limited || slices.Contains(scopes, need) }
		switch method {
		case "initialize", "server/discover":
			res, err := next(ctx, method, req)
			if !allows(scope.Resource) {
				withoutResources(res)
			}
			return res, err
		case "resources/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListResourcesResult); ok && err == nil && !allows(scope.Resource) {
				lr.Resources = []*mcp.Resource{}
			}
			return res, err
		case "resources/templates/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListResourceTemplatesResult); ok && err == nil && !allows(scope.Resource) {
				lr.ResourceTemplates = []*mcp.ResourceTemplate{}
			}
			return res, err
		case "tools/list":
			s.followFolds(s.srv)
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && limited {
				lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool {
					need, known := s.scopes.of(t.Name)
					return !known || !slices.Contains(scopes, need)
				})
			}
			return res, err
		case "prompts/get":
			var name string
			if gr, ok := req.(*mcp.GetPromptRequest); ok && gr.Params != nil {
				name = gr.Params.Name
			}
			if !allows(scope.Prompt) {
				return nil, s.unknown("prompt", name)
			}
			res, err := next(ctx, method, req)
			return res, s.unknownIf(err, "prompt", name)
		case "resources/read":
			var uri string
			if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil {
				uri = rr.Params.URI
			}
			if !allows(scope.Resource) {
				return nil, s.unknown("resource", uri)
			}
			res, err := next(ctx, method, req)
			var e *jsonrpc.Error
			if errors.As(err, &e) && e.Message == "Resource not found" {
				err = s.unknown("resource", uri)
			}
			return res, err
		case "prompts/list":
			if !allows(scope.Prompt) {
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
			if res := s.notYetOffered(cr.Params.Name, allows); res != nil {
				s.audit(ctx, req, cr, res, nil, 0, "")
				return res, nil
			}
			if limited {
				// A tool not registered is refused as unknown, as the
				// server would.
				if need, known := s.scopes.of(cr.Params.Name); !known || !slices.Contains(scopes, need) {
					id, _ := clientOf(req)
					s.log.Info("tool call refused: not in the token's scopes", "client", id, "tool", cr.Params.Name, "needs", need)
					return nil, s.unknown("tool", cr.Params.Name)
				}
			}
			start := time.Now()
			step := &stepNote{}
			callCtx, cancel := context.WithTimeout(context.WithValue(ctx, stepKey{}, step), s.deps.CallBudget)
			res, err := next(callCtx, method, req)
			cancel()
			err = s.unknownIf(s.confirmFault(err), "tool", cr.Params.Name)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
				s.fitBudget(ctx, r)
			}
			s.audit(ctx, req, cr, res, err, time.Since(start), step.get())
			return res, err
		}
		return next(ctx, method, req)
	}
}

// withoutResources takes from an initialize or discover answer what
// offers resources: the resources capability and the MCP Apps extension,
// whose views are resources.
func withoutResources(res mcp.Result) {
	caps := capabilities(res)
	if caps == nil {
		return
	}
	caps.Resources = nil
	delete(caps.Extensions, panel.Extension)
	if len(caps.Extensions) == 0 {
		caps.Extensions = nil
	}
}

// unknown refuses a call of a tool, prompt or resource ("tool", "prompt",
// "resource") this caller is not offered, in words, repeating its name
// only as far as a person sees it.
func (s *server) unknown(what, name string) error {
	n := voice.Visible(name, 64)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: words.UnknownOffer(s.deps.Lang, what, n)}
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

// audit accounts for every tool call: which client read which camera or
// ran which action, and how it ended; for a sensitive action, what step it
// came to (step: proposal, approved, declined, expired, checked, refused).
// Over HTTP it joins the one line the door writes for the request;
// elsewhere (stdio) it is a line of its own.
func (s *server) audit(ctx context.Context, req mcp.Request, cr *mcp.CallToolRequest, res mcp.Result, err error, took time.Duration, step string) {
	attrs := accesslog.Args(cr.Params.Arguments)
	if step != "" {
		attrs = append(attrs, "sensitive", step)
	}
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
