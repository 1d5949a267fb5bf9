// Package oauth is maison's own OAuth 2.1 authorization server, with no
// database: client ids, authorization codes, access and refresh tokens are
// small HMAC-signed objects (see Keys), and rotating the secret revokes them
// all. Login failures and registration budgets are counted in the state
// store (shared by replicas that share it); used codes and refresh tokens
// and families revoked after a replay live in bounded memory, per replica.
//
// It serves discovery (RFC 9728 protected resource metadata, RFC 8414
// authorization server metadata, also at the OpenID path), registration
// (RFC 7591, the client id carrying its own redirect URIs) and client ID
// metadata documents, one human page at /authorize (the operator password
// or Cloudflare Access, the scopes ticked by a person), and /token (PKCE S256
// only, required of every public client; single-use codes, one-hour access
// tokens, rotated refresh tokens).
// The resource server side is Verify.
package oauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"maison/accesslog"
	"maison/internal/redact"
	"maison/internal/scope"
	"maison/state"
	"maison/voice"
)

// Scopes maison grants (internal/scope names them for every part).
const (
	ScopeRead    = scope.Read    // cameras, states, descriptions
	ScopeControl = scope.Control // actions
)

// AllScopes is every scope, in the order they are offered.
var AllScopes = scope.All()

// Lifetimes.
const (
	CodeTTL    = 5 * time.Minute
	AccessTTL  = time.Hour
	RefreshTTL = 30 * 24 * time.Hour // absolute: rotation never extends it
	txTTL      = 10 * time.Minute
)

// Config sets up the authorization server.
type Config struct {
	// Issuer is the public origin clients reach maison at, such as
	// https://maison.example.com: no path, no trailing slash
	// (MAISON_PUBLIC_URL). The protected resource is Issuer + "/mcp".
	// Empty means none: only tokens of `maison token` then verify.
	Issuer string
	// Secret signs everything (MAISON_SECRET); Previous, when set, still
	// verifies during a rotation (MAISON_SECRET_PREVIOUS).
	Secret, Previous []byte
	// Password is the operator password the human page asks for
	// (MAISON_OPERATOR_PASSWORD). Empty means no password.
	Password string
	// Access, when set, makes the human page trust Cloudflare Access.
	Access *AccessConfig
	// RedirectURIs are exact redirect URIs the operator allows beyond the
	// Claude app's callbacks and loopback ones (MAISON_REDIRECT_URIS), such
	// as Home Assistant's https://my.home-assistant.io/redirect/oauth.
	RedirectURIs []string
	// Lang is the sign-in page's language when the browser asks for none
	// maison speaks (MAISON_LANG). Empty means English.
	Lang voice.Lang
	// MetadataFetch configures fetching client ID metadata documents.
	MetadataFetch FetchConfig
	// ClientAddr names the address a request comes from, for lockouts and
	// rate limits. Nil means the socket's address.
	ClientAddr func(*http.Request) string
	// Logger receives what happened, never a secret. Nil means discard.
	Logger *slog.Logger
	// Now is the clock. Nil means time.Now.
	Now func() time.Time
	// Store keeps the sign-in's lockouts and the registration budgets
	// (MAISON_STATE_DIR, MAISON_STATE_URL): replicas sharing it count
	// together, and a restart on a file forgets nothing. Nil means this
	// process's memory.
	Store state.Store
}

// Server is the authorization server and the verifier of what it signs. It
// is safe for concurrent use.
type Server struct {
	cfg      Config
	keys     *Keys
	log      *slog.Logger
	now      func() time.Time
	issuer   string
	resource string
	lang     voice.Lang // of the human page

	cimd    *fetcher
	access  *accessVerifier
	used    *expiringSet // jti of codes and refresh tokens already used
	revoked *expiringSet // grant families revoked after a replay
	logins  *loginGuard
	refused *accesslog.Refusals // floods of refusals summarised
	limits  *limits
}

