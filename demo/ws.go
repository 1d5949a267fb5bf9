package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
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
	if adminOnly[typ] && !c.user.isAdmin.Load() {
		c.fail(id, errUnauthorized, "Unauthorized.")
		return true
	}
	c.h.dispatch(ctx, c, id, typ, msg)
	return true
}

// dispatch answers one well-formed command. ctx ends with the connection.
func (h *House) dispatch(ctx context.Context, c *wsConn, id int64, typ string, msg map[string]any) {
	if run, ok := wsCommands[typ]; ok {
		run(h, ctx, c, id, msg)
		return
	}
	c.fail(id, errUnknownCmd, "Unknown command.")
}
