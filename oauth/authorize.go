package oauth

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/internal/webpage"
	"maison/state"
	"maison/voice"
	"maison/words"
)

// txClaims is a transaction: an authorization request maison checked and
// showed to a person. It travels in the page's form, signed, and is bound to
// the browser that opened the page by a cookie whose digest it carries.
type txClaims struct {
	ID        string   `json:"jti"`
	Nonce     string   `json:"nh"` // digest of the cookie's value
	Client    string   `json:"cid"`
	Label     string   `json:"cl"`
	Name      string   `json:"cn,omitempty"`
	Redirect  string   `json:"ru"`
	Challenge string   `json:"cc"`
	Scopes    []string `json:"sc"`
	State     string   `json:"st,omitempty"`
	Exp       int64    `json:"exp"`
}

// codeClaims is an authorization code.
type codeClaims struct {
	ID        string `json:"jti"`
	Client    string `json:"cid"` // digest of the client id
	Label     string `json:"cl"`
	Name      string `json:"cn,omitempty"`
	Redirect  string `json:"ru"`
	Challenge string `json:"cc"`
	Scope     string `json:"scope"`
	Iss       string `json:"iss"`
	Aud       string `json:"aud"`
	Sub       string `json:"sub"`
	Exp       int64  `json:"exp"`
}

var challengeRE = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

const maxState = 2048

func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.authorizeStart(w, r)
	case http.MethodPost:
		s.authorizeSubmit(w, r)
	default:
		methodNotAllowed(w, "GET, POST")
	}
}

// authorizeStart checks an authorization request and shows the page. Until
// the client and its redirect URI are known good, every error is a page,
// never a redirect: maison must not send a browser anywhere it was told to.
// Opened without a client, the page says how to connect one.
func (s *Server) authorizeStart(w http.ResponseWriter, r *http.Request) {
	lang := s.langOf(r)
	addr := s.cfg.ClientAddr(r)
	if ok, wait := s.limits.authorize.allow(addr); !ok {
		s.page(w, lang, http.StatusTooManyRequests, pageData{Problem: words.SignInTooManyRequests.In(lang)}, "", wait)
		return
	}
	q := r.URL.Query()
	for name, vals := range q {
		if len(vals) > 1 {
			s.page(w, lang, http.StatusBadRequest, pageData{Problem: words.SignInBadRequest.In(lang) + " (" + voice.Visible(name, 41) + ")"}, "", 0)
			return
		}
	}
	if q.Get("client_id") == "" { // a person, not an app, opened the page
		status := http.StatusOK
		if len(q) > 0 {
			status = http.StatusBadRequest
		}
		s.page(w, lang, status, pageData{Connect: s.resource}, "", 0)
		return
	}
	c, err := s.resolveClient(r.Context(), q.Get("client_id"))
	if err != nil {
		s.logRefusal(slog.LevelInfo, addr, "authorization refused: unknown client", "client_id", voice.Visible(q.Get("client_id"), 121), "err", err)
		problem := words.SignInUnknownClient.In(lang)
		if strings.HasPrefix(q.Get("client_id"), "https://") { // a document that could not be read: registering anew would not help
			problem = words.SignInUnreadDocument.In(lang)
		}
		s.page(w, lang, http.StatusBadRequest, pageData{Problem: problem}, "", 0)
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(c.Redirects) == 1 {
		redirect = c.Redirects[0]
	}
	if !redirectMatches(c.Redirects, redirect) || !s.redirectAllowed(redirect) {
		s.logRefusal(slog.LevelInfo, addr, "authorization refused: redirect not allowed", "client", c.Label, "redirect_uri", voice.Visible(redirect, 201))
		s.page(w, lang, http.StatusBadRequest, pageData{Problem: words.SignInBadRedirect.In(lang)}, "", 0)
		return
	}
	state := q.Get("state")
	fail := func(code, desc string) {
		s.logRefusal(slog.LevelInfo, addr, "authorization refused: "+code, "client", c.Label)
		if len(state) > maxState {
			state = ""
		}
		http.Redirect(w, r, s.withParams(redirect, url.Values{"error": {code}, "error_description": {desc}, "state": {state}}), http.StatusFound)
	}
	switch {
	case len(state) > maxState:
		fail("invalid_request", "state is too long")
		return
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "response_type must be code")
		return
	case q.Get("code_challenge") == "" && (c.Method == "none" || q.Has("code_challenge_method")):
		fail("invalid_request", "PKCE is required, with code_challenge_method S256")
		return
	case q.Get("code_challenge") == "":
		// A confidential client may go without PKCE (RFC 9700 2.1.1): its
		// code is worthless without its secret, checked at /token. Home
		// Assistant's MCP client sends no challenge
		// (LocalOAuth2Implementation in config_entry_oauth2_flow.py).
	case q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "PKCE is required, with code_challenge_method S256")
		return
	case !challengeRE.MatchString(q.Get("code_challenge")):
		fail("invalid_request", "code_challenge is not a S256 challenge")
		return
	case q.Has("resource") && !s.sameResource(q.Get("resource")):
		fail("invalid_target", "resource must be "+s.resource)
		return
	case q.Get("prompt") == "none":
		fail("login_required", "a person must approve on maison's page")
		return
	}
	scopes := AllScopes
	if sc := strings.TrimSpace(q.Get("scope")); sc != "" {
		if scopes = grantedScopes(sc); len(scopes) == 0 {
			fail("invalid_scope", "maison grants house.read and house.control")
			return
		}
	}
	data := pageData{Client: c, Redirect: redirect, Ask: true, Password: s.cfg.Password != ""}
	if s.access != nil {
		email, err := s.access.verify(r.Context(), r.Header.Get("Cf-Access-Jwt-Assertion"))
		if err != nil {
			s.logRefusal(slog.LevelInfo, addr, "authorization refused: no valid Cloudflare Access assertion", "client", c.Label, "err", err)
			s.page(w, lang, http.StatusForbidden, pageData{Problem: words.SignInAccessRefused.In(lang)}, "", 0)
			return
		}
		data.Email = email
	}
	nonce := randomID(18)
	tx := txClaims{
		ID: randomID(6), Nonce: digest(nonce), Client: c.ID, Label: c.Label, Name: c.Name,
		Redirect: redirect, Challenge: q.Get("code_challenge"), Scopes: scopes, State: state,
		Exp: s.now().Add(txTTL).Unix(),
	}
	signed, err := s.keys.sign(kindTx, tx)
	if err != nil {
		s.page(w, lang, http.StatusInternalServerError, pageData{Problem: words.SignInBadRequest.In(lang)}, "", 0)
		return
	}
	data.Tx = signed
	data.Scopes = s.scopeChoices(lang, scopes, scopes)
	http.SetCookie(w, s.txCookie(tx.ID, nonce, int(txTTL.Seconds())))
	s.page(w, lang, http.StatusOK, data, redirect, 0)
}

