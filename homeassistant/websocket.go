package homeassistant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// writeTimeout bounds writing one command; a connection that cannot take a small frame for this long is dead.
const writeTimeout = 10 * time.Second

// wsMessage is any message Home Assistant sends on the websocket.
type wsMessage struct {
	ID        int64           `json:"id"`
	Type      string          `json:"type"`
	Success   *bool           `json:"success"`
	Result    json.RawMessage `json:"result"`
	Error     *wsError        `json:"error"`
	Event     json.RawMessage `json:"event"`
	HAVersion string          `json:"ha_version"`
	Message   string          `json:"message"`
}

type wsError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// session is one authenticated websocket connection. Commands get strictly increasing ids; results are matched
// by id and events go to the handler registered for their subscription id. It does not reconnect: the Client
// replaces a dead session with a new one.
type session struct {
	conn *websocket.Conn
	log  *slog.Logger

	writeMu sync.Mutex // serialises id allocation and writes, so ids reach HA in increasing order
	nextID  int64

	mu      sync.Mutex
	pending map[int64]chan wsMessage
	subs    map[int64]func(json.RawMessage)

	done chan struct{} // closed by the read loop when it exits; no handler runs after that
	err  *Error        // why the session ended; set before done is closed
}

// wsURL turns the base URL into the websocket endpoint.
func wsURL(base *url.URL) string {
	u := *base
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	u.Path = joinPath(u.Path, "/api/websocket")
	u.RawPath = ""
	return u.String()
}

// errSilent is the cause of a KindUnreachable error when something accepted the connection but did not
// answer as Home Assistant does within HandshakeTimeout.
var errSilent = errors.New("something accepted the connection but did not answer as Home Assistant does")

// hello dials the websocket and reads Home Assistant's first word, auth_required, within HandshakeTimeout.
// Something that accepts the connection and stays silent that long, or answers the upgrade with a page of
// its own, is not Home Assistant's websocket API.
func hello(ctx context.Context, cfg *Config, base *url.URL, wasConnected bool) (*websocket.Conn, error) {
	const op = wsOp
	hctx, cancel := context.WithTimeout(ctx, cfg.HandshakeTimeout)
	defer cancel()
	var connected atomic.Bool
	hctx = httptrace.WithClientTrace(hctx, &httptrace.ClientTrace{
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				connected.Store(true)
			}
		},
		GotConn: func(httptrace.GotConnInfo) { connected.Store(true) },
	})
	classify := func(err error) *Error {
		if connected.Load() && hctx.Err() != nil && ctx.Err() == nil {
			return &Error{Kind: KindUnreachable, Op: op, Err: fmt.Errorf("%w within %v: %w", errSilent, cfg.HandshakeTimeout, err)}
		}
		return classifyNetErr(op, err, wasConnected)
	}
	conn, resp, err := websocket.Dial(hctx, wsURL(base), &websocket.DialOptions{HTTPClient: cfg.HTTPClient})
	switch {
	case err == nil:
	case resp == nil:
		return nil, classify(err)
	case resp.StatusCode < 400:
		// Home Assistant upgrades its websocket API or refuses it with an error status; a page, or a
		// redirect to one, is some other server.
		return nil, &Error{Kind: KindNotFound, Op: op, Status: resp.StatusCode, Err: fmt.Errorf("answered %d, not a websocket upgrade: %w", resp.StatusCode, err)}
	default:
		return nil, statusError(op, resp.StatusCode, err)
	}
	conn.SetReadLimit(cfg.ReadLimit)
	var m wsMessage
	if err := readOne(hctx, conn, &m); err != nil {
		conn.CloseNow()
		return nil, classify(err)
	}
	if m.Type != "auth_required" {
		conn.CloseNow()
		return nil, &Error{Kind: KindProtocol, Op: op, Err: fmt.Errorf("expected auth_required, got %q", m.Type)}
	}
	return conn, nil
}

