package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"hash/maphash"
	"net/netip"
	"sync"
	"time"
)

// Lockout rules for the operator password.
const (
	maxFailures = 5                // attempts per sender within a window or two, then locked out
	lockout     = 15 * time.Minute // a window: a sender's attempts count for one to two of them
	// maxRepeats bounds, per window, the passwords checked from everywhere
	// for senders that already tried one (beyond it they wait for the
	// next window).
	maxRepeats = 50_000
	// maxFresh bounds, per window, the passwords checked for senders that
	// had not tried one: only a flood from more than a million addresses
	// (or IPv6 /64s) within 15 minutes makes a fresh sender wait.
	maxFresh = 1 << 20
)

// The attempts sketch: sketchRows rows of sketchWidth 4-bit counters, one
// per window, two windows (the current and the last), so 2 × 4 × 2^22 / 2
// bytes = 16 MiB, allocated at the first attempt and freed after two
// quiet windows. A sender that never tried is counted as having tried only
// if each of its 4 counters was hit by others: with 1,000,000 senders
// trying within two windows, a chance of (1 - e^(-10^6/2^22))^4, about 1
// in 500.
const (
	sketchRows  = 4
	sketchWidth = 1 << 22
)

// loginGuard counts the passwords each sender (an IPv4 address, or an IPv6
// /64) submits, in bounded memory, in a count-min sketch over 15-minute
// windows: a sender with maxFailures attempts in the current and last
// window waits until they age out, and once maxRepeats passwords from
// senders that already tried have been checked in a window, those senders
// wait for the next one. A sender that has not tried is checked up to
// maxFresh of them a window, so whatever a flood below that, the owner's
// right password from a fresh address is checked (bar a sketch collision,
// see above). Every attempt counts when it is
// admitted (so that simultaneous ones cannot outrun the count); the right
// password takes its own back. It is per replica.
type loginGuard struct {
	now  func() time.Time
	seed maphash.Seed

	mu      sync.Mutex
	start   time.Time      // the current window's
	cur     *attemptSketch // nil while no attempt in the window
	prev    *attemptSketch // the last window's, nil if none
	repeats int            // passwords of senders that had tried, checked this window
	fresh   int            // passwords of senders that had not, checked this window
}

// attemptSketch is a count-min sketch of 4-bit saturating counters.
type attemptSketch struct {
	cells []byte // sketchRows × sketchWidth counters, two to a byte
}

func newLoginGuard(now func() time.Time) *loginGuard {
	return &loginGuard{now: now, seed: maphash.MakeSeed()}
}

// cells returns the index of key's counter in each row.
func (g *loginGuard) cells(key string) [sketchRows]int {
	h := maphash.String(g.seed, key)
	h1, h2 := uint32(h), uint32(h>>32)|1
	var idx [sketchRows]int
	for row := range idx {
		idx[row] = row*sketchWidth + int((h1+uint32(row)*h2)%sketchWidth)
	}
	return idx
}

func (s *attemptSketch) get(i int) int {
	if s == nil {
		return 0
	}
	return int(s.cells[i/2]>>(4*(i%2))) & 0xF
}

// add adds d to counter i, saturating at 15: a saturated counter stays.
func (s *attemptSketch) add(i, d int) {
	v := s.get(i)
	if v == 0xF || v+d < 0 {
		return
	}
	v = min(v+d, 0xF)
	shift := 4 * (i % 2)
	s.cells[i/2] = s.cells[i/2]&^(0xF<<shift) | byte(v)<<shift
}

// rotate starts a new window when the current one is over. Call with mu
// held.
func (g *loginGuard) rotate(now time.Time) {
	if g.start.IsZero() {
		g.start = now
	}
	if now.Sub(g.start) < lockout {
		return
	}
	n := now.Sub(g.start) / lockout
	g.prev, g.cur = g.cur, nil
	if n > 1 {
		g.prev = nil
	}
	g.start = g.start.Add(n * lockout)
	g.repeats, g.fresh = 0, 0
}

// attempt admits a password from addr to be checked, counting it, or
// reports how long addr must wait, and whether that is because of many
// senders (paused) rather than its own attempts.
func (g *loginGuard) attempt(addr string) (d time.Duration, paused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.rotate(now)
	idx := g.cells(addressGroup(addr, 32, 64))
	tried, wait := g.lockedOut(idx, now)
	switch {
	case wait > 0:
		return wait, false
	case tried > 0 && g.repeats >= maxRepeats:
		return g.start.Add(lockout).Sub(now), true
	case tried > 0:
		g.repeats++
	case g.fresh >= maxFresh:
		return g.start.Add(lockout).Sub(now), true
	default:
		g.fresh++
	}
	if g.cur == nil {
		g.cur = &attemptSketch{cells: make([]byte, sketchRows*sketchWidth/2)}
	}
	for _, i := range idx {
		g.cur.add(i, 1)
	}
	return 0, false
}

// lockedOut is how many passwords the sender of idx tried in the current
// and last window, and how long it waits for them, if it must. Call with mu
// held.
func (g *loginGuard) lockedOut(idx [sketchRows]int, now time.Time) (tried int, wait time.Duration) {
	tried, inCur := 0xFF, 0xFF
	for _, i := range idx {
		tried = min(tried, g.cur.get(i)+g.prev.get(i))
		inCur = min(inCur, g.cur.get(i))
	}
	switch {
	case tried >= maxFailures && inCur >= maxFailures:
		return tried, g.start.Add(2 * lockout).Sub(now)
	case tried >= maxFailures:
		return tried, g.start.Add(lockout).Sub(now)
	}
	return tried, 0
}

// waits is how long addr must wait before its next password is checked,
// for its own attempts; 0 when it may try now.
func (g *loginGuard) waits(addr string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, wait := g.lockedOut(g.cells(addressGroup(addr, 32, 64)), g.now())
	return wait
}

// succeeded takes back the attempt of addr's right password, if it is
// still in the current window.
func (g *loginGuard) succeeded(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	idx := g.cells(addressGroup(addr, 32, 64))
	for _, i := range idx {
		if g.cur.get(i) == 0 {
			return
		}
	}
	for _, i := range idx {
		g.cur.add(i, -1)
	}
}

// left is how many more passwords addr may try before it waits.
func (g *loginGuard) left(addr string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	tried := 0xFF
	for _, i := range g.cells(addressGroup(addr, 32, 64)) {
		tried = min(tried, g.cur.get(i)+g.prev.get(i))
	}
	return max(0, maxFailures-tried)
}

// addressGroup names the network addr belongs to: its first v4 bits for
// IPv4, its first v6 bits for IPv6. Anything else is its own group.
func addressGroup(addr string, v4, v6 int) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	bits := v6
	if ip.Is4() {
		bits = v4
	}
	p, err := ip.Prefix(bits)
	if err != nil {
		return addr
	}
	return p.String()
}

// passwordMatches compares in constant time, whatever the lengths.
func passwordMatches(given, want string) bool {
	g := sha256.Sum256([]byte(given))
	w := sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1 && want != ""
}
