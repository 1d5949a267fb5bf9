// Package door is maison's HTTP front: one MCP endpoint, POST /mcp,
// behind a bearer gate, limits, scopes and a Host and Origin check, plus
// /healthz, /readyz and, when on, the authorization server's paths.
// Everything else is 404.
//
// Every answer the door gives to /mcp in the MCP server's place is JSON-RPC
// in words: an error with the right status, or, for a call beyond the
// token's scopes, a tool result saying so. The token is checked on headers
// before any body is read; a right token is never refused for others'
// wrong ones.
package door

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/sync/semaphore"

	"maison/accesslog"
	"maison/voice"
	"maison/words"
)

// Config sets up the door.
type Config struct {
	// Token is the bearer token clients must send. Required unless NoAuth.
	Token string
	// NoAuth drops the bearer gate. The caller makes sure the listen address
	// is loopback (maison demo --no-auth).
	NoAuth bool
	// Verify checks a signed access token (from maison's authorization
	// server or `maison token`); any error refuses it. Nil means only Token.
	Verify func(token string) (*auth.TokenInfo, error)
	// OAuth serves the authorization server at OAuthPaths. Nil means off.
	OAuth      http.Handler
	OAuthPaths []string
	// ResourceMetadataURL is named in every challenge when OAuth is on, so a
	// client can discover how to get a token.
	ResourceMetadataURL string
	// Scopes are every scope there is, in the order they are offered. The
	// static Token is granted them all.
	Scopes []string
	// ToolScope says which scope a tool needs. Nil means the door checks no
	// scope (the MCP server still does).
	ToolScope func(tool string) (scope string, known bool)
	// ClientAddr names the address a request comes from, for the limit on
	// wrong tokens and for logs. Nil means the socket's (see ClientAddress).
	ClientAddr func(*http.Request) string
	// RateLimit is how many requests one client may make per RatePeriod
	// once its token is accepted; each call of a batch counts. Zero means
	// DefaultRateLimit, negative means no limit.
	RateLimit int
	// RatePeriod is the period of RateLimit. Zero means DefaultRatePeriod.
	RatePeriod time.Duration
	// MaxBatch is how many messages a batch may hold; a larger one is
	// refused whole. Zero means DefaultMaxBatch.
	MaxBatch int
	// MaxInFlight bounds the calls being answered at once, batches counted
	// call by call, which bounds memory whatever the mix; a request waits
	// up to QueueWait for room, then is told to retry. Zero means
	// DefaultMaxInFlight.
	MaxInFlight int
	// QueueWait is how long a request may wait for room. Zero means 10s.
	QueueWait time.Duration
	// Hosts are the host names, besides loopback names and IP addresses, a
	// request's Host and a browser's Origin may carry (see host.go): the
	// public URL's, this machine's and MAISON_ALLOWED_HOSTS, lower case.
	Hosts []string
	// Lang is the language of the door's words to a person. Empty means
	// English.
	Lang voice.Lang
	// Logger receives one line per request and summaries of refusals. Nil
	// means discard.
	Logger *slog.Logger
	// Now is the clock of the limits. Nil means time.Now.
	Now func() time.Time
}

// Defaults of Config.
const (
	// An agent that lists and inspects a house makes a hundred calls or
	// more in seconds: the budget lets such a burst through whole (the
	// official SDKs making 200 calls as fast as they can all finish within
	// it, BENCHMARKS.md) and holds one client to five a second after.
	DefaultRateLimit   = 300
	DefaultRatePeriod  = time.Minute
	DefaultMaxInFlight = 64
)

// How much of a text from outside (a name a client sent, an error's
// detail) the door repeats in an answer or a log line: at most these many
// runes, "…" included, of what a person sees of it (voice.Visible).
const (
	nameRunes   = 64  // a tool's or a method's name, a host, an origin, a path
	detailRunes = 201 // the detail of an error
)

// maxFailures is how many refused bearer tokens one address may send in a
// minute before it is told to wait: enough for a client with a stale token
// to notice. A right token is never refused: tokens are long and random
// (MAISON_TOKEN has at least 32 characters), so the limit is there to
// keep a guesser's noise down, not to stop a guess.
const maxFailures = 10

