package tools

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/panel"
	"maison/words"
)

// What a client that renders MCP Apps (the extension io.modelcontextprotocol/ui)
// is offered besides what every client is: the camera panel's resource,
// camera_overview and camera_snapshot linked to it (_meta.ui.resourceUri),
// and camera_panel, which only the panel's view calls. A client that does
// not declare the extension sees none of it: the same capabilities, tools
// and answers as if maison knew nothing of apps.
//
// The declaration is read per request: from the request's own _meta in
// the 2026-07-28 revision, from the session's initialize over stdio, and
// over stateless HTTP in the initialize era from the session id that
// panel.Remember gave the client when it declared it.

// rendersApps reports whether the caller declared, for this request, that
// it renders MCP Apps.
func rendersApps(req mcp.Request) bool {
	if req == nil {
		return false
	}
	// An initialize declares anew: the session holds no capabilities
	// before it is answered, and an id given before says nothing of it.
	if r, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok {
		return r.Params != nil && panel.Renders(r.Params.Capabilities)
	}
	if ex := req.GetExtra(); ex != nil && panel.Declared(ex.Header) {
		return true
	}
	switch r := req.(type) {
	case interface {
		ClientCapabilities() *mcp.ClientCapabilities
	}:
		return panel.Renders(r.ClientCapabilities())
	}
	return false
}

// addViews registers the views the table's tools name, and notes which
// tools a client that renders apps sees otherwise.
func (s *server) addViews(srv *mcp.Server) {
	s.views = map[string]toolDef{}
	for _, d := range s.table() {
		if d.view != "" || d.appOnly {
			s.views[d.tool.Name] = d
		}
	}
	page := words.Panel(s.deps.Lang)
	srv.AddResource(&mcp.Resource{
		URI:         panel.URI,
		Name:        "camera_panel",
		Title:       page.Title,
		Description: page.Resource,
		MIMEType:    panel.MIMEType,
		Meta:        panelMeta(),
	}, s.readPanel)
}

// panelMeta is the panel's _meta.ui, on its listing and on its page (the
// MCP Apps specification, 2026-01-26, "UI Resource Format": a host reads
// UIResourceMeta from either, the page's first). Its csp declares one
// thing: data:, in resourceDomains, which the specification maps to the
// frame's img-src (with script-src, style-src, font-src and media-src),
// because every picture reaches the page as a data: URL from a tool
// call. Nothing else is declared, so the page reaches no origin on the
// network (connectDomains omitted: connect-src 'none'). The declaration is
// needed: the specification's own default for an undeclared policy allows
// data: images, but "Host MAY further restrict but MUST NOT allow
// undeclared domains" ("Host Behavior"), and hosts do (MCP Inspector
// gives an undeclared page img-src 'none').
func panelMeta() mcp.Meta {
	return mcp.Meta{"ui": map[string]any{
		"csp":           map[string]any{"resourceDomains": []string{"data:"}},
		"prefersBorder": false,
	}}
}

// readPanel answers resources/read of the panel: its one page, with its
// _meta.ui (panelMeta). Its pictures come through tool calls.
func (s *server) readPanel(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI:      panel.URI,
		MIMEType: panel.MIMEType,
		Text:     panel.HTML(),
		Meta:     panelMeta(),
	}}}, nil
}

// apps is the receiving middleware that shows the views to the clients
// that render them and hides them from every other.
func (s *server) apps(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		renders := rendersApps(req)
		switch method {
		case "initialize", "server/discover":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.DiscoverResult); ok && renders {
				r.CacheScope = "private" // not the answer every client gets
			}
			if caps := capabilities(res); caps != nil {
				if renders {
					caps.Resources = &mcp.ResourceCapabilities{}
					caps.AddExtension(panel.Extension, map[string]any{"mimeTypes": []string{panel.MIMEType}})
				} else {
					caps.Resources = nil
				}
			}
			return res, err
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				lr.Tools = s.viewed(lr.Tools, renders)
			}
			return res, err
		case "tools/call":
			if cr, ok := req.(*mcp.CallToolRequest); ok && cr.Params != nil && !renders && s.views[cr.Params.Name].appOnly {
				return nil, s.unknown("tool", cr.Params.Name)
			}
		case "resources/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListResourcesResult); ok && err == nil && !renders {
				lr.Resources = []*mcp.Resource{}
			}
			return res, err
		case "resources/read":
			if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil && !renders && rr.Params.URI == panel.URI {
				return nil, s.unknown("resource", rr.Params.URI)
			}
		}
		return next(ctx, method, req)
	}
}

// capabilities are the server capabilities an initialize or discover
// answer carries, or nil.
func capabilities(res mcp.Result) *mcp.ServerCapabilities {
	switch r := res.(type) {
	case *mcp.InitializeResult:
		return r.Capabilities
	case *mcp.DiscoverResult:
		return r.Capabilities
	}
	return nil
}

// viewed is the tool list as a client sees it: for one that renders apps,
// the tools with a view name it in _meta.ui.resourceUri; for any other,
// the app-only tools are left out. The listed tools are never written.
func (s *server) viewed(tools []*mcp.Tool, renders bool) []*mcp.Tool {
	if !renders {
		return slices.DeleteFunc(slices.Clone(tools), func(t *mcp.Tool) bool { return s.views[t.Name].appOnly })
	}
	out := slices.Clone(tools)
	for i, t := range out {
		d, ok := s.views[t.Name]
		if !ok || d.appOnly { // an app-only tool declares its own _meta.ui
			continue
		}
		linked := *t
		linked.Meta = mcp.Meta{"ui": map[string]any{"resourceUri": d.view}}
		out[i] = &linked
	}
	return out
}
