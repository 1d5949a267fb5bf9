package homeassistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Client talks to one Home Assistant as a non-admin user: a websocket session that keeps a live state cache,
// the camera proxy and the Assist MCP endpoint. Create it with New; it is safe for concurrent use.
type Client struct {
	cfg  Config
	log  *slog.Logger
	base *url.URL

	mu            sync.Mutex
	states        map[string]State
	reg           registries
	user          User
	version       string
	haConfig      HAConfig
	status        Status
	changed       chan struct{}
	everConnected bool
	attemptFailed bool   // the last attempt to connect failed (unreachableNow)
	refused       *Error // the token was refused once: never present it again (HA bans after failed logins)
	started       bool
	cancel        context.CancelFunc
	done          chan struct{} // closed when the background goroutine exits

	regDirty chan struct{} // registry update events ask for a reload
	// regStale is set from a registry update event until the reload that
	// follows succeeds: meanwhile no entity's exposure can be trusted.
	regStale bool
	sess     *session // the latest session; dead once its done is closed
	// sessions counts the sessions whose first state replaced the cache.
	sessions uint64

	assist assistState
	// listed is the Assist tool list as last fetched, and when: read
	// without waiting on the Assist lock (ListedTools).
	listed atomic.Pointer[listedTools]
}

// Status describes the websocket session, for answers and `maison check`.
type Status struct {
	Connected bool      // a session is up and the cache is live
	Since     time.Time // when Connected last changed (zero before Connect)
	Err       *Error    // why the client is not connected (nil while connected)
	Stopped   bool      // the client no longer reconnects: closed, its context ended, or the token was refused
}

// User is the Home Assistant user the token belongs to (auth/current_user).
type User struct {
	ID      string
	Name    string
	IsAdmin bool
	IsOwner bool
}

// HAConfig is the part of Home Assistant's get_config maison uses.
type HAConfig struct {
	LocationName string
	TimeZone     string
	Language     string
	UnitSystem   UnitSystem
}

// UnitSystem holds the units Home Assistant displays, e.g. Temperature "°C", Length "km".
type UnitSystem struct {
	Length                   string `json:"length"`
	AccumulatedPrecipitation string `json:"accumulated_precipitation"`
	Mass                     string `json:"mass"`
	Pressure                 string `json:"pressure"`
	Temperature              string `json:"temperature"`
	Volume                   string `json:"volume"`
	WindSpeed                string `json:"wind_speed"`
}

// New checks cfg and returns a Client. It does no I/O; call Connect for the websocket. CameraImage and the
// Assist methods work without Connect.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	base, err := url.Parse(strings.TrimRight(cfg.URL, "/"))
	if err != nil {
		return nil, fmt.Errorf("homeassistant: MAISON_HA_URL: %w", err)
	}
	return &Client{
		cfg:      cfg,
		log:      cfg.Logger,
		base:     base,
		states:   map[string]State{},
		changed:  make(chan struct{}),
		regDirty: make(chan struct{}, 1),
		assist:   newAssistState(),
	}, nil
}

// Connect dials the websocket, authenticates, refuses an administrator's token (KindAdminToken), loads the
// configuration and registries, subscribes to entities and returns once the first full state has arrived.
// A background goroutine then keeps the session alive until ctx ends or Close is called: it pings, reconnects
// with capped, jittered exponential backoff and replaces the cache on each new first state. A refused token
// stops it for good (Home Assistant bans addresses after failed logins); Status reports why. If the first
// attempt fails, Connect returns its error and starts nothing; it may be called again.
func (c *Client) Connect(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return errors.New("homeassistant: Connect called twice")
	}
	c.started = true
	c.mu.Unlock()

	if e := c.refusal(); e != nil {
		c.mu.Lock()
		c.started = false
		c.mu.Unlock()
		return e
	}
	life, cancel := context.WithCancel(ctx)
	sess, err := c.attempt(life)
	if err != nil {
		cancel()
		c.mu.Lock()
		c.started = false
		c.attemptFailed = true
		c.setStatusLocked(false, asError(err), true) // not connected since the first failure, when Connect is called again
		c.mu.Unlock()
		return err
	}
	done := make(chan struct{})
	c.mu.Lock()
	c.cancel, c.done = cancel, done
	c.mu.Unlock()
	go func() {
		defer close(done)
		c.run(life, sess)
	}()
	return nil
}

// Close stops the background session and waits for it. It is safe to call more than once.
func (c *Client) Close() error {
	c.mu.Lock()
	cancel, done := c.cancel, c.done
	c.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	return nil
}