// authorizeSubmit is the person's answer on the page.
func (s *Server) authorizeSubmit(w http.ResponseWriter, r *http.Request) {
	lang := s.langOf(r)
	addr := s.cfg.ClientAddr(r)
	if ok, why := webpage.FromThisSite(r, s.issuer); !ok {
		s.logRefusal(slog.LevelWarn, addr, "authorization form refused: sent from another site", "sent_by", why)
		s.page(w, lang, http.StatusForbidden, pageData{Problem: words.SignInStaleForm.In(lang)}, "", 0)
		return
	}
	form, err := readForm(w, r)
	if err != nil {
		s.page(w, lang, http.StatusBadRequest, pageData{Problem: words.SignInBadRequest.In(lang)}, "", 0)
		return
	}
	raw, ok := once(form, "tx")
	var tx txClaims
	if !ok || s.keys.verify(kindTx, raw, &tx) != nil || !s.now().Before(time.Unix(tx.Exp, 0)) {
		s.page(w, lang, http.StatusBadRequest, pageData{Problem: words.SignInStaleForm.In(lang)}, "", 0)
		return
	}
	cookie, err := r.Cookie(s.cookieName(tx.ID))
	if err != nil || subtle.ConstantTimeCompare([]byte(digest(cookie.Value)), []byte(tx.Nonce)) != 1 {
		s.logRefusal(slog.LevelWarn, addr, "authorization form refused: no transaction cookie from this browser", "client", tx.Label)
		s.page(w, lang, http.StatusForbidden, pageData{Problem: words.SignInStaleForm.In(lang)}, "", 0)
		return
	}
	c := client{ID: tx.Client, Label: tx.Label, Name: tx.Name}
	if action, _ := once(form, "action"); action == "deny" {
		s.clearCookie(w, tx.ID)
		s.log.Info("authorization denied by the person", "client", tx.Label, "remote", addr)
		http.Redirect(w, r, s.withParams(tx.Redirect, url.Values{"error": {"access_denied"}, "error_description": {"the person declined"}, "state": {tx.State}}), http.StatusSeeOther)
		return
	}
	again := func(status int, problem string) {
		s.page(w, lang, status, pageData{Client: c, Redirect: tx.Redirect, Ask: true, Password: s.cfg.Password != "", Tx: raw,
			Scopes: s.scopeChoices(lang, tx.Scopes, form["scope"]), Problem: problem}, tx.Redirect, 0)
	}
	given, _ := once(form, "password")
	proof := s.ProveOperator(r, given)
	switch {
	case proof.Unchecked != nil:
		w.Header().Set("Retry-After", "60")
		s.page(w, lang, http.StatusServiceUnavailable, pageData{Problem: words.StoreTrouble(lang, errors.Is(proof.Unchecked, state.ErrFull))}, "", 0)
		return
	case proof.Wait > 0:
		s.logRefusal(slog.LevelWarn, addr, "login refused: this address tried too often and waits", "retry_in", proof.Wait.Round(time.Second), "paused", proof.Paused)
		why := words.SignInLockedOut(lang, proof.Wait, proof.Paused)
		if proof.WrongPassword {
			why = words.WrongPasswordLast.In(lang) + " " + why // the last one it may try: no form until then
		}
		s.page(w, lang, http.StatusTooManyRequests, pageData{Problem: why}, "", proof.Wait)
		return
	case proof.AccessRefused:
		s.page(w, lang, http.StatusForbidden, pageData{Problem: words.SignInAccessRefused.In(lang)}, "", 0)
		return
	case proof.WrongPassword:
		s.log.Warn("login failed: wrong operator password", "client", tx.Label, "remote", addr)
		again(http.StatusUnauthorized, words.SignInWrongPassword.In(lang)+" "+words.AttemptsLeft(lang, proof.Left))
		return
	}
	sub := proof.By
	var granted []string
	for _, sc := range tx.Scopes {
		if slices.Contains(form["scope"], sc) {
			granted = append(granted, sc)
		}
	}
	if len(granted) == 0 {
		again(http.StatusBadRequest, words.SignInNoScope.In(lang))
		return
	}
	code := codeClaims{
		ID: randomID(16), Client: digest(tx.Client), Label: tx.Label, Name: tx.Name, Redirect: tx.Redirect,
		Challenge: tx.Challenge, Scope: strings.Join(granted, " "), Iss: s.issuer, Aud: s.resource, Sub: sub,
		Exp: s.now().Add(CodeTTL).Unix(),
	}
	signed, err := s.keys.sign(kindCode, code)
	if err != nil {
		again(http.StatusInternalServerError, words.SignInBadRequest.In(lang))
		return
	}
	s.clearCookie(w, tx.ID)
	s.log.Info("authorization granted", "client", tx.Label, "client_name", tx.Name, "scope", code.Scope, "by", sub, "remote", addr)
	http.Redirect(w, r, s.withParams(tx.Redirect, url.Values{"code": {signed}, "state": {tx.State}}), http.StatusSeeOther)
}

