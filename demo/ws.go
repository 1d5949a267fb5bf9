package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// authTimeout is how long Home Assistant waits for the auth message.
const authTimeout = 10 * time.Second

// Websocket error codes (websocket_api/const.py).
const (
	errIDReuse       = "id_reuse"
	errInvalidFormat = "invalid_format"
	errNotFound      = "not_found"
	errUnknownCmd    = "unknown_command"
	errUnauthorized  = "unauthorized"
	errNotSupported  = "not_supported"
	errServiceValid  = "service_validation_error"
)

// adminOnly lists the commands a non-admin user is refused with
// "unauthorized".
var adminOnly = map[string]bool{
	"homeassistant/expose_entity/list":           true,
	"homeassistant/expose_entity":                true,
	"config/auth/list":                           true,
	"config/auth/create":                         true,
	"config/auth/delete":                         true,
	"subscribe_trigger":                          true,
	"test_condition":                             true,
	"execute_script":                             true,
	"fire_event":                                 true,
	"config/entity_registry/update":              true,
	"config/entity_registry/remove":              true,
	"config/area_registry/create":                true,
	"config/area_registry/update":                true,
	"config/area_registry/delete":                true,
	"config/device_registry/update":              true,
	"config/device_registry/remove_config_entry": true,
}

// wsConn is one authenticated websocket connection.
type wsConn struct {
	h      *House
	c      *websocket.Conn
	user   *user
	cancel context.CancelFunc
	wake   chan struct{}
	lastID int64

	mu        sync.Mutex
	out       [][]byte
	subs      map[int64]*entitySub
	eventSubs map[int64]bool   // subscribe_events subscriptions receiving state_changed
	regSubs   map[int64]string // subscribe_events subscriptions to a registry's updates, by event type
	coalesce  bool
}

// entitySub is one subscribe_entities subscription. It remembers what the
// client knows and what changed since, so several changes batch into one
// event and a diff is always against what was last sent.
type entitySub struct {
	filter  map[string]bool // nil means every entity
	known   map[string]*snap
	pending map[string]*snap // nil value: removed
	order   []string
	initial bool
}

// serveWebsocket runs Home Assistant's websocket API on one connection.
func (h *House) serveWebsocket(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		h.log.Debug("websocket upgrade failed", "err", err)
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(16 << 20)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()

	u, ok := h.wsAuth(ctx, c, r.RemoteAddr)
	if !ok {
		return
	}
	conn := &wsConn{h: h, c: c, user: u, cancel: cancel, wake: make(chan struct{}, 1), lastID: -1, subs: map[int64]*entitySub{}, eventSubs: map[int64]bool{}, regSubs: map[int64]string{}}
	h.mu.Lock()
	if h.down || (u == h.user && h.revoked) {
		h.mu.Unlock()
		return
	}
	h.conns[conn] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, conn)
		h.mu.Unlock()
	}()

	done := make(chan struct{})
	go func() {
		defer close(done)
		conn.writeLoop(ctx)
	}()
	conn.readLoop(ctx)
	cancel()
	<-done
}

// wsAuth runs the auth phase: auth_required, then auth within ten seconds.
func (h *House) wsAuth(ctx context.Context, c *websocket.Conn, remote string) (*user, bool) {
	if err := writeJSON(ctx, c, map[string]any{"type": "auth_required", "ha_version": h.version}); err != nil {
		return nil, false
	}
	actx, cancel := context.WithTimeout(ctx, authTimeout)
	defer cancel()
	typ, data, err := c.Read(actx)
	if err != nil {
		h.log.Debug("websocket auth not received", "err", err)
		return nil, false
	}
	var msg struct {
		Type        string `json:"type"`
		AccessToken string `json:"access_token"`
	}
	if typ != websocket.MessageText || json.Unmarshal(data, &msg) != nil || msg.Type != "auth" || msg.AccessToken == "" {
		_ = writeJSON(ctx, c, map[string]any{"type": "auth_invalid", "message": "Auth message incorrectly formatted: expected auth with access_token"})
		_ = c.Close(websocket.StatusNormalClosure, "")
		return nil, false
	}
	u := h.tokenUser(msg.AccessToken)
	message := "Invalid access token or password"
	if u != nil && u.localOnly && !isLocal(h.remoteAddr(remote)) {
		u, message = nil, "User cannot authenticate remotely"
	}
	if u == nil {
		h.countFailedLogin()
		_ = writeJSON(ctx, c, map[string]any{"type": "auth_invalid", "message": message})
		_ = c.Close(websocket.StatusNormalClosure, "")
		return nil, false
	}
	if err := writeJSON(ctx, c, map[string]any{"type": "auth_ok", "ha_version": h.version}); err != nil {
		return nil, false
	}
	return u, true
}