// dialSession dials, authenticates and starts the read loop. It returns HA's version from auth_ok.
func dialSession(ctx context.Context, cfg *Config, base *url.URL, wasConnected bool) (*session, string, error) {
	const op = wsOp
	conn, err := hello(ctx, cfg, base, wasConnected)
	if err != nil {
		return nil, "", err
	}
	fail := func(e *Error) (*session, string, error) {
		conn.CloseNow()
		return nil, "", e
	}
	var m wsMessage
	auth, _ := json.Marshal(map[string]string{"type": "auth", "access_token": cfg.Token})
	if err := conn.Write(ctx, websocket.MessageText, auth); err != nil {
		return fail(classifyNetErr(op, err, wasConnected))
	}
	m = wsMessage{}
	if err := readOne(ctx, conn, &m); err != nil {
		return fail(classifyNetErr(op, err, wasConnected))
	}
	switch m.Type {
	case "auth_ok":
	case "auth_invalid":
		msg := m.Message
		if msg == "" {
			msg = "auth_invalid"
		}
		kind := KindAuth
		if msg == "User cannot authenticate remotely" || msg == "User is local only" {
			kind = KindLocalOnly
		}
		return fail(&Error{Kind: kind, Op: "websocket auth", Err: errors.New(msg)})
	default:
		return fail(&Error{Kind: KindProtocol, Op: "websocket auth", Err: fmt.Errorf("unexpected %q", m.Type)})
	}
	s := &session{
		conn:    conn,
		log:     cfg.Logger,
		pending: map[int64]chan wsMessage{},
		subs:    map[int64]func(json.RawMessage){},
		done:    make(chan struct{}),
	}
	go s.readLoop()
	return s, m.HAVersion, nil
}

// readOne reads one message during the handshake, before coalescing is negotiated.
func readOne(ctx context.Context, conn *websocket.Conn, m *wsMessage) error {
	_, data, err := conn.Read(ctx)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, m); err != nil {
		return &Error{Kind: KindProtocol, Op: "websocket auth", Err: err}
	}
	return nil
}

// readLoop reads frames until the connection fails, dispatching each message. A frame may be a JSON array of
// messages once coalesce_messages is on.
func (s *session) readLoop() {
	var err error
	for {
		var data []byte
		_, data, err = s.conn.Read(context.Background())
		if err != nil {
			break
		}
		if err = s.dispatchFrame(data); err != nil {
			s.log.Warn("bad websocket frame", "err", err)
			err = nil
		}
	}
	kind := KindUnreachable
	switch websocket.CloseStatus(err) {
	case websocket.StatusGoingAway, websocket.StatusServiceRestart, websocket.StatusTryAgainLater:
		kind = KindRestarting
	}
	s.mu.Lock()
	if s.err == nil {
		s.err = &Error{Kind: kind, Op: "websocket", Err: fmt.Errorf("connection lost: %w", err)}
	}
	pending := s.pending
	s.pending = map[int64]chan wsMessage{}
	s.subs = map[int64]func(json.RawMessage){}
	s.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	close(s.done)
}

// dispatchFrame handles one websocket frame: a single message or a JSON array of them.
func (s *session) dispatchFrame(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(data, &batch); err != nil {
			return err
		}
		var firstErr error
		for _, raw := range batch {
			if err := s.dispatch(raw); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		return firstErr
	}
	return s.dispatch(data)
}

func (s *session) dispatch(raw []byte) error {
	var m wsMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	switch m.Type {
	case "result", "pong":
		s.mu.Lock()
		ch, ok := s.pending[m.ID]
		delete(s.pending, m.ID)
		s.mu.Unlock()
		if ok {
			ch <- m
		}
	case "event":
		s.mu.Lock()
		h := s.subs[m.ID]
		s.mu.Unlock()
		if h != nil {
			h(m.Event)
		}
	default:
		s.log.Debug("ignored websocket message", "type", m.Type)
	}
	return nil
}

