package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/netip"
	"sync"
	"time"
)

// Lockout rules for the operator password.
const (
	maxFailures     = 5                // per sender, then locked out
	lockout         = 15 * time.Minute // how long a sender stays locked out
	globalThreshold = 20               // failures from everywhere within lockout before each wrong password costs its sender globalPause
	globalPause     = 30 * time.Second // what a wrong password costs its sender once guessing is under way
)

// loginGuard counts wrong passwords by sender (an IPv4 address, or an IPv6
// /64): a sender that fails 5 times is locked out for 15 minutes, and once
// 20 attempts have failed from anywhere within 15 minutes, each wrong
// password also makes its own sender wait 30 seconds. A sender that has not
// failed never waits: the owner's right password is always checked. At most
// maxKeys senders are remembered; beyond them, the rest share one count, so
// however many addresses guess, at most guessesPerHour wrong passwords are
// checked an hour. It is per replica.
type loginGuard struct {
	now func() time.Time

	mu      sync.Mutex
	perAddr map[string]*addrFailures
	global  []time.Time // failure times within the lockout window, oldest first
}

type addrFailures struct {
	count  int
	first  time.Time
	until  time.Time // waits until
	paused bool      // the wait is one wrong password's pause, not a lockout
}

func newLoginGuard(now func() time.Time) *loginGuard {
	return &loginGuard{now: now, perAddr: map[string]*addrFailures{}}
}

// slot is the key addr's failures count under: its sender, or, once the
// table is full, the count every sender beyond it shares. Call with mu held.
func (g *loginGuard) slot(addr string) string {
	key := addressGroup(addr, 32, 64)
	if _, ok := g.perAddr[key]; !ok && len(g.perAddr) >= maxKeys {
		return ""
	}
	return key
}

// wait reports how long addr must wait before its password is checked, and
// whether that is one wrong password's pause rather than a lockout: only a
// sender that failed waits.
func (g *loginGuard) wait(addr string) (d time.Duration, paused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.prune(now)
	if f := g.perAddr[g.slot(addr)]; f != nil && now.Before(f.until) {
		return f.until.Sub(now), f.paused
	}
	return 0, false
}

// failed records a wrong password from addr.
func (g *loginGuard) failed(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.prune(now)
	if len(g.global) < 10*globalThreshold {
		g.global = append(g.global, now)
	} else {
		g.global = append(g.global[1:], now)
	}
	key := g.slot(addr)
	f := g.perAddr[key]
	if f == nil {
		f = &addrFailures{first: now}
		g.perAddr[key] = f
	}
	f.count++
	switch {
	case f.count >= maxFailures:
		f.until, f.paused = now.Add(lockout), false
		f.count = 0
		f.first = now
	case len(g.global) >= globalThreshold && f.until.Before(now.Add(globalPause)):
		f.until, f.paused = now.Add(globalPause), true
	}
}

// succeeded clears addr's count.
func (g *loginGuard) succeeded(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := addressGroup(addr, 32, 64)
	if f := g.perAddr[key]; f != nil && !g.now().Before(f.until) {
		delete(g.perAddr, key)
	}
}

func (g *loginGuard) prune(now time.Time) {
	i := 0
	for i < len(g.global) && now.Sub(g.global[i]) >= lockout {
		i++
	}
	g.global = g.global[i:]
	for a, f := range g.perAddr {
		if !now.Before(f.until) && now.Sub(f.first) >= lockout {
			delete(g.perAddr, a)
		}
	}
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