func writeJSON(ctx context.Context, c *websocket.Conn, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return c.Write(ctx, websocket.MessageText, b)
}

// drop closes the connection abruptly, without a close frame.
func (c *wsConn) drop() {
	c.cancel()
	_ = c.c.CloseNow()
}

// revoke closes the connection because its token was revoked.
func (c *wsConn) revoke() {
	go func() {
		_ = c.c.Close(websocket.StatusPolicyViolation, "token revoked")
		c.cancel()
	}()
}

func (c *wsConn) readLoop(ctx context.Context) {
	for {
		typ, data, err := c.c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			_ = c.c.Close(websocket.StatusUnsupportedData, "binary messages are not supported")
			return
		}
		data = bytes.TrimSpace(data)
		// Clients may coalesce too: an array carries several commands.
		if len(data) > 0 && data[0] == '[' {
			var msgs []json.RawMessage
			if err := json.Unmarshal(data, &msgs); err != nil {
				_ = c.c.Close(websocket.StatusUnsupportedData, "invalid json")
				return
			}
			for _, m := range msgs {
				if !c.handle(ctx, m) {
					return
				}
			}
			continue
		}
		if !json.Valid(data) {
			_ = c.c.Close(websocket.StatusUnsupportedData, "invalid json")
			return
		}
		if !c.handle(ctx, data) {
			return
		}
	}
}

// writeLoop sends queued messages; after coalesce_messages it sends what is
// queued together as one JSON array, as Home Assistant does.
func (c *wsConn) writeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
		msgs, coalesce := c.take()
		if len(msgs) == 0 {
			continue
		}
		if coalesce && len(msgs) > 1 {
			var b bytes.Buffer
			b.WriteByte('[')
			for i, m := range msgs {
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(m)
			}
			b.WriteByte(']')
			msgs = [][]byte{b.Bytes()}
		}
		for _, m := range msgs {
			if err := c.c.Write(ctx, websocket.MessageText, m); err != nil {
				c.cancel()
				return
			}
		}
	}
}

// take returns the queued messages followed by pending subscription events.
func (c *wsConn) take() ([][]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msgs := c.out
	c.out = nil
	ids := make([]int64, 0, len(c.subs))
	for id := range c.subs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if ev := c.subs[id].flush(); ev != nil {
			b, _ := marshal(map[string]any{"id": id, "type": "event", "event": ev})
			msgs = append(msgs, b)
		}
	}
	return msgs, c.coalesce
}

func (c *wsConn) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// send queues one message.
func (c *wsConn) send(v any) {
	b, err := marshal(v)
	if err != nil {
		c.h.log.Error("encoding a websocket message", "err", err)
		return
	}
	c.mu.Lock()
	c.out = append(c.out, b)
	c.mu.Unlock()
	c.poke()
}

func (c *wsConn) result(id int64, v any) {
	c.send(map[string]any{"id": id, "type": "result", "success": true, "result": v})
}

func (c *wsConn) fail(id any, code, message string) {
	c.send(map[string]any{"id": id, "type": "result", "success": false, "error": map[string]any{"code": code, "message": message}})
}

// change is a new state for an entity; a nil s means it was removed.
type change struct {
	id     string
	s, old *snap
	at     time.Time
}

// markChanged queues changes for the subscriptions that see them, all under
// one lock so that they leave in one event.
func (c *wsConn) markChanged(chs ...change) {
	c.mu.Lock()
	queued := false
	for id := range c.eventSubs {
		for _, ch := range chs {
			c.out = append(c.out, stateChangedEvent(id, ch))
			queued = true
		}
	}
	for _, sub := range c.subs {
		for _, ch := range chs {
			if sub.filter != nil && !sub.filter[ch.id] {
				continue
			}
			sub.mark(ch.id, ch.s)
			queued = true
		}
	}
	c.mu.Unlock()
	if queued {
		c.poke()
	}
}

