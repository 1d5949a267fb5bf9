package oauth

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// AccessConfig makes the human page trust Cloudflare Access: the person
// signed in at Cloudflare, which vouches for them in the
// Cf-Access-Jwt-Assertion header of every request it lets through.
type AccessConfig struct {
	// Team is the team domain, such as https://myteam.cloudflareaccess.com
	// or just myteam (MAISON_CF_ACCESS_TEAM).
	Team string
	// AUD is the Access application's audience tag (MAISON_CF_ACCESS_AUD).
	AUD string
	// Emails are the people allowed to approve, matched without case
	// (MAISON_CF_ACCESS_EMAILS). Required: Access alone may let in more
	// people than should run the house.
	Emails []string
	// CertsURL replaces the team's key URL (tests). Empty means
	// Team + "/cdn-cgi/access/certs".
	CertsURL string
	// HTTPClient fetches the keys. Nil means a client with a 5s timeout.
	HTTPClient *http.Client
}

// accessVerifier checks Cloudflare Access assertions.
type accessVerifier struct {
	iss, aud, certs string
	emails          []string
	client          *http.Client
	now             func() time.Time

	mu        sync.Mutex
	keys      map[string]*rsa.PublicKey
	lastFetch time.Time
}

const (
	accessLeeway   = 30 * time.Second
	keysRefetchGap = 30 * time.Second // an unknown kid refetches at most this often
)

func newAccessVerifier(c AccessConfig, now func() time.Time) (*accessVerifier, error) {
	team := strings.TrimSuffix(strings.TrimSpace(c.Team), "/")
	if team == "" {
		return nil, errors.New("oauth: MAISON_CF_ACCESS_TEAM is empty: give the team domain, such as https://myteam.cloudflareaccess.com")
	}
	if !strings.Contains(team, "://") {
		if !strings.Contains(team, ".") {
			team += ".cloudflareaccess.com"
		}
		team = "https://" + team
	}
	if u, err := url.Parse(team); err != nil || u.Scheme != "https" || u.Host == "" || u.Path != "" {
		return nil, fmt.Errorf("oauth: MAISON_CF_ACCESS_TEAM %q: give the team domain, such as https://myteam.cloudflareaccess.com", c.Team)
	}
	if strings.TrimSpace(c.AUD) == "" {
		return nil, errors.New("oauth: MAISON_CF_ACCESS_AUD is empty: copy the Application Audience (AUD) tag from the Access application's overview")
	}
	var emails []string
	for _, e := range c.Emails {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			emails = append(emails, e)
		}
	}
	if len(emails) == 0 {
		return nil, errors.New("oauth: MAISON_CF_ACCESS_EMAILS is empty: list the email addresses of the people who may connect clients to the house")
	}
	certs := c.CertsURL
	if certs == "" {
		certs = team + "/cdn-cgi/access/certs"
	}
	client := c.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	return &accessVerifier{iss: team, aud: strings.TrimSpace(c.AUD), certs: certs, emails: emails, client: client, now: now, keys: map[string]*rsa.PublicKey{}}, nil
}

// errAccess is any assertion maison does not accept.
var errAccess = errors.New("oauth: Cloudflare Access did not vouch for this person")

// verify checks an assertion and returns the person's email.
func (a *accessVerifier) verify(ctx context.Context, assertion string) (string, error) {
	parts := strings.Split(assertion, ".")
	if len(assertion) > maxSigned || len(parts) != 3 {
		return "", errAccess
	}
	var h struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	if decodePart(parts[0], &h) != nil || h.Alg != "RS256" || h.Kid == "" {
		return "", errAccess
	}
	key, err := a.key(ctx, h.Kid)
	if err != nil {
		return "", err
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return "", errAccess
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig) != nil {
		return "", errAccess
	}
	var c struct {
		Iss   string          `json:"iss"`
		Aud   json.RawMessage `json:"aud"`
		Exp   *int64          `json:"exp"`
		Nbf   *int64          `json:"nbf"`
		Email string          `json:"email"`
	}
	if decodePart(parts[1], &c) != nil || c.Iss != a.iss || c.Exp == nil {
		return "", errAccess
	}
	var auds []string
	if json.Unmarshal(c.Aud, &auds) != nil {
		var one string
		if json.Unmarshal(c.Aud, &one) != nil {
			return "", errAccess
		}
		auds = []string{one}
	}
	if !slices.Contains(auds, a.aud) {
		return "", errAccess
	}
	now := a.now()
	if !now.Before(time.Unix(*c.Exp, 0).Add(accessLeeway)) || (c.Nbf != nil && now.Add(accessLeeway).Before(time.Unix(*c.Nbf, 0))) {
		return "", errAccess
	}
	email := strings.ToLower(c.Email)
	if email == "" || !slices.Contains(a.emails, email) {
		return "", errAccess
	}
	return email, nil
}

func decodePart(part string, out any) error {
	b, err := b64.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// key returns the team's key kid, fetching the keys when kid is unknown,
// no more often than keysRefetchGap.
func (a *accessVerifier) key(ctx context.Context, kid string) (*rsa.PublicKey, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if k, ok := a.keys[kid]; ok {
		return k, nil
	}
	if !a.lastFetch.IsZero() && a.now().Sub(a.lastFetch) < keysRefetchGap {
		return nil, errAccess
	}
	a.lastFetch = a.now()
	keys, err := a.fetch(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: fetching the team's keys: %v", errAccess, err)
	}
	a.keys = keys
	if k, ok := keys[kid]; ok {
		return k, nil
	}
	return nil, errAccess
}

func (a *accessVerifier) fetch(ctx context.Context) (map[string]*rsa.PublicKey, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.certs, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
			Kty string `json:"kty"`
			N   string `json:"n"`
			E   string `json:"e"`
		} `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&set); err != nil {
		return nil, err
	}
	out := map[string]*rsa.PublicKey{}
	for _, k := range set.Keys {
		if k.Kty != "RSA" || k.Kid == "" {
			continue
		}
		n, err1 := b64.DecodeString(k.N)
		e, err2 := b64.DecodeString(k.E)
		if err1 != nil || err2 != nil || len(e) == 0 || len(e) > 4 || len(n) < 256 {
			continue
		}
		out[k.Kid] = &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
	}
	if len(out) == 0 {
		return nil, errors.New("no RSA keys of at least 2048 bits")
	}
	return out, nil
}
