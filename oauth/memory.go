package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"maison/state"
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

// window counts events per key in fixed windows, in a state store: the
// server's own memory for the per-replica rate limits, the shared store
// for the registration budgets.
type window struct {
	name   string // the store keys' prefix
	max    int
	length time.Duration
	now    func() time.Time
	store  state.Store
}

// maxKeys bounds how many addresses a window counts apart; past it unknown
// addresses share one count.
const maxKeys = 10_000

func newWindow(name string, max int, length time.Duration, now func() time.Time, store state.Store) *window {
	if store == nil {
		store = state.NewMemory(4*maxKeys, now)
	}
	return &window{name: name, max: max, length: length, now: now, store: store}
}

// allow counts one event for key and reports whether it is within the limit.
// It returns how long to wait otherwise (a minute when the store cannot
// count it).
func (w *window) allow(key string) (bool, time.Duration) {
	_, ok, wait, _, err := w.take(key)
	if err != nil {
		return false, time.Minute
	}
	return ok, wait
}

// take is allow that also returns how many events key had counted in the
// window before this one, and whether key, new past maxKeys, shares the
// count of the others that came too late. A store that cannot count is an
// error, and the event is refused.
func (w *window) take(key string) (n int, ok bool, wait time.Duration, shared bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), state.Timeout)
	defer cancel()
	now := w.now()
	i := now.UnixNano() / int64(w.length)
	end := time.Unix(0, (i+1)*int64(w.length))
	at := w.name + ":" + strconv.FormatInt(i, 10) + ":"
	c, err := w.store.Add(ctx, at+"k:"+key, 1, end)
	if err != nil {
		return 0, false, 0, false, err
	}
	if c == 1 { // a key new in this window
		keys, err := w.store.Add(ctx, at+"keys", 1, end)
		if err != nil {
			return 0, false, 0, false, err
		}
		if keys > maxKeys {
			w.store.Add(ctx, at+"k:"+key, -1, end)
			shared = true
			if c, err = w.store.Add(ctx, at+"shared", 1, end); err != nil {
				return 0, false, 0, false, err
			}
		}
	}
	if c > int64(w.max) {
		return int(c - 1), false, end.Sub(now), shared, nil
	}
	return int(c - 1), true, 0, shared, nil
}

// limits are the budgets of the unauthenticated endpoints, each its own:
// registering cannot use up the login page, nor the reverse. The
// registration budgets are kept in the state store, shared by replicas.
type limits struct {
	register    *window // per network
	registerAll *window // all networks together, past each one's first freeRegistrations
	authorize   *window // per address: each may fetch a metadata document
	token       *window // per address
}

func newLimits(now func() time.Time, store state.Store) *limits {
	return &limits{
		// The Claude app registers on every fresh connection and retries;
		// its calls come from Anthropic's networks. Generous per network;
		// the ceiling, 200 networks' worth, is only for a flood, and never
		// refuses a network's first freeRegistrations in a minute.
		register:    newWindow("register", 30, time.Minute, now, store),
		registerAll: newWindow("register-all", 6000, time.Minute, now, store),
		// Rate limits of one replica: in its own memory.
		authorize: newWindow("authorize", 60, time.Minute, now, nil),
		token:     newWindow("token", 120, time.Minute, now, nil),
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