func (s *entitySub) mark(id string, n *snap) {
	if _, seen := s.pending[id]; !seen {
		s.order = append(s.order, id)
	}
	s.pending[id] = n
}

// flush builds the next subscribe_entities event, or nil when nothing the
// client can see changed.
func (s *entitySub) flush() map[string]any {
	if len(s.order) == 0 && !s.initial {
		return nil
	}
	add, chg := map[string]any{}, map[string]any{}
	var rem []string
	for _, id := range s.order {
		n, o := s.pending[id], s.known[id]
		switch {
		case n == nil:
			if o != nil {
				rem = append(rem, id)
				delete(s.known, id)
			}
		case o == nil:
			add[id] = compressed(n)
			s.known[id] = n
		default:
			if d := stateDiff(o, n); d != nil {
				chg[id] = d
			}
			s.known[id] = n
		}
	}
	s.order = s.order[:0]
	clear(s.pending)
	ev := map[string]any{}
	if len(add) > 0 || s.initial {
		ev["a"] = add
	}
	if len(chg) > 0 {
		ev["c"] = chg
	}
	if len(rem) > 0 {
		ev["r"] = rem
	}
	s.initial = false
	if len(ev) == 0 {
		return nil
	}
	return ev
}

// compressed is a state in subscribe_entities' compact form.
func compressed(s *snap) map[string]any {
	m := map[string]any{"s": s.state, "a": s.attrs, "c": compressedContext(s), "lc": unixFloat(s.lastChanged)}
	if !s.lastUpdated.Equal(s.lastChanged) {
		m["lu"] = unixFloat(s.lastUpdated)
	}
	return m
}

func compressedContext(s *snap) any {
	if s.userID == "" {
		return s.ctxID
	}
	return map[string]any{"id": s.ctxID, "parent_id": nil, "user_id": s.userID}
}

// stateDiff is Home Assistant's subscribe_entities diff between two states:
// "+" holds what changed, "-" the attribute names that disappeared.
func stateDiff(o, n *snap) map[string]any {
	plus := map[string]any{}
	if o.state != n.state {
		plus["s"] = n.state
	}
	if !o.lastChanged.Equal(n.lastChanged) {
		plus["lc"] = unixFloat(n.lastChanged)
	} else if !o.lastUpdated.Equal(n.lastUpdated) {
		plus["lu"] = unixFloat(n.lastUpdated)
	}
	if o.userID != n.userID {
		plus["c"] = map[string]any{"user_id": nilIfEmpty(n.userID), "id": n.ctxID}
	} else if o.ctxID != n.ctxID {
		plus["c"] = n.ctxID
	}
	attrs := map[string]any{}
	for k, v := range n.attrs {
		// Like Home Assistant, compare with old.get(key): a new key whose
		// value is null does not show up.
		if !valueEqual(o.attrs[k], v) {
			attrs[k] = v
		}
	}
	if len(attrs) > 0 {
		plus["a"] = attrs
	}
	var removed []string
	for k := range o.attrs {
		if _, ok := n.attrs[k]; !ok {
			removed = append(removed, k)
		}
	}
	if len(plus) == 0 && len(removed) == 0 {
		return nil
	}
	d := map[string]any{"+": plus}
	if len(removed) > 0 {
		slices.Sort(removed)
		d["-"] = map[string]any{"a": removed}
	}
	return d
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func unixFloat(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// isoTime formats like Python's datetime.isoformat() in UTC: microseconds
// only when non-zero.
func isoTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05+00:00")
	}
	return t.Format("2006-01-02T15:04:05.000000+00:00")
}

// fullState is a state as get_states returns it.
func fullState(id string, s *snap) map[string]any {
	return map[string]any{
		"entity_id":     id,
		"state":         s.state,
		"attributes":    s.attrs,
		"last_changed":  isoTime(s.lastChanged),
		"last_reported": isoTime(s.lastReported),
		"last_updated":  isoTime(s.lastUpdated),
		"context":       map[string]any{"id": s.ctxID, "parent_id": nil, "user_id": nilIfEmpty(s.userID)},
	}
}