// withParams adds an authorization response's parameters, iss always
// (RFC 9207), to a redirect URI, keeping its own query as it is.
func (s *Server) withParams(redirect string, v url.Values) string {
	if v.Get("state") == "" {
		v.Del("state")
	}
	v.Set("iss", s.issuer)
	sep := "?"
	if strings.Contains(redirect, "?") {
		sep = "&"
	}
	return redirect + sep + v.Encode()
}

// sameResource accepts the resource as published, or with a trailing slash.
func (s *Server) sameResource(r string) bool {
	return r == s.resource || r == s.resource+"/"
}

func (s *Server) https() bool { return strings.HasPrefix(s.issuer, "https://") }

// txCookie is a transaction's cookie (webpage.Cookie), kept maxAge
// seconds, or deleted when negative.
func (s *Server) txCookie(id, value string, maxAge int) *http.Cookie {
	return webpage.Cookie("maison-tx-"+id, value, maxAge, s.https())
}

func (s *Server) cookieName(id string) string { return s.txCookie(id, "", 0).Name }

func (s *Server) clearCookie(w http.ResponseWriter, id string) {
	http.SetCookie(w, s.txCookie(id, "", -1))
}

// retryAfter sets Retry-After for a wait.
func retryAfter(w http.ResponseWriter, wait time.Duration) {
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
	}
}
