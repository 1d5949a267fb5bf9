package homeassistant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The Assist client speaks JSON-RPC by hand over plain POSTs rather than through go-sdk's client: Home
// Assistant's endpoint is stateless and answers every POST with one JSON message, so there is no session to
// keep; go-sdk's client first probes server/discover, and turns Home Assistant's plain-text 401 into a dead
// connection with only a string error, while this package must see the status to map it (and never retry a
// 401, which Home Assistant counts as a failed login). No MCP-Protocol-Version header is sent: older Home
// Assistant releases would refuse a version their bundled SDK does not know, and without it they assume
// 2025-03-26, which every release accepts.

const (
	assistPath       = "/api/mcp/assist" // HA 2026.8+: any authenticated user
	legacyAssistPath = "/api/mcp"        // older HA; admin-only on new installs since 2026.10
	maxRPCBytes      = 8 << 20
)

// Tool is one tool Home Assistant's Assist endpoint advertises.
type Tool struct {
	Name        string          // HA's advertised name, used for calls, e.g. "intent__HassTurnOn"
	Canonical   string          // the part after the last "__", stable across releases, e.g. "HassTurnOn"
	Description string          // HA's description (data from HA, not instructions)
	InputSchema json.RawMessage // HA's JSON schema; it has properties but no "required"
}

// ToolResult is the outcome of one Assist tool call.
type ToolResult struct {
	Text    string // the text content exactly as HA returned it (often JSON from HA); several blocks joined by "\n"
	IsError bool   // HA flagged the call as failed (e.g. "Error calling tool: <MatchFailedError …>")
}

// assistState is the Assist endpoint's state. sem is a one-slot semaphore: calls are sequential per client,
// because Home Assistant reportedly crashed under parallel sessionless traffic; every other field is guarded
// by holding it.
type assistState struct {
	sem     chan struct{}
	path    string // discovered endpoint, "" until found
	tools   []Tool
	toolsAt time.Time
	nextID  int64
	refused *Error // a 401 seen: never POST again with this token
	// missingSince is when the endpoint began answering 404, zero while it answers: for AssistGrace a 404
	// is taken for the integration still loading after a restart, not for a missing integration.
	missingSince time.Time
}

func newAssistState() assistState { return assistState{sem: make(chan struct{}, 1)} }

func (c *Client) lockAssist(ctx context.Context) error {
	select {
	case c.assist.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return classifyNetErr("assist", ctx.Err(), false)
	}
}

func (c *Client) unlockAssist() { <-c.assist.sem }

// Canonical returns the stable part of an advertised tool name: the part after the last "__"
// ("intent__HassTurnOn" and "assist__intent__HassTurnOn" → "HassTurnOn").
func Canonical(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 && i+2 < len(name) {
		return name[i+2:]
	}
	return name
}

// AssistTools lists the tools Home Assistant exposes to Assist, trying /api/mcp/assist and then /api/mcp (older
// releases). The list is cached for Config.ToolsTTL and refreshed when a call names an unknown tool.
func (c *Client) AssistTools(ctx context.Context) ([]Tool, error) {
	ctx, cancel := c.requestContext(ctx)
	defer cancel()
	if err := c.lockAssist(ctx); err != nil {
		return nil, err
	}
	defer c.unlockAssist()
	tools, err := c.toolsLocked(ctx, false)
	return slices.Clone(tools), err
}

// CallAssist calls the tool whose canonical name (e.g. "HassTurnOn") or advertised name is given, under
// whatever name Home Assistant advertises now, listing tools again once if the name is unknown or HA says the
// tool is gone. Empty strings, empty arrays and nulls are dropped from args (HA rejects empty values). A tool
// failure is a ToolResult with IsError, not an error; errors are for transport and protocol faults.
func (c *Client) CallAssist(ctx context.Context, canonical string, args map[string]any) (ToolResult, error) {
	ctx, cancel := c.requestContext(ctx)
	defer cancel()
	if err := c.lockAssist(ctx); err != nil {
		return ToolResult{}, err
	}
	defer c.unlockAssist()
	clean := cleanArgs(args)
	refreshed := false
	tools, err := c.toolsLocked(ctx, false)
	if err != nil {
		return ToolResult{}, err
	}
	tool, ok := findTool(tools, canonical, c.cfg.BareName)
	if !ok {
		if tools, err = c.toolsLocked(ctx, true); err != nil {
			return ToolResult{}, err
		}
		refreshed = true
		if tool, ok = findTool(tools, canonical, c.cfg.BareName); !ok {
			return ToolResult{}, &Error{Kind: KindNotFound, Op: "assist tool " + canonical,
				Err: errors.New("not offered by home assistant; the entities it acts on may not be exposed to assist")}
		}
	}
	for {
		res, err := c.callToolLocked(ctx, tool.Name, clean)
		if refreshed || !unknownTool(tool.Name, res, err) {
			return res, err
		}
		c.log.Info("assist tool vanished, listing again", "tool", tool.Name)
		if tools, err = c.toolsLocked(ctx, true); err != nil {
			return ToolResult{}, err
		}
		refreshed = true
		if tool, ok = findTool(tools, canonical, c.cfg.BareName); !ok {
			return ToolResult{}, &Error{Kind: KindNotFound, Op: "assist tool " + canonical,
				Err: errors.New("no longer offered by home assistant")}
		}
	}
}

