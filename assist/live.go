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
// for a short while so one question does not cost several round trips.
type Live struct {
	caller Caller
	ttl    time.Duration
	now    func() time.Time

	mu   sync.Mutex
	at   time.Time
	ents []Entity
}

// NewLive returns a Live over caller. A zero ttl means 5s.
func NewLive(caller Caller, ttl time.Duration) *Live {
	if ttl == 0 {
		ttl = 5 * time.Second
	}
	return &Live{caller: caller, ttl: ttl, now: time.Now}
}

// Entities returns every entity exposed to Assist.
func (l *Live) Entities(ctx context.Context) ([]Entity, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ents != nil && l.now().Sub(l.at) < l.ttl {
		return l.ents, nil
	}
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
	l.ents, l.at = ents, l.now()
	return ents, nil
}

// Forget drops the kept answer, after an action changed the house.
func (l *Live) Forget() {
	l.mu.Lock()
	l.ents = nil
	l.mu.Unlock()
}
