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

// allow counts one event for key and reports whether key is still under the limit.
func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); now.Sub(l.start) >= l.window {
		l.start, l.counts = now, map[string]int{}
	}
	if _, ok := l.counts[key]; !ok && len(l.counts) >= maxTracked {
		key = "" // the overflow bucket
	}
	l.counts[key]++
	return l.counts[key] <= l.max
}
