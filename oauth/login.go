package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"sync"
	"time"
)

// Lockout rules for the operator password.
const (
	maxFailures     = 5                // per address, then locked out
	lockout         = 15 * time.Minute // how long an address stays locked out
	globalThreshold = 20               // failures from everywhere within lockout before every attempt slows
	globalPause     = 30 * time.Second // the wait between attempts once slowed
)

// loginGuard counts wrong passwords: an address that fails 5 times is locked
// out for 15 minutes, and once 20 attempts have failed from anywhere within
// 15 minutes, every attempt waits 30 seconds after the last failure (a
// guesser with many addresses gains little). Memory is bounded; it is per
// replica.
type loginGuard struct {
	now func() time.Time

	mu       sync.Mutex
	perAddr  map[string]*addrFailures
	global   []time.Time // failure times within the lockout window, oldest first
	lastFail time.Time
}

type addrFailures struct {
	count int
	first time.Time
	until time.Time // locked out until
}

func newLoginGuard(now func() time.Time) *loginGuard {
	return &loginGuard{now: now, perAddr: map[string]*addrFailures{}}
}

// wait reports how long addr must wait before its password is even checked.
func (g *loginGuard) wait(addr string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.prune(now)
	if f := g.perAddr[addr]; f != nil && now.Before(f.until) {
		return f.until.Sub(now)
	}
	if len(g.global) >= globalThreshold {
		if next := g.lastFail.Add(globalPause); now.Before(next) {
			return next.Sub(now)
		}
	}
	return 0
}

// failed records a wrong password from addr.
func (g *loginGuard) failed(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.prune(now)
	g.lastFail = now
	if len(g.global) < 10*globalThreshold {
		g.global = append(g.global, now)
	} else {
		g.global = append(g.global[1:], now)
	}
	f := g.perAddr[addr]
	if f == nil {
		if len(g.perAddr) >= maxKeys {
			addr = "" // past the bound, unknown addresses share one count
			f = g.perAddr[addr]
		}
		if f == nil {
			f = &addrFailures{first: now}
			g.perAddr[addr] = f
		}
	}
	f.count++
	if f.count >= maxFailures {
		f.until = now.Add(lockout)
		f.count = 0
		f.first = now
	}
}

// succeeded clears addr's count.
func (g *loginGuard) succeeded(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.perAddr[addr]; f != nil && !g.now().Before(f.until) {
		delete(g.perAddr, addr)
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

// passwordMatches compares in constant time, whatever the lengths.
func passwordMatches(given, want string) bool {
	g := sha256.Sum256([]byte(given))
	w := sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1 && want != ""
}
