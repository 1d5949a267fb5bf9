package demo

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Facts of Home Assistant's MCP server (mcp_server/http.py, server.py).
const (
	mcpServerName = "home-assistant"
	// mcpServerVersion is the server's version as the Python mcp package
	// 2.x reports it: Home Assistant gives its Server none.
	mcpServerVersion  = ""
	mcpLatestProtocol = "2025-11-25"
	contextSnapshot   = "homeassistant://assist/context-snapshot"
)

// knownProtocols are the protocol versions the bundled Python SDK echoes.
var knownProtocols = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// JSON-RPC error codes.
const (
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
)

// serveMCPAssist is POST /api/mcp/assist: any authenticated user.
func (h *House) serveMCPAssist(w http.ResponseWriter, r *http.Request) { h.serveMCP(w, r, false) }

// serveMCPFull is POST /api/mcp: admin only here (require_admin on).
func (h *House) serveMCPFull(w http.ResponseWriter, r *http.Request) { h.serveMCP(w, r, true) }

// mcpNotLoaded answers 404 while the integration is not loaded, as aiohttp
// does for a route that is not registered yet.
func (h *House) mcpNotLoaded(w http.ResponseWriter) bool {
	if h.mcpLoaded() {
		return false
	}
	httpStatus(w, http.StatusNotFound)
	return true
}

// serveMCPNamed is POST /api/mcp/{api_id} for ids other than "assist": admin
// only, and the house has no other LLM API.
func (h *House) serveMCPNamed(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpStatus(w, http.StatusMethodNotAllowed)
		return
	}
	u := h.requestUser(r)
	if u == nil {
		h.unauthorized(w)
		return
	}
	if !u.isAdmin.Load() {
		httpStatus(w, http.StatusForbidden)
		return
	}
	httpText(w, http.StatusNotFound, "Unknown LLM API '"+r.PathValue("api_id")+"'")
}

