package oauth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"maison/internal/redact"
	"maison/state"
	"maison/voice"
	"maison/words"
)

// The Claude app's callbacks, allowed without configuration.
var claudeCallbacks = []string{
	"https://claude.ai/api/mcp/auth_callback",
	"https://claude.com/api/mcp/auth_callback",
}

// client is a client as maison knows it for one request.
type client struct {
	ID        string   // as the client sends it
	Label     string   // what logs and tokens call it: the document URL, or dcr-<digest>
	Name      string   // the name it gives itself, cleaned; unverified for registered clients
	Redirects []string // registered redirect URIs
	Method    string   // token endpoint auth method: none, client_secret_basic or client_secret_post
	Document  bool     // identified by a metadata document URL
}

// key is the stable digest of the client id that signed objects carry.
func (c client) key() string { return digest(c.ID) }

type clientClaims struct {
	Redirects []string `json:"r"`
	Name      string   `json:"n,omitempty"`
	Method    string   `json:"m"`
	IssuedAt  int64    `json:"iat"`
	Nonce     string   `json:"j"`
}

const (
	maxRedirects   = 8
	maxRedirectLen = 512
	// maxRedirectsLen bounds them together, so a client id (which carries
	// them) and a page's transaction stay small.
	maxRedirectsLen = 2048
	maxNameRunes    = 81 // a client's name: 80 runes, then "…" where cut
	maxJSONBody     = 16 << 10
	maxFormBody     = 32 << 10
	bodyDeadline    = 10 * time.Second
)

// errUnknownClient is any client id maison cannot vouch for.
var errUnknownClient = errors.New("oauth: unknown client")

// resolveClient finds the client an id stands for: a registered client's
// signed id, or a metadata document's URL, fetched with strict limits.
func (s *Server) resolveClient(ctx context.Context, id string) (client, error) {
	switch {
	case strings.HasPrefix(id, "https://"):
		doc, err := s.cimd.get(ctx, id)
		if err != nil {
			return client{}, err
		}
		return client{ID: id, Label: id, Name: doc.Name, Redirects: doc.Redirects, Method: "none", Document: true}, nil
	default:
		c, ok := s.registered(id)
		if !ok {
			return client{}, errUnknownClient
		}
		return c, nil
	}
}

// registered reads a registered client's signed id.
func (s *Server) registered(id string) (client, bool) {
	var c clientClaims
	if s.keys.verify(kindClient, id, &c) != nil {
		return client{}, false
	}
	return client{ID: id, Label: "dcr-" + digest(id)[:12], Name: c.Name, Redirects: c.Redirects, Method: c.Method}, true
}

// postWithin admits a POST within its sender address's budget, or answers
// in words that this address spent it.
func (s *Server) postWithin(w http.ResponseWriter, r *http.Request, budget *window) (addr string, ok bool) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST")
		return "", false
	}
	addr = s.cfg.ClientAddr(r)
	if ok, wait := budget.allow(addr); !ok {
		s.refuseBudget(w, r, addr, wait, "this address")
		return addr, false
	}
	return addr, true
}

// refuseBudget answers a POST over its sender's budget, saying whose.
func (s *Server) refuseBudget(w http.ResponseWriter, r *http.Request, addr string, wait time.Duration, whose string) {
	s.logRefusal(slog.LevelWarn, addr, "request refused: too many from "+whose+" to "+r.URL.Path)
	tooMany(w, wait, "Too many requests from "+whose+" within a minute.")
}

// network names the group of addresses a registration budget counts: an
// IPv4 /24, an IPv6 /56 (what one subscriber usually holds).
func network(addr string) string { return addressGroup(addr, 24, 56) }