// call sends a command and waits for its result. msg must hold "type" and the command's fields; the id is
// added here. A non-nil handler receives the events of the subscription this command opens; it runs on the
// read loop and must not call back into the session.
func (s *session) call(ctx context.Context, msg map[string]any, handler func(json.RawMessage)) (json.RawMessage, error) {
	op := fmt.Sprintf("websocket %v", msg["type"])
	if err := ctx.Err(); err != nil {
		return nil, classifyNetErr(op, err, true)
	}
	ch := make(chan wsMessage, 1)
	s.writeMu.Lock()
	s.nextID++
	id := s.nextID
	msg["id"] = id
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		s.writeMu.Unlock()
		return nil, err
	}
	s.pending[id] = ch
	if handler != nil {
		s.subs[id] = handler
	}
	s.mu.Unlock()
	data, err := json.Marshal(msg)
	if err == nil {
		// coder/websocket closes the whole connection when a write's context ends mid-write, so one caller's
		// deadline would cut every other caller off: the write gets its own bound instead, and ctx only
		// bounds the wait for the answer.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
		err = s.conn.Write(wctx, websocket.MessageText, data)
		cancel()
	}
	s.writeMu.Unlock()
	if err != nil {
		s.forget(id)
		return nil, classifyNetErr(op, err, true)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, s.ended()
		}
		if m.Type == "pong" {
			return nil, nil
		}
		if m.Success != nil && !*m.Success {
			s.forget(id)
			return nil, resultError(op, m.Error)
		}
		return m.Result, nil
	case <-ctx.Done():
		s.forget(id)
		return nil, classifyNetErr(op, ctx.Err(), true)
	}
}

func (s *session) forget(id int64) {
	s.mu.Lock()
	delete(s.pending, id)
	delete(s.subs, id)
	s.mu.Unlock()
}

func (s *session) ended() *Error {
	<-s.done
	return s.err
}

// close drops the connection; the read loop then ends and done is closed.
func (s *session) close(reason *Error) {
	s.mu.Lock()
	if s.err == nil && reason != nil {
		s.err = reason
	}
	s.mu.Unlock()
	s.conn.CloseNow()
}

// resultError maps a failed command result to an *Error.
func resultError(op string, e *wsError) *Error {
	if e == nil {
		return &Error{Kind: KindProtocol, Op: op, Err: errors.New("failed without an error")}
	}
	kind := KindProtocol
	switch e.Code {
	case "unauthorized":
		kind = KindNotAllowed
	case "not_found":
		kind = KindNotFound
	case "timeout":
		kind = KindTimeout
	}
	return &Error{Kind: kind, Op: op, Err: &CommandError{Code: e.Code, Message: e.Message}}
}

// CommandError is a websocket command Home Assistant answered with success false: its error code
// ("not_found", "unauthorized", "home_assistant_error", ...) and message. It is the Err of an *Error.
type CommandError struct {
	Code    string
	Message string
}

// Error returns the code and the message, as in "not_found: Entity not found".
func (e *CommandError) Error() string { return e.Code + ": " + e.Message }

// commandFailure returns the *CommandError inside err when Home Assistant answered the command with an error
// code, for the caller to give it a Kind; otherwise err itself, a timeout or cancellation named after op.
func commandFailure(op string, err error) (*CommandError, error) {
	var ce *CommandError
	if errors.As(err, &ce) {
		return ce, nil
	}
	if e := asError(err); e.Kind == KindTimeout || e.Kind == KindCanceled {
		return nil, &Error{Kind: e.Kind, Op: op, Err: e.Err}
	}
	return nil, err
}

// refusedCommand reports whether err is Home Assistant answering a command with a failure (as opposed to the
// connection failing).
func refusedCommand(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce)
}

// statusError maps an HTTP status (camera proxy, websocket handshake, MCP) to an *Error.
func statusError(op string, status int, err error) *Error {
	kind := KindProtocol
	switch {
	case status == http.StatusUnauthorized:
		kind = KindAuth
	case status == http.StatusForbidden:
		kind = KindForbidden
	case status == http.StatusNotFound:
		kind = KindNotFound
	case status == http.StatusBadGateway, status == http.StatusServiceUnavailable, status == http.StatusGatewayTimeout:
		kind = KindRestarting
	case status == http.StatusRequestTimeout:
		kind = KindTimeout
	case status == http.StatusInternalServerError:
		kind = KindServerError
	}
	return &Error{Kind: kind, Op: op, Status: status, Err: err}
}

// joinPath appends p to a base path without doubling slashes.
func joinPath(base, p string) string {
	for len(base) > 0 && base[len(base)-1] == '/' {
		base = base[:len(base)-1]
	}
	return base + p
}