// Door is the HTTP handler in front of the MCP server.
type Door struct {
	cfg      Config
	log      *slog.Logger
	mux      *http.ServeMux
	mcp      http.Handler // behind the verified token
	open     http.Handler // the same, without a token (--no-auth)
	tokenSum []byte
	failures *limiter // wrong tokens, per address
	rate     *limiter // accepted requests, per client
	work     *semaphore.Weighted
	// bodies bounds the bytes of request bodies being read and held, so
	// that slow or large bodies cannot grow memory with the connections.
	bodies     *semaphore.Weighted
	bodyBudget int64
	bodyBytes  atomic.Int64 // taken of bodies
	bodyMu     sync.Mutex
	bodyBy     map[string]int64 // taken of bodies, by client, while nonzero
	refused    *accesslog.Refusals

	// drainMu orders Drain against requests coming in: once Drain has
	// returned no request is counted in busy any more, so busy only falls
	// and Wait cannot be starved by requests refused while draining.
	drainMu  sync.RWMutex
	draining atomic.Bool
	busy     atomic.Int64
	idle     chan struct{} // signalled when busy falls to zero
}

// New returns the door serving mcp at /mcp.
func New(cfg Config, mcp http.Handler) (*Door, error) {
	if !cfg.NoAuth && cfg.Token == "" && cfg.Verify == nil {
		return nil, errors.New("door: a bearer token is required (MAISON_TOKEN) unless --no-auth")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr, _ = ClientAddress("", nil)
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = DefaultRateLimit
	}
	if cfg.RatePeriod <= 0 {
		cfg.RatePeriod = DefaultRatePeriod
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	cfg.MaxBatch = min(cfg.MaxBatch, cfg.MaxInFlight)
	if cfg.RateLimit > 0 {
		// A batch over the whole rate budget could never pass.
		cfg.MaxBatch = min(cfg.MaxBatch, cfg.RateLimit)
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = 10 * time.Second
	}
	d := &Door{
		cfg: cfg, log: cfg.Logger, mcp: mcp, open: mcp,
		failures: newLimiter(maxFailures, time.Minute, cfg.Now),
		work:     semaphore.NewWeighted(int64(cfg.MaxInFlight)),
		bodies:   semaphore.NewWeighted(bodyBudget), bodyBudget: bodyBudget,
		refused: accesslog.NewRefusals(cfg.Logger, 0),
		idle:    make(chan struct{}, 1),
		bodyBy:  map[string]int64{},
	}
	if cfg.RateLimit > 0 {
		d.rate = newLimiter(cfg.RateLimit, cfg.RatePeriod, cfg.Now)
	}
	if cfg.Token != "" {
		sum := sha256.Sum256([]byte(cfg.Token))
		d.tokenSum = sum[:]
	}
	// The SDK takes the caller's identity from the request's context, where
	// only its own middleware can put it: hand it what the door verified.
	d.mcp = auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if ti, ok := ctx.Value(tokenInfoKey{}).(*auth.TokenInfo); ok {
			return ti, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mcp)
	d.mux = http.NewServeMux()
	d.mux.HandleFunc("/mcp", d.serveMCP)
	if cfg.OAuth != nil {
		for _, p := range cfg.OAuthPaths {
			d.mux.Handle(p, cfg.OAuth)
		}
	}
	d.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { plain(w, http.StatusOK, "ok") })
	d.mux.HandleFunc("GET /readyz", d.serveReady)
	return d, nil
}

// ServeHTTP serves every path. Every path but the health probes answers
// only to maison's own names (see rebound); /mcp says so in JSON-RPC, the
// others in a page. HTTP/2's opening line is answered 505 in JSON-RPC.
func (d *Door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor != 1 {
		// Go's server lets through only HTTP/2's opening line, "PRI *
		// HTTP/2.0" (an h2c client with prior knowledge), for a handler to
		// upgrade; maison speaks HTTP/1.1.
		w.Header().Set("Connection", "close")
		writeRPCError(w, http.StatusHTTPVersionNotSupported, nil, codeInvalidRequest, words.DoorHTTPVersion(d.cfg.Lang), 0)
		return
	}
	switch r.URL.Path {
	case "/mcp", "/healthz", "/readyz":
	default:
		if ref := d.rebound(r); ref != nil {
			d.pageRefused(w, r, ref)
			return
		}
	}
	d.mux.ServeHTTP(w, r)
}

// Drain stops taking new MCP requests: from now on they are answered 503
// with words saying to retry (another replica, or this one once it is
// back), and /readyz says not ready. Requests already inside go on.
func (d *Door) Drain() {
	d.drainMu.Lock()
	defer d.drainMu.Unlock()
	d.draining.Store(true)
}

// enter counts a request in busy unless the door is draining; a request
// not counted is refused as draining and is not waited for.
func (d *Door) enter() bool {
	d.drainMu.RLock()
	defer d.drainMu.RUnlock()
	if d.draining.Load() {
		return false
	}
	d.busy.Add(1)
	return true
}

