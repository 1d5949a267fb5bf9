package oauth

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Keys signs and checks everything maison hands out: client ids, codes,
// transactions, access and refresh tokens. Each kind of object has a key of
// its own, derived from the secret, so one kind can never pass for another
// (a refresh token is not an access token even with a forged header). Every
// signature names the secret it was made with, so the previous secret keeps
// verifying during a rotation while new objects use the current one.
type Keys struct {
	current  secret
	previous *secret
}

type secret struct {
	id   string            // names the secret in every header; reveals nothing of it
	keys map[string][]byte // one key per purpose, derived once
}

// purposes are every key a secret is derived into.
var purposes = []string{kindAccess, kindRefresh, kindCode, kindClient, kindTx, "client-secret"}

// minSecret is the shortest secret accepted, in bytes.
const minSecret = 32

// NewKeys returns the keys for current and, during a rotation, previous
// (nil when there is none). Each must be at least 32 bytes.
func NewKeys(current, previous []byte) (*Keys, error) {
	if len(current) < minSecret {
		return nil, fmt.Errorf("oauth: the secret is %d bytes; use at least %d random bytes (openssl rand -base64 32)", len(current), minSecret)
	}
	k := &Keys{current: newSecret(current)}
	if len(previous) > 0 {
		if len(previous) < minSecret {
			return nil, fmt.Errorf("oauth: the previous secret is %d bytes; it must be a secret maison used before, at least %d bytes", len(previous), minSecret)
		}
		p := newSecret(previous)
		if p.id == k.current.id {
			return nil, errors.New("oauth: the previous secret is the same as the current one")
		}
		k.previous = &p
	}
	return k, nil
}

func newSecret(raw []byte) secret {
	derive := func(label string) []byte {
		m := hmac.New(sha256.New, raw)
		m.Write([]byte(label))
		return m.Sum(nil)
	}
	s := secret{id: b64.EncodeToString(derive("maison key id v1")[:6]), keys: map[string][]byte{}}
	for _, p := range purposes {
		s.keys[p] = derive("maison oauth v1 " + p)
	}
	return s
}

// key is the key of one purpose; a purpose without a key is a bug, never
// an empty key.
func (s secret) key(purpose string) []byte {
	k, ok := s.keys[purpose]
	if !ok {
		panic("oauth: no key for " + purpose)
	}
	return k
}

// byID finds the secret a header names.
func (k *Keys) byID(id string) (secret, bool) {
	if id == k.current.id {
		return k.current, true
	}
	if k.previous != nil && id == k.previous.id {
		return *k.previous, true
	}
	return secret{}, false
}

// b64 is strict: a signature or payload has one spelling only.
var b64 = base64.RawURLEncoding.Strict()

// The kinds of signed objects. Each is both the header's typ and the
// purpose its key is derived for.
const (
	kindAccess  = "at+jwt" // RFC 9068
	kindRefresh = "maison-refresh+jwt"
	kindCode    = "maison-code+jwt"
	kindClient  = "maison-client+jwt"
	kindTx      = "maison-tx+jwt"
)

type header struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	Typ string `json:"typ"`
}

// sign returns a compact JWS (HS256) of claims, of the given kind.
func (k *Keys) sign(kind string, claims any) (string, error) {
	h, err := json.Marshal(header{Alg: "HS256", Kid: k.current.id, Typ: kind})
	if err != nil {
		return "", err
	}
	p, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(p)
	m := hmac.New(sha256.New, k.current.key(kind))
	m.Write([]byte(input))
	return input + "." + b64.EncodeToString(m.Sum(nil)), nil
}

// errBadSignature is every way a signed object can fail to verify. It never
// says which, so it cannot be used to probe.
var errBadSignature = errors.New("oauth: not a valid signed object")

// maxSigned bounds what is even looked at.
const maxSigned = 16 << 10

// verify checks a compact JWS of the given kind and decodes its claims into
// out. The header must be exactly {alg: HS256, kid, typ: kind}: alg none,
// another algorithm, another kind or an unknown key all fail alike.
func (k *Keys) verify(kind, token string, out any) error {
	if len(token) > maxSigned {
		return errBadSignature
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return errBadSignature
	}
	hb, err := b64.DecodeString(parts[0])
	if err != nil {
		return errBadSignature
	}
	var h header
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if dec.Decode(&h) != nil || h.Alg != "HS256" || h.Typ != kind {
		return errBadSignature
	}
	s, ok := k.byID(h.Kid)
	if !ok {
		return errBadSignature
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return errBadSignature
	}
	m := hmac.New(sha256.New, s.key(kind))
	m.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(m.Sum(nil), sig) {
		return errBadSignature
	}
	pb, err := b64.DecodeString(parts[1])
	if err != nil {
		return errBadSignature
	}
	if json.Unmarshal(pb, out) != nil {
		return errBadSignature
	}
	return nil
}

// derive returns a value only the holder of the secret named by the signed
// object's header can compute, such as a confidential client's secret.
func (k *Keys) derive(purpose, signed string) (string, bool) {
	hb, err := b64.DecodeString(strings.SplitN(signed, ".", 2)[0])
	if err != nil {
		return "", false
	}
	var h header
	if json.Unmarshal(hb, &h) != nil {
		return "", false
	}
	s, ok := k.byID(h.Kid)
	if !ok {
		return "", false
	}
	m := hmac.New(sha256.New, s.key(purpose))
	m.Write([]byte(signed))
	return b64.EncodeToString(m.Sum(nil)), true
}

// digest is a short, stable name for a long value (a client id), for
// comparisons inside signed objects and for logs.
func digest(v string) string {
	sum := sha256.Sum256([]byte(v))
	return b64.EncodeToString(sum[:12])
}
