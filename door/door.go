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
	if d.cfg.NoAuth && !loopbackName(r.Host) {
		// Without a token, only this machine may call; a page that rebinds
		// its own name to 127.0.0.1 still sends that name as Host.
		d.log.Warn("request refused: host not loopback", "host", r.Host, "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: without a token maison answers only to localhost", http.StatusForbidden)
		return
	}
	if d.cfg.NoAuth {
		d.mcp.ServeHTTP(w, r)
		return
	}
	host := remoteHost(r)
	if d.failures.over(host) {
		d.log.Warn("request refused: too many wrong tokens", "remote", host)
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too Many Requests: too many wrong tokens from this address; wait a minute", http.StatusTooManyRequests)
		return
	}
	if !d.authorized(r) {
		d.failures.count(host)
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