// leave ends a request counted by enter.
func (d *Door) leave() {
	if d.busy.Add(-1) == 0 {
		select {
		case d.idle <- struct{}{}:
		default:
		}
	}
}

// InFlight is how many MCP requests are being answered.
func (d *Door) InFlight() int { return int(d.busy.Load()) }

// Wait blocks until no MCP request is inside, or ctx ends. Requests may
// keep arriving meanwhile: once draining they are refused and not waited
// for.
func (d *Door) Wait(ctx context.Context) error {
	for d.busy.Load() > 0 {
		select {
		case <-d.idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// serveReady is /readyz: ready while maison itself can answer. Home
// Assistant being down does not count: maison stays in rotation to say so.
func (d *Door) serveReady(w http.ResponseWriter, _ *http.Request) {
	if d.draining.Load() {
		plain(w, http.StatusServiceUnavailable, "draining: maison is shutting down")
		return
	}
	plain(w, http.StatusOK, "ready")
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write([]byte(text + "\n"))
}

// request is what the door learns of one request, for its log line.
type request struct {
	start  time.Time
	addr   string
	client string
	name   string // the client's name for itself, when its token says
	authed bool   // a right token was shown, or none is needed
	in     int
	body   body
	key    string // whose budgets the request spends
	held   int64  // bytes of the body budget this request holds
	entry  accesslog.Entry
}

func (d *Door) serveMCP(w http.ResponseWriter, r *http.Request) {
	if d.enter() {
		defer d.leave()
	}
	q := &request{start: time.Now(), addr: d.cfg.ClientAddr(r), client: "-"}
	defer func() { d.releaseBody(q, q.held) }()
	if ref := d.admit(w, r, q); ref != nil {
		d.refuse(w, r, q, ref)
		return
	}
	rec := &recorder{ResponseWriter: w, id: q.body.id(), method: q.body.method(), lang: d.cfg.Lang, draining: &d.draining}
	next := d.mcp
	if d.cfg.NoAuth {
		next = d.open
	}
	next.ServeHTTP(rec, r.WithContext(accesslog.NewContext(r.Context(), &q.entry)))
	rec.finish()
	d.work.Release(int64(q.body.calls()))
	d.logServed(q, rec)
}

// admit runs every check in order, cheapest first, and returns the refusal
// of the first that fails. On success the body is read and checked, the
// request holds its room in the work budget, and r carries the token.
func (d *Door) admit(w http.ResponseWriter, r *http.Request, q *request) *refusal {
	if ref := d.rebound(r); ref != nil {
		return ref
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return &refusal{status: http.StatusMethodNotAllowed, code: codeInvalidRequest, reason: "method not POST",
			msg: words.DoorNotPost(d.cfg.Lang)}
	}
	if d.cfg.NoAuth && !loopbackName(r.Host) {
		// Without a token, only this machine may call; a page that rebinds
		// its own name to 127.0.0.1 still sends that name as Host.
		return &refusal{status: http.StatusForbidden, code: codeForbidden, reason: "host not loopback",
			msg: words.DoorNotLoopback(d.cfg.Lang)}
	}
	if d.draining.Load() {
		return &refusal{status: http.StatusServiceUnavailable, code: codeUnavailable, reason: "shutting down", retry: time.Second,
			msg: words.DoorShuttingDown(d.cfg.Lang)}
	}
	key := q.addr
	if !d.cfg.NoAuth {
		ti, presented := d.authorized(r)
		if ti == nil {
			return d.unauthorized(w, q, presented)
		}
		q.authed = true
		q.client, _ = ti.Extra["client_id"].(string)
		q.name, _ = ti.Extra["client_name"].(string)
		if sub, _ := ti.Extra["sub"].(string); sub != "" {
			key = "client:" + q.client + "|" + sub
		} else {
			key = "client:" + q.client
		}
		*r = *r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, ti))
	} else {
		q.authed, q.client = true, "local"
	}
	if ref := contentType(r, d.cfg.Lang); ref != nil {
		return d.charge(key, ref)
	}
	q.key = key
	if ref := d.reserveBody(r, q); ref != nil {
		return ref // maison's own lack of room: not the client's doing
	}
	raw, ref := readBody(w, r, d.cfg.Lang)
	if ref != nil {
		return d.charge(key, ref)
	}
	d.releaseBody(q, q.held-int64(len(raw))) // what a body declared and did not bring
	q.in = len(raw)
	if q.body, ref = inspect(raw, d.cfg.MaxBatch, d.cfg.Lang); ref != nil {
		return d.charge(key, ref)
	}
	if d.rate != nil {
		if ok, wait := d.rate.take(key, q.body.calls()); !ok && !q.body.opening() {
			return d.slowDown(q, r, wait)
		}
	}
	if ti, ok := r.Context().Value(tokenInfoKey{}).(*auth.TokenInfo); ok {
		if ref := d.bodyScope(q, ti, r); ref != nil {
			return ref
		}
	}
	r.Body = readerOf(raw)
	r.ContentLength = int64(len(raw))
	wait, cancel := context.WithTimeout(r.Context(), d.cfg.QueueWait)
	defer cancel()
	if d.work.Acquire(wait, int64(q.body.calls())) != nil {
		return d.tooBusy(q.body.id())
	}
	return nil
}

// charge counts a refused request against its client's budget: every
// request counts, malformed, oversize or mistyped ones too.
func (d *Door) charge(key string, ref *refusal) *refusal {
	if d.rate != nil {
		d.rate.take(key, 1)
	}
	return ref
}

// bodyBudget is how many bytes of request bodies the door reads and holds
// at once: sixteen of the largest, or thousands of ordinary ones. One
// client may hold a quarter of it (bodyShare), so that one trickling large
// bodies cannot keep the others waiting.
const (
	bodyBudget = 16 * maxBody
	bodyShare  = bodyBudget / 4
)

// reserveBody waits, up to QueueWait, for room in the body budget for r's
// body: its declared length, or the largest body when it declares none.
func (d *Door) reserveBody(r *http.Request, q *request) *refusal {
	need := int64(maxBody)
	switch {
	case r.ContentLength == 0, r.ContentLength > maxBody: // nothing to read, or refused unread
		return nil
	case r.ContentLength > 0:
		need = r.ContentLength
	}
	d.bodyMu.Lock()
	mine := d.bodyBy[q.key]
	if mine+need > bodyShare {
		d.bodyMu.Unlock()
		return &refusal{status: http.StatusTooManyRequests, code: codeTooMany, reason: "too many large bodies at once from this client", retry: time.Second,
			msg: words.DoorBodiesHeld(d.cfg.Lang, int(mine>>10))}
	}
	d.bodyBy[q.key] = mine + need
	d.bodyMu.Unlock()
	wait, cancel := context.WithTimeout(r.Context(), d.cfg.QueueWait)
	defer cancel()
	if d.bodies.Acquire(wait, need) != nil {
		d.unshare(q, need)
		return d.tooBusy(nil)
	}
	q.held = need
	d.bodyBytes.Add(need)
	return nil
}

// unshare takes n bytes off q's client's share.
func (d *Door) unshare(q *request, n int64) {
	d.bodyMu.Lock()
	defer d.bodyMu.Unlock()
	if d.bodyBy[q.key] -= n; d.bodyBy[q.key] <= 0 {
		delete(d.bodyBy, q.key)
	}
}

// releaseBody gives n bytes q holds back to the body budget.
func (d *Door) releaseBody(q *request, n int64) {
	if n <= 0 {
		return
	}
	q.held -= n
	d.bodyBytes.Add(-n)
	d.unshare(q, n)
	d.bodies.Release(n)
}

// tooBusy refuses a request that found no room within QueueWait.
func (d *Door) tooBusy(id json.RawMessage) *refusal {
	return &refusal{status: http.StatusServiceUnavailable, code: codeUnavailable, reason: "busy", retry: 2 * time.Second, id: id,
		msg: words.DoorBusy(d.cfg.Lang, d.cfg.QueueWait)}
}

// bodiesHeld is how many bytes of the body budget are taken.
func (d *Door) bodiesHeld() int64 { return d.bodyBytes.Load() }

// refuse answers a refusal and accounts for it: a refusal the client caused
// by being unknown or too fast is summarised, others get their line.
func (d *Door) refuse(w http.ResponseWriter, r *http.Request, q *request, ref *refusal) {
	if d.draining.Load() {
		// The client is told to keep no connection to a server stopping.
		w.Header().Set("Connection", "close")
	}
	if q.in == 0 && (r.ContentLength != 0 || !q.authed) {
		// The body was not read: close the connection after the answer.
		// Go's server would otherwise read up to 256 KB of the unread
		// body before closing, for as long as a slow or hostile client
		// takes to trickle it; a read deadline already passed stops that.
		// A caller without a right token loses its connection even with
		// no body: a refused request must not buy a stranger a minute of
		// keep-alive, or strangers hold every connection maison may open.
		w.Header().Set("Connection", "close")
		defer http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	c := &counter{ResponseWriter: w}
	answer(c, ref)
	switch {
	case ref.status == http.StatusUnauthorized, ref.status == http.StatusTooManyRequests, ref.status == http.StatusServiceUnavailable, ref.code == codeTooMany:
		if d.refused.Note(ref.reason, q.addr) {
			d.log.Info("request refused", "reason", ref.reason, "remote", q.addr, "client", q.client)
		}
	default:
		d.logLine(q, ref.status, "refused: "+ref.reason, c.n)
	}
}

// logServed writes the one line of a request the MCP server answered.
func (d *Door) logServed(q *request, rec *recorder) {
	_, outcomes, _ := q.entry.Calls()
	outcome := "ok"
	switch {
	case rec.status >= 400:
		outcome = "refused by the MCP handler"
	case len(outcomes) == 1:
		outcome = outcomes[0]
	case len(outcomes) > 1:
		outcome = strings.Join(outcomes, ",")
	}
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	d.logLine(q, status, outcome, rec.bytes)
}

// logLine writes the one line of a request, answered or refused: the
// client (its id and the name it gives), the method, the tools it called
// and what they looked at or acted on, and how it ended.
func (d *Door) logLine(q *request, status int, outcome string, out int) {
	tools, _, attrs := q.entry.Calls()
	line := []any{"client", q.client}
	if q.name != "" {
		line = append(line, "client_name", voice.Visible(q.name, nameRunes))
	}
	line = append(line, "remote", q.addr, "method", methodOf(q.body))
	if len(tools) > 0 {
		line = append(line, "tool", strings.Join(tools, ","))
	}
	line = append(line, attrs...)
	line = append(line, "status", status, "outcome", outcome, "took", time.Since(q.start).Round(time.Microsecond), "in", q.in, "out", out)
	d.log.Info("request", line...)
}

// methodOf names a body's method for a log line.
func methodOf(b body) string {
	switch {
	case len(b.msgs) == 0:
		return "-"
	case b.batch:
		return "batch of " + strconv.Itoa(len(b.msgs))
	}
	return voice.Visible(b.msgs[0].Method, nameRunes)
}

type tokenInfoKey struct{}

// staticClient is what logs and tools call the holder of MAISON_TOKEN.
const staticClient = "bearer-token"

// authorized checks the bearer token: the static token, compared in
// constant time, or a signed access token. It reports whether a token was
// presented at all.
func (d *Door) authorized(r *http.Request) (*auth.TokenInfo, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, r.Header.Get("Authorization") != ""
	}
	token = strings.TrimSpace(token)
	sum := sha256.Sum256([]byte(token))
	if d.tokenSum != nil && subtle.ConstantTimeCompare(sum[:], d.tokenSum) == 1 {
		return &auth.TokenInfo{
			Scopes: d.cfg.Scopes, UserID: staticClient,
			Extra: map[string]any{"client_id": staticClient, "client_name": "MAISON_TOKEN"},
		}, true
	}
	if d.cfg.Verify != nil {
		if ti, err := d.cfg.Verify(token); err == nil && ti != nil {
			return ti, true
		}
	}
	return nil, true
}

// unauthorized refuses a request without a right token: 401 with a
// challenge a client can act on (with OAuth on, where to discover the
// authorization server and which scopes exist, RFC 9728), or 429 once its
// address has sent too many wrong tokens. Only wrong tokens are counted,
// per address; a right token never meets this.
func (d *Door) unauthorized(w http.ResponseWriter, q *request, presented bool) *refusal {
	if presented {
		if over, wait := d.failures.over(q.addr); over {
			return &refusal{status: http.StatusTooManyRequests, code: codeTooMany, reason: "too many wrong tokens from this address", retry: wait,
				msg: words.DoorWrongTokens(d.cfg.Lang, wait.Round(time.Second)+time.Second)}
		}
		d.failures.take(q.addr, 1)
	}
	reason := "wrong or expired token"
	if !presented {
		// Some clients obtain a token and then do not send it: say so apart
		// from a plain wrong token.
		reason = "no Authorization header (discovery, or a client that did not send its token)"
	}
	if d.cfg.ResourceMetadataURL == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="maison"`)
	} else {
		c := `Bearer resource_metadata="` + d.cfg.ResourceMetadataURL + `", scope="` + strings.Join(d.cfg.Scopes, " ") + `"`
		if presented {
			c += `, error="invalid_token", error_description="the access token is not valid or has expired"`
		}
		w.Header().Set("WWW-Authenticate", c)
	}
	msg := words.DoorNoToken(d.cfg.Lang, d.cfg.ResourceMetadataURL != "", presented)
	return &refusal{status: http.StatusUnauthorized, code: codeUnauthorized, reason: reason, msg: msg}
}

// loopbackName reports whether host[:port] names this machine.
func loopbackName(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