// Status reports whether the websocket session is up and, if not, why.
func (c *Client) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// User returns the user the token belongs to (zero before Connect succeeds).
func (c *Client) User() User {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.user
}

// Version returns Home Assistant's version, e.g. "2026.9.1" (empty before Connect succeeds).
func (c *Client) Version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// Config returns Home Assistant's location name, time zone, language and unit system.
func (c *Client) Config() HAConfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.haConfig
}

// States returns a copy of every cached state, sorted by entity id. Attribute maps are shared: do not modify.
func (c *Client) States() []State {
	c.mu.Lock()
	out := make([]State, 0, len(c.states))
	for _, s := range c.states {
		out = append(out, s)
	}
	c.mu.Unlock()
	slices.SortFunc(out, func(a, b State) int { return strings.Compare(a.EntityID, b.EntityID) })
	return out
}

// State returns the cached state of one entity.
func (c *Client) State(entityID string) (State, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.states[entityID]
	return s, ok
}

// Area returns the name of the entity's area, from the entity registry or else its device's area; "" if none.
func (c *Client) Area(entityID string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reg.areaOf(entityID)
}

// Entry returns what the registries say of one entity, and whether it has a
// registry entry at all. An entity without one has an unknown exposure.
func (c *Client) Entry(entityID string) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.reg.entry(entityID)
	if c.regStale {
		e.Exposure = ExposureUnknown // a change is announced and not yet read
	}
	return e, ok
}

// ExposureKnown reports whether the entity registry, with each entry's
// Assist exposure, could be read. When it could not, every entity's
// exposure is unknown.
func (c *Client) ExposureKnown() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reg.exposure
}

// Session counts the sessions whose first state replaced the cache: what
// was read of Home Assistant under an earlier one (before a restart) may
// not agree with the states now held.
func (c *Client) Session() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions
}

// Changed returns a channel that is closed at the next change of the cache (states, registries or status).
// Call it again after each close to wait for the following change.
func (c *Client) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// notifyLocked wakes Changed waiters; c.mu must be held.
func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) setStatus(connected bool, err *Error, stopped bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setStatusLocked(connected, err, stopped)
}

// setStatusLocked sets the status, keeping Since while connected does not
// change, and wakes Changed waiters; c.mu must be held.
func (c *Client) setStatusLocked(connected bool, err *Error, stopped bool) {
	since := c.status.Since
	if connected != c.status.Connected || since.IsZero() {
		since = time.Now()
	}
	c.status = Status{Connected: connected, Since: since, Err: err, Stopped: stopped}
	c.notifyLocked()
}

// setDown records the websocket down with err, and whether an attempt to
// connect failed, as opposed to a session lost: only a failed attempt
// stops requests over HTTP (unreachableNow). One lock, so that no waiter
// woken by the change sees one without the other.
func (c *Client) setDown(err *Error, stopped, attemptFailed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.attemptFailed = attemptFailed
	c.setStatusLocked(false, err, stopped)
}

// refuse records that Home Assistant refused the token, so no later request presents it again.
func (c *Client) refuse(e *Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refused == nil {
		c.refused = e
	}
}

// refusal returns the recorded refusal, if any.
func (c *Client) refusal() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused
}

// errNoAnswerYet is why the websocket cannot be used while the first
// attempt to connect is under way.
var errNoAnswerYet = errors.New("Home Assistant has not answered maison's websocket yet")

// ErrNotSent marks an error for a request that was never sent to Home
// Assistant (unreachableNow): an action asked for did not happen.
var ErrNotSent = errors.New("not sent to Home Assistant")

// Offline returns why the websocket cannot be used now, nil when it can:
// the last attempt's failure, a first attempt still under way (said slow),
// or a session lost and not yet restored (said slow too: it usually takes
// a second).
func (c *Client) Offline() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.status
	switch {
	case st.Connected:
		return nil
	case st.Err != nil && (c.attemptFailed || st.Stopped):
		return &Error{Kind: st.Err.Kind, Op: "websocket", Status: st.Err.Status, Err: st.Err.Err}
	case c.everConnected:
		return &Error{Kind: KindTimeout, Op: "websocket", Err: errors.New("reconnecting after the session was lost")}
	case c.started:
		return &Error{Kind: KindTimeout, Op: "websocket", Err: errNoAnswerYet}
	}
	return &Error{Kind: KindUnreachable, Op: "websocket", Err: errors.New("not connected")}
}

// reconnecting reports whether the session was lost and no attempt to
// restore it has failed yet.
func (c *Client) reconnecting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.status.Connected && c.everConnected && !c.attemptFailed && !c.status.Stopped
}