// handle runs one command. It returns false when the connection must close.
func (c *wsConn) handle(ctx context.Context, raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var msg map[string]any
	if err := dec.Decode(&msg); err != nil {
		c.fail(nil, errInvalidFormat, "Message incorrectly formatted.")
		return true
	}
	num, _ := msg["id"].(json.Number)
	id, err := strconv.ParseInt(string(num), 10, 64)
	typ, okType := msg["type"].(string)
	if err != nil || id < 0 || !okType {
		var rid any
		if err == nil {
			rid = id
		}
		c.fail(rid, errInvalidFormat, "Message incorrectly formatted.")
		return true
	}
	if id <= c.lastID {
		c.fail(id, errIDReuse, "Identifier values have to increase.")
		return true
	}
	c.lastID = id
	if d := c.h.currentLatency(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false
		}
	}
	if adminOnly[typ] && !c.user.isAdmin {
		c.fail(id, errUnauthorized, "Unauthorized.")
		return true
	}
	c.h.dispatch(ctx, c, id, typ, msg)
	return true
}

// dispatch answers one well-formed command. ctx ends with the connection.
func (h *House) dispatch(ctx context.Context, c *wsConn, id int64, typ string, msg map[string]any) {
	switch typ {
	case "supported_features":
		feats, _ := msg["features"].(map[string]any)
		v, _ := feats["coalesce_messages"].(json.Number)
		c.mu.Lock()
		c.coalesce = v == "1" || v == "true"
		c.mu.Unlock()
		c.result(id, nil)
	case "ping":
		c.send(map[string]any{"id": id, "type": "pong"})
	case "get_states":
		h.mu.Lock()
		out := make([]any, 0, len(h.order))
		for _, eid := range h.order {
			out = append(out, fullState(eid, h.entities[eid].cur))
		}
		h.mu.Unlock()
		c.result(id, out)
	case "subscribe_entities":
		h.subscribeEntities(c, id, msg)
	case "subscribe_events":
		et, hasType := msg["event_type"].(string)
		if !c.user.isAdmin && (!hasType || !userEventTypes[et]) {
			c.fail(id, errUnauthorized, "Unauthorized.")
			return
		}
		c.mu.Lock()
		switch {
		case !hasType || et == "state_changed":
			c.eventSubs[id] = true
		case strings.HasSuffix(et, "_registry_updated"):
			c.regSubs[id] = et
		}
		b, _ := marshal(map[string]any{"id": id, "type": "result", "success": true, "result": nil})
		c.out = append(c.out, b)
		c.mu.Unlock()
		c.poke()
	case "unsubscribe_events":
		n, _ := msg["subscription"].(json.Number)
		sid, err := strconv.ParseInt(string(n), 10, 64)
		c.mu.Lock()
		_, ok := c.subs[sid]
		_, reg := c.regSubs[sid]
		ok = ok || c.eventSubs[sid] || reg
		delete(c.subs, sid)
		delete(c.eventSubs, sid)
		delete(c.regSubs, sid)
		c.mu.Unlock()
		if err != nil || !ok {
			c.fail(id, errNotFound, "Subscription not found.")
			return
		}
		c.result(id, nil)
	case "auth/current_user":
		c.result(id, map[string]any{
			"id":          c.user.id,
			"name":        c.user.name,
			"is_owner":    c.user.isOwner,
			"is_admin":    c.user.isAdmin,
			"credentials": []any{map[string]any{"auth_provider_type": "homeassistant", "auth_provider_id": nil}},
			"mfa_modules": []any{map[string]any{"id": "totp", "name": "Authenticator app", "enabled": false}},
		})
	case "get_config":
		c.result(id, h.config())
	case "config/area_registry/list":
		c.result(id, h.areaList())
	case "config/floor_registry/list", "config/label_registry/list":
		c.result(id, []any{})
	case "config/device_registry/list":
		c.result(id, h.deviceList())
	case "config/entity_registry/list_for_display":
		c.result(id, h.entityDisplayList())
	case "config/entity_registry/list":
		c.result(id, h.entityList())
	case "config/entity_registry/get":
		eid, _ := msg["entity_id"].(string)
		if e, ok := h.registryEntry(eid); ok {
			c.result(id, e)
		} else {
			c.fail(id, errNotFound, "Entity not found")
		}
	case "config/entity_registry/get_entries":
		ids, _ := msg["entity_ids"].([]any)
		out := map[string]any{}
		for _, v := range ids {
			if eid, ok := v.(string); ok {
				e, found := h.registryEntry(eid)
				if !found {
					out[eid] = nil
					continue
				}
				out[eid] = e
			}
		}
		c.result(id, out)
	case "history/history_during_period":
		h.historyDuringPeriod(c, id, msg)
	case "logbook/get_events":
		h.logbookGetEvents(c, id, msg)
	case "call_service":
		if msg["domain"] == "ai_task" {
			h.aiTaskService(ctx, c, id, msg)
			return
		}
		h.wsCallService(c, id, msg)
	case "homeassistant/expose_entity/list":
		h.mu.Lock()
		exp := map[string]any{}
		for _, eid := range h.order {
			if e := h.entities[eid]; e.exposed {
				exp[eid] = map[string]any{"conversation": true}
			}
		}
		h.mu.Unlock()
		c.result(id, map[string]any{"exposed_entities": exp})
	case "config/auth/list":
		list := []any{}
		for _, u := range []*user{h.admin, h.user} {
			list = append(list, map[string]any{
				"id": u.id, "name": u.name, "username": nil, "is_owner": u.isOwner, "is_active": true,
				"local_only": u.localOnly, "system_generated": false, "group_ids": groupIDs(u),
				"credentials": []any{map[string]any{"type": "homeassistant"}},
			})
		}
		c.result(id, list)
	default:
		c.fail(id, errUnknownCmd, "Unknown command.")
	}
}