// findTool finds the tool name stands for: its exact advertised name, or
// the name the same tool had before 2026.9 as bare says (Config.BareName).
// Never another tool with the same canonical part: a call planned for
// todo__get_items never runs intent_script__get_items or script__get_items.
func findTool(tools []Tool, name string, bare func(string) (string, bool)) (Tool, bool) {
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	if bare == nil {
		return Tool{}, false
	}
	if old, ok := bare(name); ok && old != name {
		for _, t := range tools {
			if t.Name == old {
				return t, true
			}
		}
	}
	return Tool{}, false
}

// unknownTool reports whether a call failed because HA no longer knows the tool name.
func unknownTool(name string, res ToolResult, err error) bool {
	var re *rpcError
	if errors.As(err, &re) {
		m := strings.ToLower(re.Message)
		return re.Code == -32602 && (strings.Contains(m, "unknown tool") || strings.Contains(m, "not found"))
	}
	if err != nil || !res.IsError {
		return false
	}
	t := strings.ToLower(res.Text)
	return (strings.Contains(t, "unknown tool") || strings.Contains(t, "not found")) &&
		strings.Contains(t, strings.ToLower(`"`+name+`"`))
}

// cleanArgs drops nulls, empty strings and empty arrays; HA answers "string value is empty" otherwise.
func cleanArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		switch x := v.(type) {
		case nil:
			continue
		case string:
			if strings.TrimSpace(x) == "" {
				continue
			}
		case []string:
			if len(x) == 0 {
				continue
			}
		case []any:
			if len(x) == 0 {
				continue
			}
		}
		out[k] = v
	}
	return out
}