// rpcMessage is one incoming JSON-RPC message.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// serveMCP applies Home Assistant's streamable-HTTP rules, in its order,
// then answers one JSON-RPC request statelessly.
func (h *House) serveMCP(w http.ResponseWriter, r *http.Request, adminOnly bool) {
	if h.mcpNotLoaded(w) {
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpStatus(w, http.StatusMethodNotAllowed)
		return
	}
	u := h.requestUser(r)
	if u == nil {
		h.unauthorized(w)
		return
	}
	if adminOnly && !u.isAdmin.Load() {
		// The user is known but may not use it: aiohttp's HTTPForbidden.
		httpStatus(w, http.StatusForbidden)
		return
	}
	if !strings.Contains(strings.Join(r.Header.Values("Accept"), ","), "application/json") {
		httpText(w, http.StatusBadRequest, "Client must accept application/json")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		httpText(w, http.StatusBadRequest, "Content-Type must be application/json")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		httpText(w, http.StatusBadRequest, "Request must be a JSON-RPC message")
		return
	}
	msg, kind := parseRPC(body)
	switch kind {
	case rpcInvalid:
		httpText(w, http.StatusBadRequest, "Request must be a JSON-RPC message")
		return
	case rpcNotification, rpcResponseKind:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	resp := rpcResponse{JSONRPC: "2.0", ID: msg.ID}
	result, rerr := h.mcpCall(u, "http://"+r.Host, *msg.Method, msg.Params)
	if d := h.currentAssistStall(); d > 0 && *msg.Method == "tools/call" {
		// The call ran; Home Assistant's own limit cuts the answer.
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
		serverError(w)
		return
	}
	if rerr != nil {
		resp.Error = rerr
	} else {
		resp.Result = result
	}
	b, err := marshal(resp)
	if err != nil {
		h.log.Error("encoding an MCP response", "err", err)
		httpStatus(w, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

type rpcKind int

const (
	rpcInvalid rpcKind = iota
	rpcRequest
	rpcNotification
	rpcResponseKind
)

// parseRPC accepts exactly one JSON-RPC 2.0 message; batches are invalid.
func parseRPC(body []byte) (*rpcMessage, rpcKind) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, rpcInvalid
	}
	var m rpcMessage
	if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
		return nil, rpcInvalid
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	if hasID && !validID(m.ID) {
		return nil, rpcInvalid
	}
	switch {
	case m.Method != nil && hasID:
		return &m, rpcRequest
	case m.Method != nil:
		return &m, rpcNotification
	case hasID && (len(m.Result) > 0 || len(m.Error) > 0):
		return &m, rpcResponseKind
	}
	return nil, rpcInvalid
}

// validID accepts JSON-RPC ids that are strings or integers.
func validID(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return true
	}
	var n int64
	return json.Unmarshal(raw, &n) == nil
}

// mcpCall answers one request as HA's stateless server does: initialize is
// optional and any method may come first. origin is the address the client
// used, which the server's icon is served from.
func (h *House) mcpCall(u *user, origin, method string, params json.RawMessage) (any, *rpcError) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(params, &p)
		v := mcpLatestProtocol
		if slices.Contains(knownProtocols, p.ProtocolVersion) {
			v = p.ProtocolVersion
		}
		return map[string]any{
			"protocolVersion": v,
			"capabilities": map[string]any{
				"prompts":   map[string]any{"listChanged": false},
				"resources": map[string]any{"subscribe": false, "listChanged": false},
				"tools":     map[string]any{"listChanged": false},
			},
			"serverInfo": map[string]any{
				"name": mcpServerName, "version": mcpServerVersion,
				"icons": []any{map[string]any{"src": origin + "/static/icons/favicon-192x192.png", "mimeType": "image/png", "sizes": []any{"192x192"}}},
			},
		}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		h.mu.Lock()
		naming := h.naming
		h.mu.Unlock()
		tools := []any{}
		for _, t := range assistTools() {
			tools = append(tools, map[string]any{
				"name": t.advertised(naming), "title": t.title, "description": t.description,
				"inputSchema": t.schema, "annotations": t.hints.json(),
			})
		}
		return map[string]any{"tools": tools}, nil
	case "tools/call":
		var p struct {
			Name      *string        `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.Unmarshal(params, &p); err != nil || p.Name == nil {
			return nil, &rpcError{Code: rpcInvalidParams, Message: "Invalid request parameters"}
		}
		text, isErr := h.callTool(u, *p.Name, p.Arguments)
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isErr}, nil
	case "prompts/list":
		return map[string]any{"prompts": []any{map[string]any{"name": "Assist", "description": assistPromptDescription}}}, nil
	case "prompts/get":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		if p.Name != "Assist" {
			return nil, &rpcError{Code: rpcInvalidParams, Message: "Unknown prompt: " + p.Name}
		}
		return map[string]any{
			"description": assistPromptDescription,
			"messages":    []any{map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": assistPrompt}}},
		}, nil
	case "resources/list":
		return map[string]any{"resources": []any{map[string]any{
			"uri": contextSnapshot, "name": "assist_context_snapshot", "title": "Assist context snapshot", "mimeType": "text/plain",
			"description": "A snapshot of the current Assist context, matching the existing homeassistant__GetLiveContext tool output.",
		}}}, nil
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(params, &p)
		if p.URI != contextSnapshot {
			return nil, &rpcError{Code: rpcInvalidParams, Message: "Unknown resource: " + p.URI}
		}
		text, _ := h.liveContextText("", nil, "")
		return map[string]any{"contents": []any{map[string]any{"uri": contextSnapshot, "mimeType": "text/plain", "text": text}}}, nil
	}
	// Home Assistant turns away a method the MCP package does not know
	// before its server runs, naming the method in the error's data.
	return nil, &rpcError{Code: rpcMethodNotFound, Message: "Method not found", Data: method}
}

// assistPromptDescription is how Home Assistant describes the Assist API's
// prompt (mcp_server/server.py).
const assistPromptDescription = "Default prompt for Home Assistant Assist API"

// assistPrompt is the Assist API's instructions as the server hands them out.
const assistPrompt = "You control a Home Assistant home through the Assist API. " +
	"Name devices by their name or area, never by id, and only act on what was asked. " +
	"HassTurnOn locks a lock and opens a cover; HassTurnOff unlocks and closes. " +
	"Call GetLiveContext to learn the current state before answering questions about the home."