// serveRegister is dynamic client registration (RFC 7591). Nothing is
// stored: the client id is the signed registration. Each network has its
// budget, so a stranger spends only their own; the ceiling over all of them
// is reached only by a flood far beyond any real use, and refuses only
// networks past their first freeRegistrations of the minute.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST")
		return
	}
	addr := s.cfg.ClientAddr(r)
	n, ok, wait, shared, err := s.limits.register.take(network(addr))
	if err == nil && !ok && !shared {
		s.refuseBudget(w, r, addr, wait, "this network (addresses sharing the first 24 bits, or 56 for IPv6)")
		return
	}
	if err == nil && ok && n >= freeRegistrations {
		_, ok, wait, _, err = s.limits.registerAll.take("all")
	}
	if err != nil {
		s.logRefusal(slog.LevelWarn, addr, "registration refused: the store of budgets cannot count it", "err", err)
		slowDown(w, time.Minute, words.StoreTrouble(s.lang, errors.Is(err, state.ErrFull)))
		return
	}
	if !ok { // the ceiling, or more networks than maxKeys sharing one count
		s.logRefusal(slog.LevelWarn, addr, "registration refused: maison is flooded with registrations from many networks")
		slowDown(w, wait, words.SignInRegistrationFlood(s.lang, wait))
		return
	}
	var req struct {
		RedirectURIs  []string `json:"redirect_uris"`
		ClientName    string   `json:"client_name"`
		AuthMethod    string   `json:"token_endpoint_auth_method"`
		GrantTypes    []string `json:"grant_types"`
		ResponseTypes []string `json:"response_types"`
		Scope         string   `json:"scope"`
	}
	body, err := readBody(w, r, maxJSONBody, "application/json")
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", err.Error())
		return
	}
	if err := json.Unmarshal(body, &req); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "The body is not a JSON object of client metadata.")
		return
	}
	total := 0
	for _, u := range req.RedirectURIs {
		total += len(u)
	}
	if len(req.RedirectURIs) == 0 || len(req.RedirectURIs) > maxRedirects || total > maxRedirectsLen {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", fmt.Sprintf("Give between 1 and %d redirect_uris, %d characters in all at most.", maxRedirects, maxRedirectsLen))
		return
	}
	for _, u := range req.RedirectURIs {
		if !s.redirectAllowed(u) {
			s.logRefusal(slog.LevelInfo, addr, "registration refused: redirect not allowed", "redirect_uri", voice.Visible(u, 201))
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "This redirect URI is not allowed here: "+voice.Visible(u, 201)+". maison accepts the Claude app's callbacks, loopback addresses, and those its operator lists in MAISON_REDIRECT_URIS.")
			return
		}
	}
	method := req.AuthMethod
	if method == "" {
		method = "client_secret_basic" // RFC 7591's default
	}
	if !slices.Contains([]string{"none", "client_secret_basic", "client_secret_post"}, method) {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post.")
		return
	}
	for _, g := range req.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "grant_types may hold authorization_code and refresh_token only.")
			return
		}
	}
	for _, t := range req.ResponseTypes {
		if t != "code" {
			oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "response_types may hold code only.")
			return
		}
	}
	now := s.now()
	claims := clientClaims{Redirects: req.RedirectURIs, Name: voice.Visible(req.ClientName, maxNameRunes), Method: method, IssuedAt: now.Unix(), Nonce: randomID(9)}
	id, err := s.keys.sign(kindClient, claims)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", "Registration failed; try again.")
		return
	}
	resp := map[string]any{
		"client_id":                  id,
		"client_id_issued_at":        now.Unix(),
		"redirect_uris":              req.RedirectURIs,
		"token_endpoint_auth_method": method,
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
	}
	if claims.Name != "" {
		resp["client_name"] = claims.Name
	}
	if method != "none" {
		secret, _ := s.keys.derive("client-secret", id)
		resp["client_secret"] = secret
		resp["client_secret_expires_at"] = 0 // an integer: some clients fail on anything else
	}
	s.log.Info("client registered", "client", "dcr-"+digest(id)[:12], "client_name", claims.Name, "method", method, "remote", addr)
	writeJSON(w, http.StatusCreated, resp)
}