// WaitConnected waits up to d, or until ctx ends, for the websocket to be
// connected, and reports whether it is: a session lost to a blip is
// usually restored within a second or two.
func (c *Client) WaitConnected(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		changed := c.Changed()
		if c.Status().Connected {
			return true
		}
		select {
		case <-changed:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// WaitReconnected waits up to Config.ReconnectWait, or until ctx ends, for
// a session lost to a blip to come back, and reports whether the websocket
// is connected: what needs it waits so before saying why it cannot go on.
func (c *Client) WaitReconnected(ctx context.Context) bool {
	return c.WaitConnected(ctx, c.cfg.ReconnectWait)
}

// unreachableNow returns why a request over HTTP must not go to Home
// Assistant now, or nil. Once a connection has been tried, the token is not
// presented over HTTP before the websocket has accepted it: Home Assistant
// counts each refusal as a failed login, and bans after a few. And while the
// last attempt to connect the websocket failed for a reason HTTP shares
// (unreachable, restarting, silent), a request fails at once with that
// reason rather than wait for the same answer; a session merely lost leaves
// HTTP alone until an attempt fails.
func (c *Client) unreachableNow(op string) *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.status
	if st.Connected || !c.started && st.Since.IsZero() {
		return nil
	}
	if st.Err != nil && st.Err.Kind == KindAdminToken {
		return &Error{Kind: KindAdminToken, Op: op, Err: fmt.Errorf("%w: %w", ErrNotSent, st.Err)}
	}
	if st.Err != nil && c.attemptFailed {
		switch st.Err.Kind {
		case KindUnreachable, KindRestarting, KindTimeout:
			return &Error{Kind: st.Err.Kind, Op: op, Status: st.Err.Status, Err: fmt.Errorf("%w: %w", ErrNotSent, st.Err)}
		}
	}
	if !c.everConnected {
		kind := KindUnreachable
		if c.started { // the first attempt is under way: slow so far, not known unreachable
			kind = KindTimeout
		}
		return &Error{Kind: kind, Op: op, Err: fmt.Errorf("%w: %w", ErrNotSent, errNoAnswerYet)}
	}
	return nil
}

// adminFound records that maison's user is an administrator or the owner:
// nothing is sent with the token from now on (unreachableNow), every call
// says why, and the user is asked about again later.
func (c *Client) adminFound(e *Error) {
	c.mu.Lock()
	first := c.status.Err == nil || c.status.Err.Kind != KindAdminToken
	c.attemptFailed = true
	c.setStatusLocked(false, e, false)
	c.mu.Unlock()
	if first {
		c.log.Error("maison's Home Assistant user is an administrator now: every call is refused until it is not (checked again every few minutes)", "err", e)
	}
}

func (c *Client) wasConnected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.everConnected
}

// run keeps the session alive until life ends, reconnecting when it dies.
func (c *Client) run(life context.Context, sess *session) {
	delay := c.cfg.ReconnectMin
	for {
		began := time.Now()
		err := c.keepAlive(life, sess)
		if life.Err() != nil {
			sess.close(&Error{Kind: KindCanceled, Op: "websocket", Err: errors.New("client closed")})
			<-sess.done
			c.setStatus(false, nil, true)
			return
		}
		if e := asError(err); e.Kind == KindAdminToken {
			c.adminFound(e)
			delay = 2 * c.cfg.PrivilegeInterval // the next attempt asks again, a while later
		} else {
			c.log.Warn("websocket lost", "err", err)
			c.setDown(e, false, false) // lost, not refused: requests over HTTP may still be answered
			if time.Since(began) >= c.cfg.ReconnectMax {
				delay = c.cfg.ReconnectMin
			}
		}
		for {
			wait := delay/2 + rand.N(delay/2+1)
			c.log.Info("reconnecting", "in", wait.Round(time.Millisecond))
			select {
			case <-life.Done():
				c.setStatus(false, c.Status().Err, true)
				return
			case <-time.After(wait):
			}
			delay = min(delay*2, c.cfg.ReconnectMax)
			sess, err = c.attempt(life)
			if err == nil {
				break
			}
			if life.Err() != nil {
				c.setStatus(false, c.Status().Err, true)
				return
			}
			e := asError(err)
			if e.Kind == KindAdminToken {
				// Asked again every so often: once the user is not an
				// administrator any more, maison works again by itself.
				c.adminFound(e)
				delay = 2 * c.cfg.PrivilegeInterval
				continue
			}
			if e.Kind == KindAuth || e.Kind == KindLocalOnly {
				c.log.Error("token refused, not retrying", "err", err)
				c.setStatus(false, e, true)
				return
			}
			c.log.Warn("reconnect failed", "err", err)
			c.setDown(e, false, true)
		}
		c.log.Info("websocket reconnected")
	}
}

