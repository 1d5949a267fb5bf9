// Package hawire asks a Home Assistant the questions maison asks it, on the
// wire, and reduces each answer to what must stay the same from one house to
// another: statuses, error codes and texts, and the shape of each JSON
// answer (its keys and their types, which keys are always there). The
// answers of the real Home Assistant are recorded in demo/testdata/realha;
// the demo's tests ask the demo the same questions and compare (Compare), and
// the real-house tests ask the real one again so the recording cannot go stale.
package hawire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// Places names the entities of a house that play each part in the questions.
type Places struct {
	Camera            string // a camera that serves a picture
	CameraOff         string // a camera turned off
	CameraUnavailable string // a camera whose state is unavailable
	Light             string // an exposed light with a registry entry and recorded history
	NotRecorded       string // an entity the recorder leaves out (empty if the house has none)
	AITask            string // an AI task entity that accepts pictures
}

// Peer is a Home Assistant to ask, with a non-admin user's token.
type Peer struct {
	URL    string
	Token  string
	Places Places
	HTTP   *http.Client
}

// Answer is one exchange's answer, reduced.
type Answer struct {
	Exchange string `json:"exchange"`
	// Exact must be equal from house to house (statuses, codes, texts).
	Exact any `json:"exact,omitempty"`
	// Shape is the JSON answer's shape (see ShapeOf); the demo's must
	// conform to the real one's.
	Shape any `json:"shape,omitempty"`
	// Each holds entries the demo may have fewer of, but each one it has
	// must be equal to the real one under the same key (tools by name).
	Each map[string]any `json:"each,omitempty"`
	// Lines are the templates of a text answer's lines (see LineTemplates);
	// the demo's must all be among the real one's.
	Lines []string `json:"lines,omitempty"`
	// Example is a sample of the real answer, for a person reading the
	// recording; never compared.
	Example string `json:"example,omitempty"`
}

// Ask asks every question and returns the answers in a fixed order.
func (p Peer) Ask(ctx context.Context) ([]Answer, error) {
	if p.HTTP == nil {
		p.HTTP = &http.Client{Timeout: 30 * time.Second}
	}
	var out []Answer
	for _, q := range p.questions() {
		a, err := q.ask(ctx)
		if err != nil {
			return out, fmt.Errorf("%s: %w", q.name, err)
		}
		a.Exchange = q.name
		out = append(out, a)
	}
	return out, nil
}

type question struct {
	name string
	ask  func(ctx context.Context) (Answer, error)
}

