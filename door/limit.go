package door

import (
	"container/list"
	"sync"
	"time"
)

// maxTracked bounds how many keys (addresses, clients) a limiter remembers.
// Past it the key seen least recently is forgotten, which only ever makes
// the limit more lenient for that key: a flood of new keys can grow no
// memory and can refuse nobody.
const maxTracked = 10_000

// limiter is a token bucket per key: each key may spend burst events at
// once, and earns them back at burst per period. It is per process: the
// edge in front of several replicas should limit too.
type limiter struct {
	burst  float64
	period time.Duration
	now    func() time.Time
	max    int

	mu    sync.Mutex
	keys  map[string]*list.Element
	order *list.List // front: seen most recently
}

type bucket struct {
	key    string
	tokens float64
	at     time.Time
}

func newLimiter(burst int, period time.Duration, now func() time.Time) *limiter {
	return &limiter{burst: float64(burst), period: period, now: now, max: maxTracked, keys: map[string]*list.Element{}, order: list.New()}
}

// take spends n events for key when the bucket holds them, and otherwise
// says how long until it will. A request larger than the whole burst is
// never allowed; wait is then the time to refill the bucket.
func (l *limiter) take(key string, n int) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refill(key)
	need := float64(n)
	if b.tokens >= need {
		b.tokens -= need
		return true, 0
	}
	return false, l.until(b, min(need, l.burst))
}

// over reports whether key has no event left, without spending one.
func (l *limiter) over(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refill(key)
	if b.tokens >= 1 {
		return false, 0
	}
	return true, l.until(b, 1)
}

// until is how long b takes to hold need tokens.
func (l *limiter) until(b *bucket, need float64) time.Duration {
	return time.Duration((need - b.tokens) / l.burst * float64(l.period))
}

// refill finds key's bucket, creating it full, and adds what it earned
// since it was last seen. l.mu must be held.
func (l *limiter) refill(key string) *bucket {
	now := l.now()
	if e, ok := l.keys[key]; ok {
		l.order.MoveToFront(e)
		b := e.Value.(*bucket)
		if dt := now.Sub(b.at); dt > 0 {
			b.tokens = min(l.burst, b.tokens+l.burst*float64(dt)/float64(l.period))
			b.at = now
		}
		return b
	}
	for l.order.Len() >= l.max {
		oldest := l.order.Back()
		delete(l.keys, oldest.Value.(*bucket).key)
		l.order.Remove(oldest)
	}
	b := &bucket{key: key, tokens: l.burst, at: now}
	l.keys[key] = l.order.PushFront(b)
	return b
}

// tracked is how many keys are remembered.
func (l *limiter) tracked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}