// authenticateClient checks the client's credentials at /token: none for a
// public client; the derived secret, by Basic or in the body, for a
// confidential one.
func (s *Server) authenticateClient(c client, basicSecret, postSecret string) bool {
	if c.Method == "none" {
		return true
	}
	given := basicSecret
	if given == "" {
		given = postSecret
	}
	want, ok := s.keys.derive("client-secret", c.ID)
	return ok && given != "" && subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}

// redirectAllowed reports whether maison may ever send a browser to u: the
// Claude app's callbacks, loopback http addresses (any port, for Claude Code
// and desktop clients), and the operator's exact additions.
func (s *Server) redirectAllowed(u string) bool {
	if len(u) > maxRedirectLen {
		return false
	}
	if slices.Contains(claudeCallbacks, u) || slices.Contains(s.cfg.RedirectURIs, u) {
		return parseRedirect(u) != nil
	}
	p := parseRedirect(u)
	return p != nil && p.Scheme == "http" && isLoopbackHost(p.Hostname())
}

// parseRedirect parses a redirect URI that could be used at all: absolute,
// no fragment, no user info, a host for http and https.
func parseRedirect(u string) *url.URL {
	if strings.ContainsAny(u, " \t\r\n\\") {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil || !p.IsAbs() || p.Fragment != "" || strings.Contains(u, "#") || p.User != nil || p.Opaque != "" {
		return nil
	}
	if (p.Scheme == "http" || p.Scheme == "https") && p.Host == "" {
		return nil
	}
	if strings.Contains(p.Path, "/..") || strings.Contains(p.Path, "/./") {
		return nil
	}
	return p
}

// redirectMatches reports whether the redirect a request names is one the
// client registered: exactly, except that a loopback redirect may use any
// port (RFC 8252).
func redirectMatches(registered []string, requested string) bool {
	if slices.Contains(registered, requested) {
		return true
	}
	q := parseRedirect(requested)
	if q == nil || q.Scheme != "http" || !isLoopbackHost(q.Hostname()) {
		return false
	}
	for _, r := range registered {
		p := parseRedirect(r)
		if p != nil && p.Scheme == "http" && strings.EqualFold(p.Hostname(), q.Hostname()) && p.EscapedPath() == q.EscapedPath() && p.RawQuery == q.RawQuery {
			return true
		}
	}
	return false
}

// checkExtraRedirect vets a redirect URI the operator adds.
func checkExtraRedirect(u string) error {
	p := parseRedirect(u)
	if p == nil || len(u) > maxRedirectLen {
		return fmt.Errorf("oauth: MAISON_REDIRECT_URIS: %q is not a usable redirect URI (absolute, no fragment, no user name)", redact.URL(u))
	}
	if p.Scheme == "http" && !isLoopbackHost(p.Hostname()) {
		return fmt.Errorf("oauth: MAISON_REDIRECT_URIS: %q uses plain http off this machine; use https", u)
	}
	if p.Scheme == "javascript" || p.Scheme == "data" || p.Scheme == "file" {
		return fmt.Errorf("oauth: MAISON_REDIRECT_URIS: %q is not a redirect URI", u)
	}
	return nil
}

// readBody reads a request body of at most max bytes, of the given media
// type, within bodyDeadline: a slow body is cut, not waited on for ever.
func readBody(w http.ResponseWriter, r *http.Request, max int64, mediaType string) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != mediaType {
		return nil, fmt.Errorf("send the body as %s", mediaType)
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyDeadline))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fmt.Errorf("the body is larger than %d bytes", max)
		}
		return nil, errors.New("the body could not be read in time")
	}
	return body, nil
}

// readForm parses a form body with readBody's limits. Every parameter may
// appear once at most (RFC 6749, section 3.1).
func readForm(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	body, err := readBody(w, r, maxFormBody, "application/x-www-form-urlencoded")
	if err != nil {
		return nil, err
	}
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, errors.New("the form body is malformed")
	}
	return v, nil
}

// once returns a parameter that must not repeat, and false when it does.
func once(v url.Values, name string) (string, bool) {
	vals := v[name]
	if len(vals) > 1 {
		return "", false
	}
	if len(vals) == 0 {
		return "", true
	}
	return vals[0], true
}