func (p Peer) questions() []question {
	qs := []question{
		{"websocket auth phase", p.authPhase},
		{"websocket auth/current_user", p.ws("auth/current_user", nil)},
		{"websocket get_config", p.ws("get_config", nil)},
		{"websocket config/entity_registry/list", p.ws("config/entity_registry/list", nil)},
		{"websocket config/entity_registry/list_for_display", p.ws("config/entity_registry/list_for_display", nil)},
		{"websocket config/entity_registry/get_entries", p.ws("config/entity_registry/get_entries", map[string]any{"entity_ids": []string{p.Places.Light, "light.no_such_light"}})},
		{"websocket config/area_registry/list", p.ws("config/area_registry/list", nil)},
		{"websocket config/device_registry/list", p.ws("config/device_registry/list", nil)},
		{"websocket subscribe_entities first event", p.subscribeEntities},
		{"websocket history/history_during_period", p.history},
		{"websocket ai_task.generate_data with a camera picture", p.ws("call_service", p.aiTask(p.Places.AITask))},
		{"websocket ai_task.generate_data with an unknown entity", p.ws("call_service", p.aiTask("ai_task.no_such_task"))},
		{"websocket persistent_notification.create", p.ws("call_service", map[string]any{
			"domain": "persistent_notification", "service": "create",
			"service_data": map[string]any{"title": "maison wire check", "message": "A check of the wire; nothing to do.", "notification_id": "maison_wire_check"},
		})},
		{"websocket a notify action that does not exist", p.ws("call_service", map[string]any{
			"domain": "notify", "service": "mobile_app_no_such_phone", "service_data": map[string]any{"message": "A check of the wire."},
		})},
		{"websocket an unknown command", p.ws("no_such/command", nil)},
		{"websocket an administrator's command", p.ws("homeassistant/expose_entity/list", nil)},
		{"camera proxy: a camera serving a picture", p.camera(p.Places.Camera, p.Token)},
		{"camera proxy: a camera turned off", p.camera(p.Places.CameraOff, p.Token)},
		{"camera proxy: a camera unavailable", p.camera(p.Places.CameraUnavailable, p.Token)},
		{"camera proxy: an unknown camera", p.camera("camera.no_such_camera", p.Token)},
		{"camera proxy: a wrong token", p.camera(p.Places.Camera, "not-a-token")},
		{"assist: initialize, revision 2026-07-28", p.initialize("2026-07-28")},
		{"assist: initialize, revision 2025-06-18", p.initialize("2025-06-18")},
		{ToolsListExchange, p.toolsList},
		{"assist: GetLiveContext", p.liveContext},
		{"assist: HassTurnOn a name that matches nothing", p.turnOnNothing},
		{"assist: GET", p.raw(http.MethodGet, "/api/mcp/assist", "", "application/json", "application/json")},
		{"assist: a notification", p.raw(http.MethodPost, "/api/mcp/assist", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "application/json", "application/json, text/event-stream")},
		{"assist: a body that is not JSON", p.raw(http.MethodPost, "/api/mcp/assist", `{nope`, "application/json", "application/json, text/event-stream")},
		{"assist: a batch", p.raw(http.MethodPost, "/api/mcp/assist", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "application/json", "application/json, text/event-stream")},
		{"assist: an unknown method", p.raw(http.MethodPost, "/api/mcp/assist", `{"jsonrpc":"2.0","id":7,"method":"server/discover"}`, "application/json", "application/json, text/event-stream")},
		{"assist: no Accept for JSON", p.raw(http.MethodPost, "/api/mcp/assist", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "application/json", "text/event-stream")},
		{"assist: a body not said to be JSON", p.raw(http.MethodPost, "/api/mcp/assist", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "text/plain", "application/json, text/event-stream")},
		{"mcp: /api/mcp to a user who is not an administrator", p.raw(http.MethodPost, "/api/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "application/json", "application/json, text/event-stream")},
	}
	if p.Places.NotRecorded == "" {
		return slices.DeleteFunc(qs, func(q question) bool { return q.name == "websocket history/history_during_period" })
	}
	return qs
}

// --- websocket ---------------------------------------------------------------

type wsConn struct {
	c  *websocket.Conn
	id int
}

func (p Peer) dial(ctx context.Context) (*wsConn, []any, error) {
	u := "ws" + strings.TrimPrefix(p.URL, "http") + "/api/websocket"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: p.HTTP})
	if err != nil {
		return nil, nil, fmt.Errorf("dialling the websocket: %w", err)
	}
	c.SetReadLimit(64 << 20)
	var phase []any
	var first map[string]any
	if err := wsjson.Read(ctx, c, &first); err != nil {
		c.CloseNow()
		return nil, nil, fmt.Errorf("reading auth_required: %w", err)
	}
	phase = append(phase, first)
	if err := wsjson.Write(ctx, c, map[string]any{"type": "auth", "access_token": p.Token}); err != nil {
		c.CloseNow()
		return nil, nil, fmt.Errorf("sending auth: %w", err)
	}
	var ok map[string]any
	if err := wsjson.Read(ctx, c, &ok); err != nil {
		c.CloseNow()
		return nil, nil, fmt.Errorf("reading auth_ok: %w", err)
	}
	phase = append(phase, ok)
	if ok["type"] != "auth_ok" {
		c.CloseNow()
		return nil, nil, fmt.Errorf("the token was refused: %v", ok)
	}
	return &wsConn{c: c}, phase, nil
}

// send sends a command and returns the frame answering it (a result, or
// the first event of a subscription when wantEvent).
func (w *wsConn) send(ctx context.Context, typ string, fields map[string]any, wantEvent bool) (map[string]any, error) {
	w.id++
	msg := map[string]any{"id": w.id, "type": typ}
	for k, v := range fields {
		msg[k] = v
	}
	if err := wsjson.Write(ctx, w.c, msg); err != nil {
		return nil, fmt.Errorf("sending %s: %w", typ, err)
	}
	for {
		var frame map[string]any
		if err := wsjson.Read(ctx, w.c, &frame); err != nil {
			return nil, fmt.Errorf("waiting for the answer to %s: %w", typ, err)
		}
		if id, _ := frame["id"].(float64); int(id) != w.id {
			continue
		}
		if wantEvent && frame["type"] != "event" {
			if frame["success"] == false {
				return frame, nil
			}
			continue
		}
		return frame, nil
	}
}