// keepAlive pings the session and reloads registries on request until the session or life ends.
func (c *Client) keepAlive(life context.Context, sess *session) error {
	t := time.NewTicker(c.cfg.PingInterval)
	defer t.Stop()
	who := time.NewTicker(c.cfg.PrivilegeInterval)
	defer who.Stop()
	var retry <-chan time.Time
	backoff := time.Second
	for {
		select {
		case <-life.Done():
			return life.Err()
		case <-sess.done:
			return sess.err
		case <-t.C:
			ctx, cancel := context.WithTimeout(life, c.cfg.PongTimeout)
			_, err := sess.call(ctx, map[string]any{"type": "ping"}, nil)
			cancel()
			if err != nil && life.Err() == nil {
				e := &Error{Kind: KindTimeout, Op: "websocket ping", Err: err}
				sess.close(e)
				<-sess.done
				return sess.err
			}
		case <-who.C:
			// A user made an administrator while maison runs: the token
			// still works, and must not be used for anything more.
			ctx, cancel := context.WithTimeout(life, c.cfg.PongTimeout)
			_, err := currentUser(ctx, sess)
			cancel()
			var e *Error
			if errors.As(err, &e) && e.Kind == KindAdminToken && life.Err() == nil {
				sess.close(e)
				<-sess.done
				return e
			}
		case <-retry:
			retry = nil
			select {
			case c.regDirty <- struct{}{}:
			default:
			}
		case <-c.regDirty:
			ctx, cancel := context.WithTimeout(life, c.cfg.ReloadTimeout)
			reg, err := loadRegistries(ctx, sess)
			cancel()
			if err != nil {
				// Until a reload succeeds the registry may be wrong about
				// who is exposed: Entry says unknown (see regStale), and the
				// reload is tried again.
				c.log.Warn("registry reload failed; exposure unknown until it succeeds", "err", err, "retry_in", backoff)
				retry = time.After(backoff)
				backoff = min(2*backoff, 30*time.Second)
				continue
			}
			backoff = time.Second
			c.mu.Lock()
			c.reg, c.regStale = reg, false
			c.notifyLocked()
			c.mu.Unlock()
		}
	}
}

// attempt makes one full connection: dial, then the handshake (privilege check and configuration), the
// registries and their events, and the entity subscription up to the first state. On success the cache has
// been replaced and the status says connected.
func (c *Client) attempt(life context.Context) (*session, error) {
	ctx, cancel := context.WithTimeout(life, c.cfg.ConnectTimeout)
	defer cancel()
	if e := c.refusal(); e != nil {
		return nil, e
	}
	sess, version, err := dialSession(ctx, &c.cfg, c.base, c.wasConnected())
	if err != nil {
		if errors.Is(err, KindAuth) || errors.Is(err, KindLocalOnly) {
			c.refuse(asError(err))
		}
		return nil, err
	}
	w, err := c.welcome(ctx, sess, version)
	if err != nil {
		sess.close(asError(err))
		<-sess.done
		return nil, err
	}
	c.mu.Lock()
	c.everConnected, c.attemptFailed = true, false
	c.sess = sess
	c.mu.Unlock()
	c.setStatus(true, nil, false)
	c.log.Info("connected", "version", w.version, "user", w.user.Name)
	return sess, nil
}

// welcome is what a new session learns before its first state: who the token belongs to, Home Assistant's
// configuration and version, and the registries.
type welcome struct {
	user    User
	config  HAConfig
	version string
	reg     registries
}

// welcome runs a new session's commands in order and returns once the first state has replaced the cache.
// version is what the auth handshake announced; get_config's, when present, wins.
func (c *Client) welcome(ctx context.Context, sess *session, version string) (welcome, error) {
	w, err := handshake(ctx, sess, c.log)
	if err != nil {
		return w, err
	}
	if w.version == "" {
		w.version = version
	}
	if w.reg, err = loadRegistries(ctx, sess); err != nil {
		if !errors.Is(err, KindNotAllowed) {
			return w, err
		}
		c.log.Warn("registries unavailable; areas unknown", "err", err)
	}
	if err := c.watchRegistries(ctx, sess); err != nil {
		return w, err
	}
	return w, c.subscribeEntities(ctx, sess, w)
}

