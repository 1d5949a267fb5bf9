// Package confirm makes and checks confirmations for sensitive actions:
// unlocking a lock, opening a garage door, gate or door, disarming an alarm,
// opening a valve. The first call proposes and does nothing; the action runs
// only on a confirmation that is signed, single-use, short-lived and bound to
// the caller, the tool, the arguments and the devices the arguments named
// when the person was asked.
//
// Confirmations are HMAC-signed, so nothing is stored to make one. A used
// confirmation is claimed in the state store until it expires (see
// NewStored): replicas that share the store, and a maison restarted on a
// file, use each confirmation once. When the store cannot say whether a
// confirmation was used, Redeem refuses with ErrUnchecked and marks nothing.
package confirm

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"maison/state"
)

// TTL is how long a confirmation stays valid.
const TTL = 2 * time.Minute

// ErrInvalid is the one answer to a confirmation that is unknown, expired,
// someone else's, already used or made for another tool or other arguments.
// It never says which, so it cannot be used to probe.
var ErrInvalid = errors.New("confirm: the confirmation is not valid")

// ErrChanged is a valid confirmation, now used up, for a call that no
// longer reaches the devices it reached when it was proposed (a device was
// renamed, added, moved or removed): the person said yes to other devices.
// Only the holder of a valid confirmation for the same caller, tool and
// arguments can get it.
var ErrChanged = errors.New("confirm: the call no longer reaches the devices it was proposed for")

// ErrUnchecked is a confirmation that may be valid but whose use the
// state store could not record (it did not answer, or it is full):
// nothing was done and the confirmation is not used up. It wraps the
// store's error (state.ErrUnavailable or state.ErrFull).
var ErrUnchecked = errors.New("confirm: whether the confirmation was used cannot be checked now")

// Signer makes and redeems confirmations. It is safe for concurrent use.
type Signer struct {
	key   []byte
	now   func() time.Time
	store state.Store // used confirmations
}

// New returns a Signer with key, or a random key when key is empty (then
// confirmations are valid only in this process), that remembers used
// confirmations in this process's memory.
func New(key []byte) *Signer { return NewStored(key, nil) }

// NewStored is New remembering used confirmations in store: nil means
// this process's memory.
func NewStored(key []byte, store state.Store) *Signer {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	} else if !state.Lasts(store) {
		// Which codes and links were answered is forgotten when this
		// process stops: so is every code and link it made, or one
		// answered before a restart would count again after it.
		salt := make([]byte, 32)
		rand.Read(salt)
		m := hmac.New(sha256.New, key)
		m.Write([]byte("process\x00"))
		m.Write(salt)
		key = m.Sum(nil)
	}
	s := &Signer{key: key, now: time.Now, store: store}
	if store == nil {
		s.store = state.NewMemory(0, func() time.Time { return s.now() })
	}
	return s
}

// payload layout: 8-byte nonce, 8-byte devices digest, 8-byte expiry (unix
// seconds), 32-byte binding hash. The first 24 bytes travel in the code.
const payloadLen = 8 + 8 + 8 + 32

// devicesDigest names a set of devices in 8 bytes, whatever their order,
// keyed so that a code does not let anyone test guesses of its devices.
func (s *Signer) devicesDigest(devices []string) [8]byte {
	d := slices.Clone(devices)
	slices.Sort(d)
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("devices\x00")) // apart from the code's own MAC under the same key
	for _, x := range slices.Compact(d) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(x)))
		h.Write(n[:])
		h.Write([]byte(x))
	}
	var out [8]byte
	copy(out[:], h.Sum(nil))
	return out
}

// binding hashes what a confirmation is bound to.
func binding(caller, tool string, args any) ([32]byte, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return [32]byte{}, err
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(caller), []byte(tool), a} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out, nil
}

// Propose returns a confirmation code for caller to run tool with args on
// devices (what args reached when the person was asked, in any order), and
// when it expires. args must marshal to JSON deterministically (a struct, or
// a map, whose keys encoding/json sorts).
func (s *Signer) Propose(caller, tool string, args any, devices []string) (string, time.Time, error) {
	return s.ProposeFor(caller, tool, args, devices, TTL)
}

