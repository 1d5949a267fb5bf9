package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"maison/voice"
)

// tokenClaims is an access token (RFC 9068 claims) or a refresh token.
type tokenClaims struct {
	Iss        string `json:"iss"`
	Aud        string `json:"aud"`
	Sub        string `json:"sub"`
	Client     string `json:"client_id"`             // what logs call the client
	ClientName string `json:"client_name,omitempty"` // the name it gives itself
	ClientKey  string `json:"cid,omitempty"`         // refresh: digest of the full client id
	Scope      string `json:"scope"`
	IssuedAt   int64  `json:"iat"`
	Exp        int64  `json:"exp"`
	AuthTime   int64  `json:"auth_time,omitempty"`
	ID         string `json:"jti"`
	Family     string `json:"fam,omitempty"` // the grant every token of one authorization belongs to
}

var verifierRE = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// tokenError is an /token failure: its status, RFC 6749 code and words.
type tokenError struct {
	status      int
	code, descr string
}

func (e *tokenError) Error() string { return e.code + ": " + e.descr }

func invalidGrant(descr string) *tokenError {
	return &tokenError{http.StatusBadRequest, "invalid_grant", descr}
}

var errInvalidClient = &tokenError{http.StatusUnauthorized, "invalid_client", "maison does not know this client, or its credentials are wrong: register again."}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	addr, ok := s.postWithin(w, r, s.limits.token)
	if !ok {
		return
	}
	form, err := readForm(w, r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	for name, vals := range form {
		if len(vals) > 1 {
			oauthError(w, http.StatusBadRequest, "invalid_request", "the parameter "+voice.Visible(name, 41)+" is repeated")
			return
		}
	}
	c, secret, basic, terr := s.tokenClient(r, form)
	if terr == nil && !s.authenticateClient(c, secret, form.Get("client_secret")) {
		terr = errInvalidClient
	}
	if terr == nil {
		var resp map[string]any
		switch form.Get("grant_type") {
		case "authorization_code":
			resp, terr = s.fromCode(c, form)
		case "refresh_token":
			resp, terr = s.fromRefresh(c, form)
		case "":
			terr = &tokenError{http.StatusBadRequest, "invalid_request", "grant_type is missing"}
		default:
			terr = &tokenError{http.StatusBadRequest, "unsupported_grant_type", "maison accepts authorization_code and refresh_token"}
		}
		if terr == nil {
			writeJSON(w, http.StatusOK, resp)
			return
		}
	}
	label := c.Label
	if label == "" {
		label = "unknown"
	}
	s.logRefusal(slog.LevelInfo, addr, "token refused: "+terr.code, "client", label, "grant_type", voice.Visible(form.Get("grant_type"), 31), "reason", terr.descr)
	if terr.code == "invalid_client" && basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="maison"`)
	}
	oauthError(w, terr.status, terr.code, terr.descr)
}

// tokenClient reads the client at /token: by Basic authentication or the
// client_id parameter. A metadata-document client is not fetched again: the
// code or refresh token it presents names it by the digest of its URL.
func (s *Server) tokenClient(r *http.Request, form url.Values) (c client, secret string, basic bool, _ *tokenError) {
	id := form.Get("client_id")
	if u, p, ok := r.BasicAuth(); ok {
		basic = true
		bu, err1 := url.QueryUnescape(u)
		bp, err2 := url.QueryUnescape(p)
		if err1 != nil || err2 != nil || (id != "" && id != bu) {
			return c, "", basic, &tokenError{http.StatusBadRequest, "invalid_request", "the client is named twice, differently"}
		}
		id, secret = bu, bp
	}
	if id == "" {
		return c, "", basic, &tokenError{http.StatusBadRequest, "invalid_request", "client_id is missing"}
	}
	if strings.HasPrefix(id, "https://") {
		if checkDocumentURL(id) != nil {
			return c, "", basic, errInvalidClient
		}
		return client{ID: id, Label: id, Method: "none", Document: true}, secret, basic, nil
	}
	c, ok := s.registered(id)
	if !ok {
		return c, "", basic, errInvalidClient
	}
	return c, secret, basic, nil
}

// mine reports whether a signed grant names this maison as its issuer and
// its resource as audience: another maison sharing MAISON_SECRET under
// another public URL signs with the same keys.
func (s *Server) mine(iss, aud string) bool {
	return iss == s.issuer && s.sameResource(aud)
}

// fromCode redeems an authorization code: signed, this maison's, unexpired,
// this client's, the same redirect URI, the PKCE verifier that hashes to its
// challenge, and never before. A code presented twice revokes what it was exchanged for.
func (s *Server) fromCode(c client, form url.Values) (map[string]any, *tokenError) {
	var code codeClaims
	if s.keys.verify(kindCode, form.Get("code"), &code) != nil {
		return nil, invalidGrant("the authorization code is not valid")
	}
	if !s.mine(code.Iss, code.Aud) {
		return nil, invalidGrant("the authorization code was issued by maison at another address; authorize again here")
	}
	now := s.now()
	if !now.Before(time.Unix(code.Exp, 0)) {
		return nil, invalidGrant("the authorization code has expired; authorize again")
	}
	if subtle.ConstantTimeCompare([]byte(code.Client), []byte(c.key())) != 1 {
		return nil, invalidGrant("the authorization code was issued to another client")
	}
	if form.Get("redirect_uri") != code.Redirect {
		return nil, invalidGrant("redirect_uri differs from the authorization request's")
	}
	if terr := checkVerifier(c, code.Challenge, form.Get("code_verifier")); terr != nil {
		return nil, terr
	}
	if form.Has("resource") && form.Get("resource") != code.Aud && form.Get("resource") != code.Aud+"/" {
		return nil, &tokenError{http.StatusBadRequest, "invalid_target", "resource must be " + code.Aud}
	}
	if !s.used.add("code:"+code.ID, time.Unix(code.Exp, 0)) {
		s.revoked.add(code.ID, now.Add(RefreshTTL))
		s.log.Warn("authorization code used twice: every token from it is revoked", "client", code.Label)
		return nil, invalidGrant("the authorization code was already used")
	}
	return s.issue(tokenClaims{
		Iss: s.issuer, Aud: code.Aud, Sub: code.Sub, Client: code.Label, ClientName: code.Name,
		ClientKey: code.Client, Scope: code.Scope, AuthTime: now.Unix(), Family: code.ID,
		Exp: now.Add(RefreshTTL).Unix(),
	}, code.Scope)
}

// checkVerifier checks PKCE at /token: the verifier that hashes to the
// code's challenge; none when the code has no challenge (a verifier then
// would be a downgrade, RFC 9700 2.1.1), which only a confidential client,
// authenticated by its secret, may have.
func checkVerifier(c client, challenge, v string) *tokenError {
	switch {
	case challenge == "" && v != "":
		return invalidGrant("a code_verifier was sent, but the authorization request had no code_challenge")
	case challenge == "" && c.Method == "none":
		return invalidGrant("the authorization code has no PKCE challenge, which a public client must use")
	case challenge == "":
		return nil
	case v == "":
		return &tokenError{http.StatusBadRequest, "invalid_request", "code_verifier is missing: PKCE is required"}
	}
	sum := sha256.Sum256([]byte(v))
	if !verifierRE.MatchString(v) || subtle.ConstantTimeCompare([]byte(b64.EncodeToString(sum[:])), []byte(challenge)) != 1 {
		return invalidGrant("the PKCE code_verifier does not match the challenge")
	}
	return nil
}

// fromRefresh rotates a refresh token: the old one is spent, the new one
// keeps the same absolute expiry; only this maison's are taken. A spent one presented again revokes its
// whole family, as a stolen copy would be.
func (s *Server) fromRefresh(c client, form url.Values) (map[string]any, *tokenError) {
	var rt tokenClaims
	if s.keys.verify(kindRefresh, form.Get("refresh_token"), &rt) != nil {
		return nil, invalidGrant("the refresh token is not valid")
	}
	now := s.now()
	switch {
	case !s.mine(rt.Iss, rt.Aud):
		return nil, invalidGrant("the refresh token was issued by maison at another address; authorize again here")
	case !now.Before(time.Unix(rt.Exp, 0)):
		return nil, invalidGrant("the refresh token has expired; authorize again")
	case subtle.ConstantTimeCompare([]byte(rt.ClientKey), []byte(c.key())) != 1:
		return nil, invalidGrant("the refresh token was issued to another client")
	case s.revoked.has(rt.Family):
		return nil, invalidGrant("this authorization was revoked; authorize again")
	case form.Has("resource") && form.Get("resource") != rt.Aud && form.Get("resource") != rt.Aud+"/":
		return nil, &tokenError{http.StatusBadRequest, "invalid_target", "resource must be " + rt.Aud}
	}
	scope := rt.Scope
	if sc := strings.TrimSpace(form.Get("scope")); sc != "" {
		had := strings.Fields(rt.Scope)
		for _, want := range strings.Fields(sc) {
			if !slices.Contains(had, want) {
				return nil, &tokenError{http.StatusBadRequest, "invalid_scope", "a refresh cannot add " + voice.Visible(want, 41) + ": authorize again"}
			}
		}
		scope = strings.Join(grantedScopes(sc), " ")
	}
	if !s.used.add("rt:"+rt.ID, time.Unix(rt.Exp, 0)) {
		s.revoked.add(rt.Family, time.Unix(rt.Exp, 0))
		s.log.Warn("refresh token used twice: its whole family is revoked", "client", rt.Client)
		return nil, invalidGrant("the refresh token was already used")
	}
	// The access token may carry a narrower scope; the new refresh token
	// keeps what was granted.
	return s.issue(rt, scope)
}

// issue mints an access token of scope and a refresh token for one grant.
// base carries the grant; its Exp is the refresh token's absolute expiry.
func (s *Server) issue(base tokenClaims, scope string) (map[string]any, *tokenError) {
	base.Iss = s.issuer
	a := base
	a.Scope = scope
	at, terr := s.accessToken(a)
	if terr != nil {
		return nil, terr
	}
	rt := base
	rt.IssuedAt = s.now().Unix()
	rt.ID = randomID(16)
	refresh, err := s.keys.sign(kindRefresh, rt)
	if err != nil {
		return nil, &tokenError{http.StatusInternalServerError, "server_error", "try again"}
	}
	return map[string]any{
		"access_token":  at,
		"token_type":    "Bearer",
		"expires_in":    int(AccessTTL.Seconds()),
		"refresh_token": refresh,
		"scope":         scope,
	}, nil
}

// accessToken mints a one-hour access token for base's grant.
func (s *Server) accessToken(base tokenClaims) (string, *tokenError) {
	now := s.now()
	at := base
	at.ClientKey, at.AuthTime = "", 0
	at.IssuedAt = now.Unix()
	at.Exp = min(now.Add(AccessTTL).Unix(), base.Exp)
	at.ID = randomID(12)
	signed, err := s.keys.sign(kindAccess, at)
	if err != nil {
		return "", &tokenError{http.StatusInternalServerError, "server_error", "try again"}
	}
	return signed, nil
}

// Grant is what a verified access token says.
type Grant struct {
	Client     string // what logs call the client: a metadata document URL, dcr-…, or maison-token-… (one per minted token)
	ClientName string // the name the client gives itself, unverified
	Subject    string // who approved: operator, or a Cloudflare Access email
	Scopes     []string
	Expiry     time.Time
}

// ErrInvalidToken is any access token maison does not accept: malformed,
// tampered, another kind of token, signed with an unknown key, for another
// audience or issuer, expired, or revoked. It never says which.
var ErrInvalidToken = errors.New("oauth: the access token is not valid")

// Verify checks an access token for maison's resource.
func (s *Server) Verify(token string) (Grant, error) {
	var c tokenClaims
	if s.keys.verify(kindAccess, token, &c) != nil {
		return Grant{}, ErrInvalidToken
	}
	now := s.now()
	exp := time.Unix(c.Exp, 0)
	if !s.mine(c.Iss, c.Aud) || !now.Before(exp) || c.Client == "" || (c.Family != "" && s.revoked.has(c.Family)) {
		return Grant{}, ErrInvalidToken
	}
	scopes := grantedScopes(c.Scope)
	if len(scopes) == 0 {
		return Grant{}, ErrInvalidToken
	}
	return Grant{Client: mintedClient(c), ClientName: c.ClientName, Subject: c.Sub, Scopes: scopes, Expiry: exp}, nil
}

// mintedClient names the client of a token: for one maison token minted,
// the token itself (maison-token-… from its own id, tokens minted earlier
// included), so that no two minted tokens share confirmations or limits.
func mintedClient(c tokenClaims) string {
	if c.Client == "maison-token" && c.ID != "" {
		return "maison-token-" + digest(c.ID)[:12]
	}
	return c.Client
}

// Mint signs a long-lived access token for clients that can send a header
// (maison token): the same kind as the ones /token issues, so rotating
// MAISON_SECRET revokes it too.
func (s *Server) Mint(scopes []string, ttl time.Duration, name string) (string, time.Time, error) {
	granted := grantedScopes(strings.Join(scopes, " "))
	if len(granted) != len(scopes) || len(granted) == 0 {
		return "", time.Time{}, errors.New("oauth: scopes are house.read and house.control")
	}
	if ttl <= 0 {
		return "", time.Time{}, errors.New("oauth: the lifetime must be positive")
	}
	now := s.now()
	exp := now.Add(ttl)
	tok, err := s.keys.sign(kindAccess, tokenClaims{
		Iss: s.issuer, Aud: s.resource, Sub: "operator", Client: "maison-token", ClientName: voice.Visible(name, maxNameRunes),
		Scope: strings.Join(granted, " "), IssuedAt: now.Unix(), Exp: exp.Unix(), ID: randomID(12),
	})
	return tok, exp, err
}
