// Package door is maison's HTTP front: one MCP endpoint, POST /mcp, behind a
// bearer gate and an Origin check, plus /healthz. Everything else is 404.
package door

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Config sets up the door.
type Config struct {
	// Token is the bearer token clients must send. Required unless NoAuth.
	Token string
	// NoAuth drops the bearer gate. The caller makes sure the listen address
	// is loopback (maison demo --no-auth).
	NoAuth bool
	// AllowedOrigins lists browser origins allowed besides the server's own
	// (scheme://host[:port]). Requests without an Origin header are allowed:
	// MCP clients outside browsers do not send one.
	AllowedOrigins []string
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
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", d.serveMCP)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	return mux, nil
}

type door struct {
	cfg      Config
	log      *slog.Logger
	mcp      http.Handler
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
	if !d.cfg.NoAuth && !d.authorized(r) {
		host := remoteHost(r)
		if !d.failures.allow(host) {
			d.log.Warn("request refused: too many wrong tokens", "remote", host)
			w.Header().Set("Retry-After", "60")
			http.Error(w, "Too Many Requests: too many wrong tokens from this address; wait a minute", http.StatusTooManyRequests)
			return
		}
		reason := "missing bearer token"
		if r.Header.Get("Authorization") != "" {
			reason = "wrong bearer token"
		}
		d.log.Info("request refused", "reason", reason, "remote", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="maison"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token>, the token maison printed at start or MAISON_TOKEN", http.StatusUnauthorized)
		return
	}
	d.mcp.ServeHTTP(w, r)
}

// authorized compares the bearer token in constant time.
func (d *door) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(sum[:], d.tokenSum) == 1
}

// originAllowed accepts the server's own origin and the configured ones.
func (d *door) originAllowed(origin string, r *http.Request) bool {
	if slices.Contains(d.cfg.AllowedOrigins, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// remoteHost is the client's address without its port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
