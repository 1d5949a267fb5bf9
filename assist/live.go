package assist

import (
	"context"
	"fmt"
	"sync"
	"time"

	"maison/homeassistant"
)

// Caller calls an Assist tool by its stable canonical name.
type Caller interface {
	CallAssist(ctx context.Context, canonical string, args map[string]any) (homeassistant.ToolResult, error)
}

// Live reads what is exposed to Assist (GetLiveContext), keeping the answer
// for a short while so one question does not cost several round trips, and
// ties each entity to its id by identity (Resolve) on every read, against
// the current states and registry. Concurrent callers share one request to
// Home Assistant, and each stops waiting when its own context ends.
type Live struct {
	caller Caller
	id     Identity
	ttl    time.Duration
	now    func() time.Time

	mu       sync.Mutex
	at       time.Time
	ents     []Entity
	gen      int // bumped by Forget: an answer asked for before it is not kept
	inflight *liveCall
}

// liveCall is one GetLiveContext request that several callers wait on.
type liveCall struct {
	done chan struct{}
	ents []Entity
	err  error
}

// NewLive returns a Live over caller, resolving against id (nil: no entity
// is known by identity). A zero ttl means 5s.
func NewLive(caller Caller, id Identity, ttl time.Duration) *Live {
	if ttl == 0 {
		ttl = 5 * time.Second
	}
	return &Live{caller: caller, id: id, ttl: ttl, now: time.Now}
}

// Entities returns every entity exposed to Assist, each tied to its entity
// id where identity confirms it (see Resolve).
func (l *Live) Entities(ctx context.Context) ([]Entity, error) {
	x, err := l.Exposure(ctx)
	return x.Entities, err
}

// Exposure returns what is exposed to Assist with the doubts maison check reports.
func (l *Live) Exposure(ctx context.Context) (Exposure, error) {
	ents, err := l.words(ctx)
	if err != nil {
		return Exposure{}, err
	}
	return Resolve(ents, l.id), nil
}

// Fresh is Entities from a live context read now, never a kept one: for a
// decision that must see a lock renamed or exposed a moment ago.
func (l *Live) Fresh(ctx context.Context) ([]Entity, error) {
	l.mu.Lock()
	gen := l.gen
	l.mu.Unlock()
	ents, err := l.ask(ctx)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if gen == l.gen {
		l.ents, l.at = ents, l.now()
	}
	l.mu.Unlock()
	return Resolve(ents, l.id).Entities, nil
}

// words returns the live context's entities as Home Assistant wrote them.
func (l *Live) words(ctx context.Context) ([]Entity, error) {
	l.mu.Lock()
	if l.ents != nil && l.now().Sub(l.at) < l.ttl {
		ents := l.ents
		l.mu.Unlock()
		return ents, nil
	}
	c := l.inflight
	if c == nil {
		c = &liveCall{done: make(chan struct{})}
		l.inflight = c
		// The request outlives any one caller: others may be waiting on it.
		go l.fetch(context.WithoutCancel(ctx), c, l.gen)
	}
	l.mu.Unlock()
	select {
	case <-c.done:
		return c.ents, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fetch asks Home Assistant once; the client bounds the request.
func (l *Live) fetch(ctx context.Context, c *liveCall, gen int) {
	c.ents, c.err = l.ask(ctx)
	l.mu.Lock()
	l.inflight = nil
	if c.err == nil && gen == l.gen {
		l.ents, l.at = c.ents, l.now()
	}
	l.mu.Unlock()
	close(c.done)
}

func (l *Live) ask(ctx context.Context) ([]Entity, error) {
	res, err := l.caller.CallAssist(ctx, "GetLiveContext", nil)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("assist: GetLiveContext failed: %s", Name(res.Text))
	}
	ents, err := ParseLiveContext(res.Text)
	if err != nil {
		return nil, err
	}
	if ents == nil {
		ents = []Entity{}
	}
	return ents, nil
}

// Forget drops the kept answer, after an action changed the house.
func (l *Live) Forget() {
	l.mu.Lock()
	l.ents = nil
	l.gen++
	l.mu.Unlock()
}