func (p Peer) authPhase(ctx context.Context) (Answer, error) {
	w, phase, err := p.dial(ctx)
	if err != nil {
		return Answer{}, err
	}
	defer w.c.CloseNow()
	return Answer{Shape: ShapeOf(phase)}, nil
}

func (p Peer) ws(typ string, fields map[string]any) func(context.Context) (Answer, error) {
	return func(ctx context.Context) (Answer, error) {
		w, _, err := p.dial(ctx)
		if err != nil {
			return Answer{}, err
		}
		defer w.c.CloseNow()
		frame, err := w.send(ctx, typ, fields, false)
		if err != nil {
			return Answer{}, err
		}
		a := Answer{Shape: ShapeOf(frame)}
		if e, ok := frame["error"].(map[string]any); ok {
			a.Exact = map[string]any{"success": frame["success"], "code": e["code"]}
		}
		return a, nil
	}
}

func (p Peer) aiTask(entityID string) map[string]any {
	return map[string]any{
		"domain": "ai_task", "service": "generate_data", "return_response": true,
		"service_data": map[string]any{
			"task_name": "maison wire check", "entity_id": entityID,
			"instructions": "Describe the picture in one sentence.",
			"attachments": []any{map[string]any{
				"media_content_id": "media-source://camera/" + p.Places.Camera, "media_content_type": "image/jpeg",
			}},
		},
	}
}

func (p Peer) subscribeEntities(ctx context.Context) (Answer, error) {
	w, _, err := p.dial(ctx)
	if err != nil {
		return Answer{}, err
	}
	defer w.c.CloseNow()
	frame, err := w.send(ctx, "subscribe_entities", nil, true)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Shape: ShapeOf(frame)}, nil
}

// history asks for the light's day and the entity the recorder leaves out:
// the answer names which of the two are in it.
func (p Peer) history(ctx context.Context) (Answer, error) {
	w, _, err := p.dial(ctx)
	if err != nil {
		return Answer{}, err
	}
	defer w.c.CloseNow()
	now := time.Now().UTC()
	frame, err := w.send(ctx, "history/history_during_period", map[string]any{
		"start_time": now.Add(-24 * time.Hour).Format(time.RFC3339Nano), "end_time": now.Format(time.RFC3339Nano),
		"entity_ids":               []string{p.Places.Light, p.Places.NotRecorded},
		"include_start_time_state": true, "significant_changes_only": true, "minimal_response": true, "no_attributes": true,
	}, false)
	if err != nil {
		return Answer{}, err
	}
	res, _ := frame["result"].(map[string]any)
	_, light := res[p.Places.Light]
	_, excluded := res[p.Places.NotRecorded]
	return Answer{
		Shape: ShapeOf(frame),
		Exact: map[string]any{"recorded entity present": light, "entity the recorder leaves out present": excluded},
	}, nil
}

// --- HTTP ----------------------------------------------------------------------

func (p Peer) do(ctx context.Context, method, path, body, contentType, accept, token string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.URL+path, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := p.HTTP.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: reading the body: %w", method, path, err)
	}
	return resp, b, nil
}

// mediaType is a Content-Type without its parameters.
func mediaType(resp *http.Response) string {
	t, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	return strings.TrimSpace(t)
}

func (p Peer) camera(entityID, token string) func(context.Context) (Answer, error) {
	return func(ctx context.Context) (Answer, error) {
		resp, body, err := p.do(ctx, http.MethodGet, "/api/camera_proxy/"+entityID, "", "", "", token)
		if err != nil {
			return Answer{}, err
		}
		exact := map[string]any{"status": resp.StatusCode}
		if resp.StatusCode == http.StatusOK {
			exact["starts like a picture"] = bytes.HasPrefix(body, []byte{0xFF, 0xD8}) || bytes.HasPrefix(body, []byte("\x89PNG"))
		} else {
			exact["content type"] = mediaType(resp)
			exact["body"] = string(body)
		}
		return Answer{Exact: exact}, nil
	}
}

func (p Peer) raw(method, path, body, contentType, accept string) func(context.Context) (Answer, error) {
	return func(ctx context.Context) (Answer, error) {
		resp, b, err := p.do(ctx, method, path, body, contentType, accept, p.Token)
		if err != nil {
			return Answer{}, err
		}
		exact := map[string]any{"status": resp.StatusCode, "content type": mediaType(resp)}
		var v any
		if json.Unmarshal(b, &v) == nil {
			exact["json"] = v
		} else {
			exact["text"] = string(b)
		}
		return Answer{Exact: exact}, nil
	}
}

