package oauth

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// expiringSet remembers keys until they expire, in bounded memory. When it
// is full of live keys, add refuses: forgetting a used code would let it be
// used again, so a flooded set fails closed.
type expiringSet struct {
	max int
	now func() time.Time

	mu   sync.Mutex
	keys map[string]time.Time
}

func newExpiringSet(max int, now func() time.Time) *expiringSet {
	return &expiringSet{max: max, now: now, keys: map[string]time.Time{}}
}

// add records key until exp and reports whether it was new. It reports
// false for a key already there, and for any key when the set is full.
func (e *expiringSet) add(key string, exp time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	if old, ok := e.keys[key]; ok && now.Before(old) {
		return false
	}
	if len(e.keys) >= e.max {
		for k, x := range e.keys {
			if !now.Before(x) {
				delete(e.keys, k)
			}
		}
		if len(e.keys) >= e.max {
			return false
		}
	}
	e.keys[key] = exp
	return true
}

// has reports whether key is remembered and not expired.
func (e *expiringSet) has(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.keys[key]
	return ok && e.now().Before(x)
}

// window counts events per key in fixed windows, in bounded memory.
type window struct {
	max    int
	length time.Duration
	now    func() time.Time

	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

// maxKeys bounds how many addresses a window remembers; past it unknown
// addresses share one count.
const maxKeys = 10_000

func newWindow(max int, length time.Duration, now func() time.Time) *window {
	return &window{max: max, length: length, now: now, counts: map[string]int{}}
}

// allow counts one event for key and reports whether it is within the limit.
// It returns how long to wait otherwise.
func (w *window) allow(key string) (bool, time.Duration) {
	_, ok, wait, _ := w.take(key)
	return ok, wait
}

// take is allow that also returns how many events key had counted in the
// window before this one, and whether key, new past maxKeys, shares the
// count of the others that came too late.
func (w *window) take(key string) (n int, ok bool, wait time.Duration, shared bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	if now.Sub(w.start) >= w.length {
		w.start, w.counts = now, map[string]int{}
	}
	if _, ok := w.counts[key]; !ok && len(w.counts) >= maxKeys {
		key, shared = "", true
	}
	n = w.counts[key]
	if n >= w.max {
		return n, false, w.start.Add(w.length).Sub(now), shared
	}
	w.counts[key]++
	return n, true, 0, shared
}

// limits are the budgets of the unauthenticated endpoints, each its own:
// registering cannot use up the login page, nor the reverse.
type limits struct {
	register    *window // per network
	registerAll *window // all networks together, past each one's first freeRegistrations
	authorize   *window // per address: each may fetch a metadata document
	token       *window // per address
}

func newLimits(now func() time.Time) *limits {
	return &limits{
		// The Claude app registers on every fresh connection and retries;
		// its calls come from Anthropic's networks. Generous per network;
		// the ceiling, 200 networks' worth, is only for a flood, and never
		// refuses a network's first freeRegistrations in a minute.
		register:    newWindow(30, time.Minute, now),
		registerAll: newWindow(6000, time.Minute, now),
		authorize:   newWindow(60, time.Minute, now),
		token:       newWindow(120, time.Minute, now),
	}
}

// freeRegistrations is how many registrations a minute each network makes
// whatever the ceiling: a network that has not registered recently (the
// Claude app's) is refused only when more than maxKeys networks register
// within the minute, and the rest share one count.
const freeRegistrations = 5

// tooMany answers a request over its budget: why, then how long to wait.
func tooMany(w http.ResponseWriter, wait time.Duration, why string) {
	slowDown(w, wait, why+" Wait "+strconv.Itoa(waitSeconds(wait))+" seconds and try again.")
}

// slowDown answers a request over a budget in words that say how long to
// wait.
func slowDown(w http.ResponseWriter, wait time.Duration, description string) {
	w.Header().Set("Retry-After", strconv.Itoa(waitSeconds(wait)))
	w.Header().Set("Connection", "close") // the body is not read: do not wait for it
	writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "slow_down", "error_description": description})
}

// waitSeconds is wait in whole seconds, rounded up.
func waitSeconds(wait time.Duration) int { return int(wait.Seconds()) + 1 }

// writeJSON writes v with the headers every OAuth answer carries.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// oauthError writes an RFC 6749 error answer.
func oauthError(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}