// currentUser reads the token's user, refusing an administrator or the
// owner (KindAdminToken).
func currentUser(ctx context.Context, sess *session) (User, error) {
	raw, err := sess.call(ctx, map[string]any{"type": "auth/current_user"}, nil)
	if err != nil {
		return User{}, err
	}
	var u struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		IsOwner bool   `json:"is_owner"`
		IsAdmin bool   `json:"is_admin"`
	}
	if err := json.Unmarshal(raw, &u); err != nil {
		return User{}, &Error{Kind: KindProtocol, Op: "websocket auth/current_user", Err: err}
	}
	if u.IsAdmin || u.IsOwner {
		return User{}, &Error{Kind: KindAdminToken, Op: "websocket auth/current_user",
			Err: fmt.Errorf("user %q is an administrator; create a non-admin, local-only user (Settings › People › add a person with \"Allow person to login\" and \"Can only log in from the local network\" on, \"Administrator\" off) and a long-lived token from that user's profile › Security, then set MAISON_HA_TOKEN", u.Name)}
	}
	return User{ID: u.ID, Name: u.Name}, nil
}

// handshake offers message coalescing, reads the current user (refusing an administrator, KindAdminToken)
// and Home Assistant's configuration.
func handshake(ctx context.Context, sess *session, log *slog.Logger) (welcome, error) {
	var w welcome
	if _, err := sess.call(ctx, map[string]any{"type": "supported_features", "features": map[string]int{"coalesce_messages": 1}}, nil); err != nil {
		if !refusedCommand(err) {
			return w, err
		}
		log.Debug("supported_features refused", "err", err)
	}
	u, err := currentUser(ctx, sess)
	if err != nil {
		return w, err
	}
	w.user = u
	raw, err := sess.call(ctx, map[string]any{"type": "get_config"}, nil)
	if err != nil {
		return w, err
	}
	var hc struct {
		LocationName string     `json:"location_name"`
		TimeZone     string     `json:"time_zone"`
		Language     string     `json:"language"`
		Version      string     `json:"version"`
		UnitSystem   UnitSystem `json:"unit_system"`
	}
	if err := json.Unmarshal(raw, &hc); err != nil {
		return w, &Error{Kind: KindProtocol, Op: "websocket get_config", Err: err}
	}
	w.version = hc.Version
	w.config = HAConfig{LocationName: hc.LocationName, TimeZone: hc.TimeZone, Language: hc.Language, UnitSystem: hc.UnitSystem}
	return w, nil
}

// watchRegistries subscribes to the registries' update events, which mark exposure stale and ask keepAlive
// for a reload. They are optional: without them the registries are only reloaded on reconnect.
func (c *Client) watchRegistries(ctx context.Context, sess *session) error {
	for _, ev := range []string{"area_registry_updated", "device_registry_updated", "entity_registry_updated", "floor_registry_updated"} {
		_, err := sess.call(ctx, map[string]any{"type": "subscribe_events", "event_type": ev}, func(json.RawMessage) {
			c.mu.Lock()
			c.regStale = true
			c.mu.Unlock()
			select {
			case c.regDirty <- struct{}{}:
			default:
			}
		})
		if err != nil {
			if !refusedCommand(err) {
				return err
			}
			c.log.Debug("registry events unavailable", "event_type", ev, "err", err)
		}
	}
	return nil
}

// subscribeEntities subscribes to entity changes and waits for the first event, which replaces the cache
// together with what w learned; later events patch it. The handler runs on the session's read loop.
func (c *Client) subscribeEntities(ctx context.Context, sess *session, w welcome) error {
	first := make(chan struct{})
	gotFirst := false
	handler := func(raw json.RawMessage) {
		var ev entityEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			c.log.Warn("bad entity event", "err", err)
			return
		}
		if !gotFirst {
			fresh := map[string]State{}
			if _, err := applyEvent(fresh, ev); err != nil {
				c.log.Warn("first entity event", "err", err)
			}
			gotFirst = true
			c.mu.Lock()
			c.states = fresh
			c.sessions++
			c.reg, c.regStale = w.reg, false
			c.user, c.version, c.haConfig = w.user, w.version, w.config
			c.notifyLocked()
			c.mu.Unlock()
			close(first)
			return
		}
		c.mu.Lock()
		changed, err := applyEvent(c.states, ev)
		if changed {
			c.notifyLocked()
		}
		c.mu.Unlock()
		if err != nil {
			c.log.Warn("entity event", "err", err)
		}
	}
	if _, err := sess.call(ctx, map[string]any{"type": "subscribe_entities"}, handler); err != nil {
		return err
	}
	select {
	case <-first:
		return nil
	case <-sess.done:
		return sess.err
	case <-ctx.Done():
		return classifyNetErr("websocket subscribe_entities", ctx.Err(), true)
	}
}

// asError returns err as an *Error, wrapping foreign errors as KindProtocol.
func asError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindProtocol, Err: err}
}