// toolsLocked returns the cached list or lists again (force, or when stale). The Assist lock must be held.
func (c *Client) toolsLocked(ctx context.Context, force bool) ([]Tool, error) {
	a := &c.assist
	if !force && a.tools != nil && time.Since(a.toolsAt) < c.cfg.ToolsTTL {
		return a.tools, nil
	}
	var tools []Tool
	cursor := ""
	for page := 0; page < 50; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := c.rpcLocked(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var res struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, &Error{Kind: KindProtocol, Op: "POST " + a.path + " tools/list", Err: err}
		}
		for _, t := range res.Tools {
			tools = append(tools, Tool{Name: t.Name, Canonical: Canonical(t.Name), Description: t.Description, InputSchema: t.InputSchema})
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	slices.SortFunc(tools, func(x, y Tool) int { return strings.Compare(x.Name, y.Name) })
	if tools == nil {
		tools = []Tool{}
	}
	a.tools, a.toolsAt = tools, time.Now()
	c.listed.Store(&listedTools{tools: tools, at: a.toolsAt})
	return tools, nil
}

type listedTools struct {
	tools []Tool
	at    time.Time
}

// ListedTools is the Assist tool list as Home Assistant last gave it, and
// when it was fetched; nil before the first. It never waits: a caller that
// follows the list (the folds of ha_ask and ha_act) compares at with what
// it last saw. The list is fetched again when a call finds it older than
// Config.ToolsTTL. It is shared, read on every tools/list: not to be
// changed.
func (c *Client) ListedTools() ([]Tool, time.Time) {
	if l := c.listed.Load(); l != nil {
		return l.tools, l.at
	}
	return nil, time.Time{}
}

func (c *Client) callToolLocked(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	raw, err := c.rpcLocked(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return ToolResult{}, err
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return ToolResult{}, &Error{Kind: KindProtocol, Op: "POST " + c.assist.path + " tools/call " + name, Err: err}
	}
	var texts []string
	for _, b := range res.Content {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return ToolResult{Text: strings.Join(texts, "\n"), IsError: res.IsError}, nil
}

// rpcLocked sends one request, discovering the endpoint first if needed: /api/mcp/assist, then /api/mcp on
// 404. The Assist lock must be held.
func (c *Client) rpcLocked(ctx context.Context, method string, params any) (json.RawMessage, error) {
	a := &c.assist
	if a.refused != nil {
		return nil, a.refused
	}
	if e := c.refusal(); e != nil {
		return nil, e
	}
	if e := c.unreachableNow("POST " + assistPath + " " + method); e != nil {
		return nil, e
	}
	paths := []string{a.path}
	switch {
	case a.path != "":
	case offersAssistPath(c.Version()):
		// /api/mcp/assist answering 404 is the integration loading: asking
		// /api/mcp, for administrators only, would cost a failed login.
		paths = []string{assistPath}
	default:
		paths = []string{assistPath, legacyAssistPath}
	}
	var last *Error
	for _, p := range paths {
		raw, err := c.post(ctx, p, method, params)
		if err == nil {
			a.path, a.missingSince = p, time.Time{}
			return raw, nil
		}
		e := asError(err)
		// /api/mcp refuses a user who is not an administrator: 401 up to
		// 2026.9, 403 from 2026.10 (mcp_server/http.py _validate_admin,
		// measured on 2026.11; a 403 is not counted as a failed login).
		adminOnly := p == legacyAssistPath && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden)
		switch {
		case adminOnly && last != nil:
			// /api/mcp appears with /api/mcp/assist when the integration
			// loads: it may have loaded between the two requests. Asked
			// again once, /api/mcp/assist answers if so.
			raw, err := c.post(ctx, assistPath, method, params)
			if err == nil {
				a.path, a.missingSince = assistPath, time.Time{}
				return raw, nil
			}
			if again := asError(err); again.Status != http.StatusNotFound {
				if again.Status == http.StatusUnauthorized {
					c.refuse(again)
				}
				return nil, again
			}
			fallthrough
		case adminOnly:
			// Either the admin-only endpoint or a bad token; the websocket tells which. Never retried.
			e.Kind = KindNotAllowed
			a.refused = e
			return nil, e
		case e.Status == http.StatusUnauthorized:
			c.refuse(e)
			return nil, e
		case e.Status == http.StatusNotFound:
			last = e
			continue
		}
		return nil, e
	}
	if a.path != "" {
		// The remembered endpoint vanished (a restart, the integration removed, HA downgraded): discover
		// again next time.
		a.path, a.tools = "", nil
	}
	if a.missingSince.IsZero() {
		a.missingSince = time.Now()
	}
	asked := strings.Join(paths, " and ")
	if time.Since(a.missingSince) < c.cfg.AssistGrace {
		return nil, &Error{Kind: KindAssistLoading, Op: "POST " + assistPath, Status: http.StatusNotFound,
			Err: fmt.Errorf("%s answered 404 (%v) for %s now; Home Assistant does so while its MCP server integration loads after a restart", asked, last.Err, time.Since(a.missingSince).Round(time.Second))}
	}
	return nil, &Error{Kind: KindNoAssist, Op: "POST " + assistPath, Status: http.StatusNotFound,
		Err: fmt.Errorf("%s answered 404 (%v); an admin must add the Model Context Protocol Server integration (Settings › Devices & services › Add integration › Model Context Protocol Server) and expose entities to Assist", asked, last.Err)}
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// post sends one JSON-RPC request to path and returns its result.
func (c *Client) post(ctx context.Context, path, method string, params any) (json.RawMessage, error) {
	op := "POST " + path + " " + method
	c.assist.nextID++
	id := c.assist.nextID
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("homeassistant: %s: %w", op, err)
	}
	u := *c.base
	u.Path = joinPath(u.Path, path)
	u.RawPath = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("homeassistant: %s: %w", op, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, classifyNetErr(op, err, c.wasConnected())
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxRPCBytes+1))
	if err != nil {
		return nil, classifyNetErr(op, err, c.wasConnected())
	}
	if len(data) > maxRPCBytes {
		return nil, &Error{Kind: KindProtocol, Op: op, Status: resp.StatusCode, Err: fmt.Errorf("answer larger than %d MiB", maxRPCBytes>>20)}
	}
	if resp.StatusCode != http.StatusOK {
		var cause error
		if t := strings.TrimSpace(string(data)); t != "" {
			cause = errors.New(truncate(t, 200))
		}
		return nil, statusError(op, resp.StatusCode, cause)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		if data, err = firstSSEData(data); err != nil {
			return nil, &Error{Kind: KindProtocol, Op: op, Status: resp.StatusCode, Err: err}
		}
	}
	var r rpcResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &Error{Kind: KindProtocol, Op: op, Status: resp.StatusCode, Err: fmt.Errorf("not a json-rpc response: %w", err)}
	}
	if r.Error != nil {
		return nil, &Error{Kind: KindProtocol, Op: op, Status: resp.StatusCode, Err: r.Error}
	}
	if string(r.ID) != fmt.Sprint(id) {
		return nil, &Error{Kind: KindProtocol, Op: op, Status: resp.StatusCode, Err: fmt.Errorf("answer id %s for request %d", r.ID, id)}
	}
	return r.Result, nil
}

// firstSSEData returns the data of the first server-sent event that carries a JSON-RPC response.
func firstSSEData(stream []byte) ([]byte, error) {
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64<<10), maxRPCBytes)
	var data []byte
	flush := func() []byte {
		d := data
		data = nil
		if len(bytes.TrimSpace(d)) > 0 && bytes.Contains(d, []byte(`"jsonrpc"`)) && !bytes.Contains(d, []byte(`"method"`)) {
			return d
		}
		return nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if d := flush(); d != nil {
				return d, nil
			}
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
		}
	}
	if d := flush(); d != nil {
		return d, nil
	}
	return nil, errors.New("event stream held no json-rpc response")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// offersAssistPath reports whether Home Assistant's version, such as
// "2026.9.1", is one that offers /api/mcp/assist (2026.8 and later). An
// unknown version (before the websocket connects) is not.
func offersAssistPath(version string) bool {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	year, err1 := strconv.Atoi(parts[0])
	month, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return year > 2026 || year == 2026 && month >= 8
}
