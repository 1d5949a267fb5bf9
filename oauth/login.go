package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"maison/state"
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
	// (or IPv6 /64s) within 15 minutes makes a fresh sender wait. Each
	// sender is an entry in the state store for two windows: a bounded
	// store (state.MaxEntries) fills before, and then refuses new senders
	// in words, and new sensitive actions with them, until they expire.
	maxFresh = 1 << 20
)

// loginGuard counts the passwords each sender (an IPv4 address, or an IPv6
// /64) submits, in the state store, over 15-minute windows: a sender with
// maxFailures attempts in the current and last window waits until they
// age out, and once maxRepeats passwords from senders that already tried
// have been checked in a window, those senders wait for the next one. A
// sender that has not tried is checked up to maxFresh of them a window,
// so whatever a flood below that, the owner's right password from a fresh
// address is checked. Every attempt counts when it is admitted (the
// store's counter is added to first, so simultaneous ones cannot outrun
// it); the right password takes its own back. Replicas sharing the store
// share the counts, and a maison restarted on a file keeps them.
type loginGuard struct {
	now   func() time.Time
	store state.Store

	mu    sync.Mutex
	start time.Time // the first window's, the same for every replica
}

func newLoginGuard(now func() time.Time, store state.Store) *loginGuard {
	if store == nil {
		store = state.NewMemory(0, now)
	}
	return &loginGuard{now: now, store: store}
}

// window is the number of the window now falls in, its start, and the
// keys of a sender's counts in it and in the last one.
func (g *loginGuard) window(ctx context.Context, now time.Time, group string) (start time.Time, cur, prev string, n int64, err error) {
	g.mu.Lock()
	first := g.start
	g.mu.Unlock()
	if first.IsZero() {
		// The windows start at the first attempt any replica counted.
		v := []byte(strconv.FormatInt(now.UnixNano(), 10))
		_, held, err := g.store.Claim(ctx, "login:start", v, now.Add(10*365*24*time.Hour))
		if err != nil {
			return time.Time{}, "", "", 0, err
		}
		if held != nil {
			v = held
		}
		ns, _ := strconv.ParseInt(string(v), 10, 64)
		first = time.Unix(0, ns)
		g.mu.Lock()
		g.start = first
		g.mu.Unlock()
	}
	n = int64(max(0, now.Sub(first)) / lockout)
	start = first.Add(time.Duration(n) * lockout)
	key := func(n int64) string { return "login:" + strconv.FormatInt(n, 10) + ":" + group }
	return start, key(n), key(n - 1), n, nil
}

// attempt admits a password from addr to be checked, counting it, or
// reports how long addr must wait, and whether that is because of many
// senders (paused) rather than its own attempts. A store that cannot count
// it is an error: nothing is checked.
func (g *loginGuard) attempt(addr string) (d time.Duration, paused bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	now := g.now()
	start, cur, prev, n, err := g.window(ctx, now, addressGroup(addr, 32, 64))
	if err != nil {
		return 0, false, err
	}
	inCur, err := g.store.Add(ctx, cur, 1, start.Add(2*lockout))
	if err != nil {
		return 0, false, err
	}
	inCur-- // before this one
	before, err := g.store.Add(ctx, prev, 0, time.Time{})
	if err != nil {
		g.store.Add(ctx, cur, -1, time.Time{})
		return 0, false, err
	}
	tried := inCur + before
	refuse := func(wait time.Duration, paused bool) (time.Duration, bool, error) {
		g.store.Add(ctx, cur, -1, time.Time{}) // a refused attempt is not counted
		return wait, paused, nil
	}
	switch {
	case tried >= maxFailures && inCur >= maxFailures:
		return refuse(start.Add(2*lockout).Sub(now), false)
	case tried >= maxFailures:
		return refuse(start.Add(lockout).Sub(now), false)
	}
	kind := "fresh"
	bound := int64(maxFresh)
	if tried > 0 {
		kind, bound = "repeats", maxRepeats
	}
	checked, err := g.store.Add(ctx, "login:"+strconv.FormatInt(n, 10)+":"+kind, 1, start.Add(lockout))
	if err != nil {
		g.store.Add(ctx, cur, -1, time.Time{})
		return 0, false, err
	}
	if checked > bound {
		return refuse(start.Add(lockout).Sub(now), true)
	}
	return 0, false, nil
}

// counts is how many passwords addr tried in the current window and in
// both, and the current window's start.
func (g *loginGuard) counts(addr string) (inCur, tried int64, start time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	start, cur, prev, _, err := g.window(ctx, g.now(), addressGroup(addr, 32, 64))
	if err != nil {
		return 0, 0, start
	}
	inCur, _ = g.store.Add(ctx, cur, 0, time.Time{})
	before, _ := g.store.Add(ctx, prev, 0, time.Time{})
	return inCur, inCur + before, start
}

// waits is how long addr must wait before its next password is checked,
// for its own attempts; 0 when it may try now.
func (g *loginGuard) waits(addr string) time.Duration {
	inCur, tried, start := g.counts(addr)
	switch {
	case tried >= maxFailures && inCur >= maxFailures:
		return start.Add(2 * lockout).Sub(g.now())
	case tried >= maxFailures:
		return start.Add(lockout).Sub(g.now())
	}
	return 0
}

// succeeded takes back the attempt of addr's right password, if it is
// still in the current window.
func (g *loginGuard) succeeded(addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	_, cur, _, _, err := g.window(ctx, g.now(), addressGroup(addr, 32, 64))
	if err != nil {
		return
	}
	if n, err := g.store.Add(ctx, cur, -1, time.Time{}); err == nil && n < 0 {
		g.store.Add(ctx, cur, 1, time.Time{})
	}
}

// left is how many more passwords addr may try before it waits.
func (g *loginGuard) left(addr string) int {
	_, tried, _ := g.counts(addr)
	return max(0, maxFailures-int(tried))
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