// userEventTypes are the events a non-admin user may subscribe to
// (websocket_api/permissions.py).
var userEventTypes = map[string]bool{
	"state_changed":                    true,
	"area_registry_updated":            true,
	"device_registry_updated":          true,
	"entity_registry_updated":          true,
	"floor_registry_updated":           true,
	"label_registry_updated":           true,
	"themes_updated":                   true,
	"panels_updated":                   true,
	"component_loaded":                 true,
	"core_config_updated":              true,
	"lovelace_updated":                 true,
	"persistent_notifications_updated": true,
}

// stateChangedEvent is a subscribe_events message for one change.
func stateChangedEvent(subID int64, ch change) []byte {
	var oldState, newState any
	if ch.old != nil {
		oldState = fullState(ch.id, ch.old)
	}
	var ctx map[string]any
	if ch.old != nil {
		ctx = map[string]any{"id": ch.old.ctxID, "parent_id": nil, "user_id": nil}
	}
	if ch.s != nil {
		newState = fullState(ch.id, ch.s)
		ctx = map[string]any{"id": ch.s.ctxID, "parent_id": nil, "user_id": nilIfEmpty(ch.s.userID)}
	}
	b, _ := marshal(map[string]any{"id": subID, "type": "event", "event": map[string]any{
		"event_type": "state_changed",
		"data":       map[string]any{"entity_id": ch.id, "old_state": oldState, "new_state": newState},
		"origin":     "LOCAL",
		"time_fired": isoTime(ch.at),
		"context":    ctx,
	}})
	return b
}

func groupIDs(u *user) []string {
	if u.isAdmin {
		return []string{"system-admin"}
	}
	return []string{"system-users"}
}

func (h *House) subscribeEntities(c *wsConn, id int64, msg map[string]any) {
	sub := &entitySub{known: map[string]*snap{}, pending: map[string]*snap{}, initial: true}
	if ids, ok := msg["entity_ids"].([]any); ok {
		sub.filter = map[string]bool{}
		for _, v := range ids {
			if s, ok := v.(string); ok {
				sub.filter[s] = true
			}
		}
	}
	// Lock order: h.mu before c.mu, as in notifyLocked.
	h.mu.Lock()
	c.mu.Lock()
	for _, eid := range h.order {
		if sub.filter == nil || sub.filter[eid] {
			sub.mark(eid, h.entities[eid].cur)
		}
	}
	b, _ := marshal(map[string]any{"id": id, "type": "result", "success": true, "result": nil})
	c.out = append(c.out, b)
	c.subs[id] = sub
	c.mu.Unlock()
	h.mu.Unlock()
	c.poke()
}

