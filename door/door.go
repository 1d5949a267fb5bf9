// Package door is maison's HTTP front: one MCP endpoint, POST /mcp, behind a
// bearer gate, scopes and an Origin check, plus /healthz and, when on, the
// authorization server's paths. Everything else is 404.
package door

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
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
	// Logger records refusals. Nil means discard.
	Logger *slog.Logger
}

// New returns the HTTP handler serving mcp at /mcp.
func New(cfg Config, mcp http.Handler) (http.Handler, error) {
	if !cfg.NoAuth && cfg.Token == "" {
		return nil, errors.New("door: a bearer token is required (MAISON_TOKEN) unless --no-auth")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &door{cfg: cfg, log: log, mcp: mcp, failures: newLimiter(maxFailures, time.Minute, time.Now)}
	if cfg.Token != "" {
		sum := sha256.Sum256([]byte(cfg.Token))
		d.tokenSum = sum[:]
	}
	// The SDK takes the caller's identity from the request's context, where
	// only its own middleware can put it: hand it what the door verified.
	d.open = mcp
	d.mcp = auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if ti, ok := ctx.Value(tokenInfoKey{}).(*auth.TokenInfo); ok {
			return ti, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mcp)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", d.serveMCP)
	if cfg.OAuth != nil {
		for _, p := range cfg.OAuthPaths {
			mux.Handle(p, cfg.OAuth)
		}
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	return mux, nil
}

type door struct {
	cfg      Config
	log      *slog.Logger
	mcp      http.Handler // behind the verified token
	open     http.Handler // the same, without a token (--no-auth)
	tokenSum []byte
	failures *limiter
}

// maxFailures is how many refused bearer tokens one address may send in a
// minute before it is told to wait: enough for a client with a stale token
// to notice, far too few to guess one.
const maxFailures = 10

func (d *door) serveMCP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "maison speaks MCP over POST only; GET and DELETE are not used (stateless server, no SSE)", http.StatusMethodNotAllowed)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !d.originAllowed(origin, r) {
		d.log.Warn("request refused: origin not allowed", "origin", origin, "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: this Origin may not call maison", http.StatusForbidden)
		return
	}
	if d.cfg.NoAuth && !loopbackName(r.Host) {
		// Without a token, only this machine may call; a page that rebinds
		// its own name to 127.0.0.1 still sends that name as Host.
		d.log.Warn("request refused: host not loopback", "host", r.Host, "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: without a token maison answers only to localhost", http.StatusForbidden)
		return
	}
	if d.cfg.NoAuth {
		d.open.ServeHTTP(w, r)
		return
	}
	host := remoteHost(r)
	if d.failures.over(host) {
		d.log.Warn("request refused: too many wrong tokens", "remote", host)
		refuseUnread(w)
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too Many Requests: too many wrong tokens from this address; wait a minute", http.StatusTooManyRequests)
		return
	}
	ti, presented := d.authorized(r)
	if ti == nil {
		d.failures.count(host)
		d.unauthorized(w, r, presented)
		return
	}
	if !d.scopesAllow(w, r, ti) {
		return
	}
	d.mcp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, ti)))
}

type tokenInfoKey struct{}

// staticClient is what logs and tools call the holder of MAISON_TOKEN.
const staticClient = "bearer-token"

// authorized checks the bearer token: the static token, compared in
// constant time, or a signed access token. It reports whether a token was
// presented at all.
func (d *door) authorized(r *http.Request) (*auth.TokenInfo, bool) {
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

// unauthorized answers 401 with a challenge a client can act on: with
// OAuth on, where to discover the authorization server and which scopes
// exist (RFC 9728), and whether the token it sent was refused.
func (d *door) unauthorized(w http.ResponseWriter, r *http.Request, presented bool) {
	refuseUnread(w)
	if presented {
		d.log.Info("request refused", "reason", "invalid or expired bearer token", "remote", r.RemoteAddr)
	} else {
		// Some clients obtain a token and then do not send it: say so apart
		// from a plain wrong token.
		d.log.Info("request refused", "reason", "no Authorization header (discovery, or a client that did not send its token)", "remote", r.RemoteAddr)
	}
	if d.cfg.ResourceMetadataURL == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="maison"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token>, the token maison printed at start or MAISON_TOKEN", http.StatusUnauthorized)
		return
	}
	c := `Bearer resource_metadata="` + d.cfg.ResourceMetadataURL + `", scope="` + strings.Join(d.cfg.Scopes, " ") + `"`
	if presented {
		c += `, error="invalid_token", error_description="the access token is not valid or has expired"`
	}
	w.Header().Set("WWW-Authenticate", c)
	http.Error(w, "Unauthorized: connect through OAuth (the Claude app does this for you) or send Authorization: Bearer <token>", http.StatusUnauthorized)
}

// originAllowed accepts a browser Origin only from this machine, or from the
// server's own origin when a token guards the door (a rebinding page cannot
// know the token). MCP clients outside browsers send no Origin.
func (d *door) originAllowed(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if loopbackName(u.Host) {
		return true
	}
	return !d.cfg.NoAuth && strings.EqualFold(u.Host, r.Host)
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

// remoteHost is the client's address without its port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// refuseUnread marks an answer given without reading the request's body:
// the connection closes after it, so the server does not first wait for a
// body that a slow or hostile client may never finish sending.
func refuseUnread(w http.ResponseWriter) { w.Header().Set("Connection", "close") }
