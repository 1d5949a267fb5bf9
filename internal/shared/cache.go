// Package shared is a cache of one result per key that concurrent callers
// share: the first caller starts the work, the others wait on it, and a
// success is kept for a while. Each caller stops waiting when its own
// context ends; the work itself goes on for those still waiting.
package shared

import (
	"context"
	"sync"
	"time"
)

// Cache shares one call of its work per key among concurrent callers and
// keeps a success for MaxAge. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	work   func(ctx context.Context, key K) (V, error)
	maxAge time.Duration
	now    func() time.Time

	mu       sync.Mutex
	inflight map[K]*call[V]
	kept     map[K]*call[V]
	gen      uint64 // bumped by Forget: work started before it is not kept
}

// call is one run of the work that several callers wait on.
type call[V any] struct {
	done chan struct{}
	v    V
	err  error
	at   time.Time
}

// New returns a Cache running work, keeping each success for maxAge, on
// the clock now (nil means time.Now).
func New[K comparable, V any](work func(ctx context.Context, key K) (V, error), maxAge time.Duration, now func() time.Time) *Cache[K, V] {
	if now == nil {
		now = time.Now
	}
	return &Cache[K, V]{work: work, maxAge: maxAge, now: now, inflight: map[K]*call[V]{}, kept: map[K]*call[V]{}}
}

// Get returns the kept result for key when it is younger than MaxAge, or
// else waits on the work for key, started now or already running.
func (c *Cache[K, V]) Get(ctx context.Context, key K) (V, error) {
	c.mu.Lock()
	if k, ok := c.kept[key]; ok && c.now().Sub(k.at) < c.maxAge {
		c.mu.Unlock()
		return k.v, nil
	}
	cl, ok := c.inflight[key]
	if !ok {
		cl = &call[V]{done: make(chan struct{})}
		c.inflight[key] = cl
		// The work outlives any one caller: others may be waiting on it.
		go c.run(context.WithoutCancel(ctx), key, cl, c.gen)
	}
	c.mu.Unlock()
	select {
	case <-cl.done:
		return cl.v, cl.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// Fresh runs the work for key now, for the caller alone, and keeps a
// success unless Forget was called meanwhile: for a decision that must see
// the present, not a kept answer.
func (c *Cache[K, V]) Fresh(ctx context.Context, key K) (V, error) {
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	v, err := c.work(ctx, key)
	if err == nil {
		c.mu.Lock()
		if gen == c.gen {
			c.kept[key] = &call[V]{v: v, at: c.now()}
		}
		c.mu.Unlock()
	}
	return v, err
}

// Forget drops every kept result; work already running is not kept either.
func (c *Cache[K, V]) Forget() {
	c.mu.Lock()
	clear(c.kept)
	c.gen++
	c.mu.Unlock()
}

func (c *Cache[K, V]) run(ctx context.Context, key K, cl *call[V], gen uint64) {
	cl.v, cl.err = c.work(ctx, key)
	cl.at = c.now()
	c.mu.Lock()
	delete(c.inflight, key)
	if cl.err == nil && gen == c.gen {
		c.kept[key] = cl
	}
	c.mu.Unlock()
	close(cl.done)
}