func (h *House) config() map[string]any {
	return map[string]any{
		"latitude": 48.8566, "longitude": 2.3522, "elevation": 35,
		"radius": 100,
		"unit_system": map[string]any{
			"length": "km", "accumulated_precipitation": "mm", "area": "m²", "mass": "g",
			"pressure": "Pa", "temperature": "°C", "volume": "L", "wind_speed": "m/s",
		},
		"location_name":           "Demo House",
		"time_zone":               h.loc.String(),
		"components":              []string{"api", "assist_pipeline", "camera", "conversation", "cover", "http", "light", "lock", "mcp_server", "sensor", "binary_sensor", "websocket_api"},
		"config_dir":              "/config",
		"allowlist_external_dirs": []string{},
		"allowlist_external_urls": []string{},
		"version":                 h.version,
		"config_source":           "storage",
		"recovery_mode":           false,
		"safe_mode":               false,
		"state":                   "RUNNING",
		"external_url":            nil,
		"internal_url":            nil,
		"currency":                "EUR",
		"country":                 "FR",
		"language":                "en",
		"debug":                   false,
	}
}

func (h *House) areaList() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []any{}
	t := unixFloat(h.start.Add(-30 * 24 * time.Hour))
	for _, a := range h.areas {
		out = append(out, map[string]any{
			"area_id": a.id, "name": a.name, "aliases": append([]string{}, a.aliases...), "floor_id": nil, "icon": nil,
			"labels": []string{}, "picture": nil, "humidity_entity_id": nil, "temperature_entity_id": nil,
			"created_at": t, "modified_at": t,
		})
	}
	return out
}

func (h *House) deviceList() []any {
	out := []any{}
	t := unixFloat(h.start.Add(-30 * 24 * time.Hour))
	for _, d := range h.devices {
		out = append(out, map[string]any{
			"id": d.id, "area_id": nilIfEmpty(d.area), "name": d.name, "name_by_user": nil,
			"manufacturer": d.manufacturer, "model": d.model, "model_id": nil,
			"config_entries": []string{stableHex("entry:" + d.manufacturer)}, "config_entries_subentries": map[string]any{},
			"connections": []any{}, "identifiers": []any{[]string{"demo", d.id}},
			"disabled_by": nil, "entry_type": nil, "hw_version": nil, "sw_version": "1.0",
			"serial_number": nil, "via_device_id": nil, "labels": []string{}, "primary_config_entry": nil,
			"configuration_url": nil, "created_at": t, "modified_at": t,
		})
	}
	return out
}

// entityDisplayList is config/entity_registry/list_for_display in its
// compact form: ei entity_id, di device, ai area (only when set on the entry
// itself), en name, pl platform.
func (h *House) entityDisplayList() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := []any{}
	for _, eid := range h.order {
		e := h.entities[eid]
		if !e.registered {
			continue // a state without a registry entry
		}
		m := map[string]any{"ei": e.id, "pl": e.platform, "di": e.device}
		if e.regArea && e.area != "" {
			m["ai"] = e.area
		}
		if e.name != "" {
			m["en"] = e.name
		}
		list = append(list, m)
	}
	return map[string]any{"entity_categories": map[string]string{"0": "config", "1": "diagnostic"}, "entities": list}
}

// wsCallService supports the services the house's entities offer.
func (h *House) wsCallService(c *wsConn, id int64, msg map[string]any) {
	domain, _ := msg["domain"].(string)
	service, _ := msg["service"].(string)
	var targets []string
	collect := func(v any) {
		switch t := v.(type) {
		case string:
			targets = append(targets, t)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					targets = append(targets, s)
				}
			}
		}
	}
	if t, ok := msg["target"].(map[string]any); ok {
		collect(t["entity_id"])
	}
	if d, ok := msg["service_data"].(map[string]any); ok {
		collect(d["entity_id"])
	}
	act, ok := serviceAction(domain, service)
	if !ok {
		c.fail(id, errNotFound, "Service "+domain+"."+service+" not found.")
		return
	}
	h.mu.Lock()
	var ents []*entity
	for _, t := range targets {
		if e, ok := h.entities[t]; ok && entityDomain(t) == domain {
			ents = append(ents, e)
		}
	}
	ctxID := h.ulidLocked(h.now())
	var changed []*entity
	for _, e := range ents {
		if h.applyLocked(e, act, -1, c.user.id) {
			changed = append(changed, e)
		}
	}
	h.notifyLocked(changed...)
	h.mu.Unlock()
	c.result(id, map[string]any{"context": map[string]any{"id": ctxID, "parent_id": nil, "user_id": c.user.id}, "response": nil})
}
