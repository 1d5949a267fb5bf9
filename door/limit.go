package door

import (
	"sync"
	"time"
)

// maxTracked bounds how many addresses the limiter remembers in one window;
// past it, unknown addresses share one count, so a flood cannot grow memory.
const maxTracked = 10_000

// limiter counts events per key in fixed windows. It is per process: the
// edge in front of several replicas should limit too.
type limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

func newLimiter(max int, window time.Duration, now func() time.Time) *limiter {
	return &limiter{max: max, window: window, now: now, counts: map[string]int{}}
}

// over reports whether key has reached the limit in this window.
func (l *limiter) over(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll()
	return l.counts[l.bucket(key)] >= l.max
}

// count records one event for key.
func (l *limiter) count(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll()
	l.counts[l.bucket(key)]++
}

// roll starts a new window when the last one is over.
func (l *limiter) roll() {
	if now := l.now(); now.Sub(l.start) >= l.window {
		l.start, l.counts = now, map[string]int{}
	}
}

// bucket is key, or the shared overflow bucket once too many keys are known.
func (l *limiter) bucket(key string) string {
	if _, ok := l.counts[key]; !ok && len(l.counts) >= maxTracked {
		return ""
	}
	return key
}