// ProposeFor is Propose for a confirmation that lasts ttl (an approval on
// maison's page, which a person opens on a phone, lasts longer than TTL).
func (s *Signer) ProposeFor(caller, tool string, args any, devices []string, ttl time.Duration) (string, time.Time, error) {
	bind, err := binding(caller, tool, args)
	if err != nil {
		return "", time.Time{}, err
	}
	exp := s.now().Add(ttl).Truncate(time.Second)
	p := make([]byte, payloadLen, payloadLen+32)
	rand.Read(p[:8])
	dev := s.devicesDigest(devices)
	copy(p[8:16], dev[:])
	binary.BigEndian.PutUint64(p[16:24], uint64(exp.Unix()))
	copy(p[24:], bind[:])
	mac := hmac.New(sha256.New, s.key)
	mac.Write(p)
	// The binding hash is not sent: the redeemer recomputes it from the call.
	code := append(append([]byte{}, p[:24]...), mac.Sum(nil)[:16]...)
	return "c-" + strings.ToLower(codec.EncodeToString(code)), exp, nil
}

// Redeem checks a confirmation for caller, tool and args and marks it used,
// then that args still reach devices, the devices they reached when it was
// proposed: if not, it is ErrChanged. A store that cannot record the use
// is ErrUnchecked. Any other failure is ErrInvalid.
func (s *Signer) Redeem(caller, tool string, args any, devices []string, code string) error {
	raw, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(code)), "c-")
	if !ok {
		return ErrInvalid
	}
	b, err := codec.DecodeString(strings.ToUpper(raw))
	if err != nil || len(b) != 24+16 {
		return ErrInvalid
	}
	bind, err := binding(caller, tool, args)
	if err != nil {
		return ErrInvalid
	}
	p := make([]byte, payloadLen)
	copy(p, b[:24])
	copy(p[24:], bind[:])
	mac := hmac.New(sha256.New, s.key)
	mac.Write(p)
	if !hmac.Equal(mac.Sum(nil)[:16], b[24:]) {
		return ErrInvalid
	}
	exp := time.Unix(int64(binary.BigEndian.Uint64(p[16:24])), 0)
	now := s.now()
	if !now.Before(exp) {
		return ErrInvalid
	}
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	// The nonce and the devices digest name the code: the first redeemer
	// to claim them, on any replica, is the only one.
	first, _, err := s.store.Claim(ctx, "confirm:"+hex.EncodeToString(p[:16]), nil, exp)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrUnchecked, err)
	case !first:
		return ErrInvalid
	}
	if dev := s.devicesDigest(devices); !hmac.Equal(dev[:], p[8:16]) {
		return ErrChanged
	}
	return nil
}

// Seal encrypts and authenticates payload for purpose with a key drawn
// from the confirmations' key (AES-256-GCM, the purpose bound as associated
// data): what comes back is safe in a URL and says nothing of the payload
// to whoever holds it (a model handed an approval link). Open takes it back
// only for the same purpose and key, untouched.
func (s *Signer) Seal(purpose string, payload []byte) string {
	aead := s.sealAEAD(purpose)
	// The nonce is drawn from the payload (as SIV does): one payload has one
	// seal, so a link made again is the same link, and two payloads, which
	// differ (a reference's id is random), never share a nonce.
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("seal-nonce\x00" + purpose + "\x00"))
	h.Write(payload)
	nonce := h.Sum(nil)[:aead.NonceSize()]
	return seal.EncodeToString(aead.Seal(slices.Clone(nonce), nonce, payload, []byte(purpose)))
}

// Open returns what Seal sealed for purpose, or ErrInvalid.
func (s *Signer) Open(purpose, sealed string) ([]byte, error) {
	raw, err := seal.DecodeString(sealed)
	aead := s.sealAEAD(purpose)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, ErrInvalid
	}
	payload, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(purpose))
	if err != nil {
		return nil, ErrInvalid
	}
	return payload, nil
}

// sealAEAD is the cipher of a purpose's seals. Its key is apart from the
// codes' MAC and the devices digest under the same key: its input starts
// with a label none of theirs can.
func (s *Signer) sealAEAD(purpose string) cipher.AEAD {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("seal-key\x00"))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(purpose)))
	h.Write(n[:])
	h.Write([]byte(purpose))
	block, err := aes.NewCipher(h.Sum(nil))
	if err != nil {
		panic(err) // a 32-byte key is always accepted
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return aead
}

// seal has one spelling for each payload, safe in a URL.
var seal = base64.RawURLEncoding.Strict()

// codec is case-insensitive, so a code survives being read aloud or retyped in any case.
var codec = base32.StdEncoding.WithPadding(base32.NoPadding)