// New checks cfg and returns the server. The human page (and so every
// endpoint but verification) is on only when a password or Cloudflare
// Access is configured: see Enabled.
func New(cfg Config) (*Server, error) {
	issuer, resource := noIssuer, noIssuer+":mcp"
	if cfg.Issuer != "" {
		var err error
		if issuer, err = CheckIssuer(cfg.Issuer); err != nil {
			return nil, err
		}
		resource = issuer + "/mcp"
	} else if cfg.Password != "" || cfg.Access != nil {
		return nil, errors.New("oauth: the sign-in page needs MAISON_PUBLIC_URL, the public https origin clients reach maison at, such as https://maison.example.com")
	}
	keys, err := NewKeys(cfg.Secret, cfg.Previous)
	if err != nil {
		return nil, err
	}
	if cfg.Password != "" {
		if err := checkPassword(cfg.Password); err != nil {
			return nil, err
		}
	}
	for _, u := range cfg.RedirectURIs {
		if err := checkExtraRedirect(u); err != nil {
			return nil, err
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = socketAddr
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg: cfg, keys: keys, log: log, now: cfg.Now,
		issuer: issuer, resource: resource,
		lang:    cfg.Lang,
		used:    newExpiringSet(200_000, cfg.Now),
		revoked: newExpiringSet(50_000, cfg.Now),
		logins:  newLoginGuard(cfg.Now, cfg.Store),
		limits:  newLimits(cfg.Now, cfg.Store),
		refused: accesslog.NewRefusals(log, 0),
	}
	s.cimd = newFetcher(cfg.MetadataFetch, cfg.Now)
	if cfg.Access != nil {
		if s.access, err = newAccessVerifier(*cfg.Access, cfg.Now); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// noIssuer names maison when it has no public URL: tokens from
// `maison token` are then bound to it, and no authorization server runs.
const noIssuer = "urn:maison"

// CheckIssuer returns the issuer as maison uses it: an https origin (http
// only on loopback), without path, query or trailing slash.
func CheckIssuer(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", fmt.Errorf("oauth: MAISON_PUBLIC_URL %q: give the bare public origin, such as https://maison.example.com (no path, no user name)", redact.URL(raw))
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
	default:
		return "", fmt.Errorf("oauth: MAISON_PUBLIC_URL %q: use https (plain http only for a loopback address, for tests)", redact.URL(raw))
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host), nil
}

// Enabled reports whether the authorization server's endpoints are on: a
// human page needs a way to tell the operator from anyone else.
func (s *Server) Enabled() bool { return s.cfg.Password != "" || s.access != nil }

// Issuer is the issuer identifier, the bare public origin.
func (s *Server) Issuer() string { return s.issuer }

// Resource is the protected resource, the MCP endpoint's URL.
func (s *Server) Resource() string { return s.resource }

// ResourceMetadataURL is where the protected resource metadata lives.
func (s *Server) ResourceMetadataURL() string {
	return s.issuer + "/.well-known/oauth-protected-resource/mcp"
}

// Handler serves the well-known documents, /authorize, /token and /register.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	prm := cors(http.HandlerFunc(s.serveResourceMetadata))
	mux.Handle("/.well-known/oauth-protected-resource/mcp", prm)
	mux.Handle("/.well-known/oauth-protected-resource", prm)
	asm := cors(http.HandlerFunc(s.serveServerMetadata))
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		mux.Handle(p, asm)
		mux.Handle(p+"/mcp", asm) // clients that build the path from the resource
	}
	mux.HandleFunc("/authorize", s.serveAuthorize)
	mux.Handle("/token", cors(http.HandlerFunc(s.serveToken)))
	mux.Handle("/register", cors(http.HandlerFunc(s.serveRegister)))
	return mux
}

// Paths lists every path Handler serves, for mounting.
var Paths = []string{
	"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource",
	"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration",
	"/.well-known/oauth-authorization-server/mcp", "/.well-known/openid-configuration/mcp",
	"/authorize", "/token", "/register",
}

// cors lets browser-based clients read the public documents and call
// /token and /register (which carry no cookies).
func cors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Protocol-Version")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) serveResourceMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 s.resource,
		"authorization_servers":    []string{s.issuer},
		"scopes_supported":         AllScopes,
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "maison",
	})
}

func (s *Server) serveServerMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         s.issuer,
		"authorization_endpoint":                         s.issuer + "/authorize",
		"token_endpoint":                                 s.issuer + "/token",
		"registration_endpoint":                          s.issuer + "/register",
		"scopes_supported":                               AllScopes,
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"code_challenge_methods_supported":               []string{"S256"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	})
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	w.Header().Set("Connection", "close") // the body is not read: do not wait for it
	http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
}

// socketAddr is the request's address without its port.
func socketAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isLoopbackHost reports whether host (without port) names this machine.
func isLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// randomID returns n random bytes, URL-safe.
func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return b64.EncodeToString(b)
}

// grantedScopes keeps the known scopes of a space-separated list, in
// maison's order, without duplicates.
func grantedScopes(list string) []string {
	f := strings.Fields(list)
	var out []string
	for _, s := range AllScopes {
		if slices.Contains(f, s) {
			out = append(out, s)
		}
	}
	return out
}

// logRefusal writes a refusal's line when it is the first of its kind (msg,
// a fixed text) in a minute; later ones are counted into one summary line.
// A flood of refused requests writes a few lines, not one each.
func (s *Server) logRefusal(level slog.Level, addr, msg string, attrs ...any) {
	if s.refused.Note(msg, addr) {
		s.log.Log(context.Background(), level, msg, append(attrs, "remote", addr)...)
	}
}
