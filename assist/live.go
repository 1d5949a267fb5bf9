package assist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"maison/homeassistant"
	"maison/internal/shared"
	"maison/words"
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
	// kept is keyed by the identity's session: a live context read before
	// Home Assistant restarted is not joined with the states read after.
	kept *shared.Cache[uint64, []Entity]
}

// sessioned is an Identity that counts its sessions (homeassistant.Client).
type sessioned interface{ Session() uint64 }

// session is the identity's session, 0 when it does not count them.
func (l *Live) session() uint64 {
	if s, ok := l.id.(sessioned); ok {
		return s.Session()
	}
	return 0
}

// NewLive returns a Live over caller, resolving against id (nil: no entity
// is known by identity). A zero ttl means 5s.
func NewLive(caller Caller, id Identity, ttl time.Duration) *Live {
	if ttl == 0 {
		ttl = 5 * time.Second
	}
	l := &Live{caller: caller, id: id}
	l.kept = shared.New(func(ctx context.Context, _ uint64) ([]Entity, error) { return l.ask(ctx) }, ttl, nil)
	return l
}

// Entities returns every entity exposed to Assist, each tied to its entity
// id where identity confirms it (see Resolve).
func (l *Live) Entities(ctx context.Context) ([]Entity, error) {
	x, err := l.Exposure(ctx)
	return x.Entities, err
}

// Devices returns every entity exposed to Assist as words says it, each
// with its facts (FactsOf, from the identity's states). Nothing exposed is
// an empty list, not an error.
func (l *Live) Devices(ctx context.Context) ([]words.Device, error) {
	ents, err := l.Entities(ctx)
	if errors.Is(err, ErrNoMatch) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]words.Device, len(ents))
	for i, e := range ents {
		out[i] = Device(e, FactsOf(l.id, e))
	}
	return out, nil
}

// Exposure returns what is exposed to Assist with the doubts maison check reports.
func (l *Live) Exposure(ctx context.Context) (Exposure, error) {
	ents, err := l.kept.Get(ctx, l.session())
	if err != nil {
		return Exposure{}, err
	}
	return Resolve(ents, l.id), nil
}

// Fresh is Entities from a live context read now, never a kept one: for a
// decision that must see a lock renamed or exposed a moment ago.
func (l *Live) Fresh(ctx context.Context) ([]Entity, error) {
	ents, err := l.kept.Fresh(ctx, l.session())
	if err != nil {
		return nil, err
	}
	return Resolve(ents, l.id).Entities, nil
}

func (l *Live) ask(ctx context.Context) ([]Entity, error) {
	res, err := l.caller.CallAssist(ctx, "homeassistant__GetLiveContext", nil) // or GetLiveContext, before 2026.9
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
func (l *Live) Forget() { l.kept.Forget() }