// rpc posts one JSON-RPC request to the Assist endpoint and decodes the answer.
func (p Peer) rpc(ctx context.Context, method string, params any) (map[string]any, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	resp, b, err := p.do(ctx, http.MethodPost, "/api/mcp/assist", string(body), "application/json", "application/json, text/event-stream", p.Token)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %.200s", method, resp.StatusCode, b)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return out, nil
}

func (p Peer) initialize(version string) func(context.Context) (Answer, error) {
	return func(ctx context.Context) (Answer, error) {
		out, err := p.rpc(ctx, "initialize", map[string]any{
			"protocolVersion": version, "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "maison wire check", "version": "1"},
		})
		if err != nil {
			return Answer{}, err
		}
		res, _ := out["result"].(map[string]any)
		info, _ := res["serverInfo"].(map[string]any)
		return Answer{
			Shape: ShapeOf(out),
			Exact: map[string]any{"protocolVersion": res["protocolVersion"], "serverInfo.name": info["name"], "capabilities": ShapeOf(res["capabilities"])},
		}, nil
	}
}

func (p Peer) toolsList(ctx context.Context) (Answer, error) {
	out, err := p.rpc(ctx, "tools/list", map[string]any{})
	if err != nil {
		return Answer{}, err
	}
	res, _ := out["result"].(map[string]any)
	tools, _ := res["tools"].([]any)
	// Each tool as it is, by name: the demo's tools must be the real
	// ones (same description, annotations and schema) under the same names.
	byName := map[string]any{}
	for _, t := range tools {
		if m, ok := t.(map[string]any); ok {
			byName[fmt.Sprint(m["name"])] = sortedSets(m)
		}
	}
	return Answer{Shape: ShapeOf(out), Each: byName}, nil
}

func (p Peer) callTool(ctx context.Context, canonical string, args map[string]any) (map[string]any, error) {
	list, err := p.rpc(ctx, "tools/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	name := ""
	res, _ := list["result"].(map[string]any)
	tools, _ := res["tools"].([]any)
	for _, t := range tools {
		n := fmt.Sprint(t.(map[string]any)["name"])
		if n == canonical || strings.HasSuffix(n, "__"+canonical) {
			name = n
		}
	}
	if name == "" {
		return nil, fmt.Errorf("no tool %s is offered", canonical)
	}
	return p.rpc(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
}

func (p Peer) liveContext(ctx context.Context) (Answer, error) {
	out, err := p.callTool(ctx, "GetLiveContext", map[string]any{})
	if err != nil {
		return Answer{}, err
	}
	text := toolText(out)
	var inner map[string]any
	if err := json.Unmarshal([]byte(text), &inner); err != nil {
		return Answer{}, fmt.Errorf("GetLiveContext's text is not JSON: %w", err)
	}
	live, _ := inner["result"].(string)
	return Answer{Shape: ShapeOf(map[string]any{"outer": out, "inner": inner}), Lines: LineTemplates(live), Example: clip(live, 1500)}, nil
}

func (p Peer) turnOnNothing(ctx context.Context) (Answer, error) {
	out, err := p.callTool(ctx, "HassTurnOn", map[string]any{"name": "No Such Thing Anywhere"})
	if err != nil {
		return Answer{}, err
	}
	text := toolText(out)
	res, _ := out["result"].(map[string]any)
	reason := regexp.MustCompile(`MatchFailedReason\.([A-Z_]+)`).FindStringSubmatch(text)
	exact := map[string]any{"isError": res["isError"], "starts": clip(text, 22)}
	if reason != nil {
		exact["reason"] = reason[1]
	}
	return Answer{Shape: ShapeOf(out), Exact: exact, Example: clip(text, 600)}, nil
}

func toolText(out map[string]any) string {
	res, _ := out["result"].(map[string]any)
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			s, _ := m["text"].(string)
			return s
		}
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// sortedSets sorts what Home Assistant builds from Python sets, whose order
// changes from one start to the next: each "enum" and the branches of each
// "anyOf" (measured: HassSetVolumeRelative's volume_step).
func sortedSets(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			e = sortedSets(e)
			if list, ok := e.([]any); ok && (k == "enum" || k == "anyOf") {
				list = slices.Clone(list)
				slices.SortFunc(list, func(a, b any) int {
					ab, _ := json.Marshal(a)
					bb, _ := json.Marshal(b)
					return strings.Compare(string(ab), string(bb))
				})
				e = list
			}
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = sortedSets(e)
		}
		return out
	}
	return v
}
