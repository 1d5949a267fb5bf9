// The websocket's subscriptions: subscribe_entities with its batched,
// compressed diffs, and subscribe_events' state_changed events.

package demo

import (
	"slices"
	"time"
)

// entitySub is one subscribe_entities subscription. It remembers what the
// client knows and what changed since, so several changes batch into one
// event and a diff is always against what was last sent.
type entitySub struct {
	filter  map[string]bool // nil means every entity
	known   map[string]*snap
	pending map[string]*snap // nil value: removed
	order   []string
	initial bool
}

// change is a new state for an entity; a nil s means it was removed.
type change struct {
	id     string
	s, old *snap
	at     time.Time
}

// markChanged queues changes for the subscriptions that see them, all under
// one lock so that they leave in one event.
func (c *wsConn) markChanged(chs ...change) {
	c.mu.Lock()
	queued := false
	for id := range c.eventSubs {
		for _, ch := range chs {
			c.out = append(c.out, stateChangedEvent(id, ch))
			queued = true
		}
	}
	for _, sub := range c.subs {
		for _, ch := range chs {
			if sub.filter != nil && !sub.filter[ch.id] {
				continue
			}
			sub.mark(ch.id, ch.s)
			queued = true
		}
	}
	c.mu.Unlock()
	if queued {
		c.poke()
	}
}

func (s *entitySub) mark(id string, n *snap) {
	if _, seen := s.pending[id]; !seen {
		s.order = append(s.order, id)
	}
	s.pending[id] = n
}

// flush builds the next subscribe_entities event, or nil when nothing the
// client can see changed.
func (s *entitySub) flush() map[string]any {
	if len(s.order) == 0 && !s.initial {
		return nil
	}
	add, chg := map[string]any{}, map[string]any{}
	var rem []string
	for _, id := range s.order {
		n, o := s.pending[id], s.known[id]
		switch {
		case n == nil:
			if o != nil {
				rem = append(rem, id)
				delete(s.known, id)
			}
		case o == nil:
			add[id] = compressed(n)
			s.known[id] = n
		default:
			if d := stateDiff(o, n); d != nil {
				chg[id] = d
			}
			s.known[id] = n
		}
	}
	s.order = s.order[:0]
	clear(s.pending)
	ev := map[string]any{}
	if len(add) > 0 || s.initial {
		ev["a"] = add
	}
	if len(chg) > 0 {
		ev["c"] = chg
	}
	if len(rem) > 0 {
		ev["r"] = rem
	}
	s.initial = false
	if len(ev) == 0 {
		return nil
	}
	return ev
}

// compressed is a state in subscribe_entities' compact form.
func compressed(s *snap) map[string]any {
	m := map[string]any{"s": s.state, "a": s.attrs, "c": compressedContext(s), "lc": unixFloat(s.lastChanged)}
	if !s.lastUpdated.Equal(s.lastChanged) {
		m["lu"] = unixFloat(s.lastUpdated)
	}
	return m
}

func compressedContext(s *snap) any {
	if s.userID == "" {
		return s.ctxID
	}
	return map[string]any{"id": s.ctxID, "parent_id": nil, "user_id": s.userID}
}

// stateDiff is Home Assistant's subscribe_entities diff between two states:
// "+" holds what changed, "-" the attribute names that disappeared.
func stateDiff(o, n *snap) map[string]any {
	plus := map[string]any{}
	if o.state != n.state {
		plus["s"] = n.state
	}
	if !o.lastChanged.Equal(n.lastChanged) {
		plus["lc"] = unixFloat(n.lastChanged)
	} else if !o.lastUpdated.Equal(n.lastUpdated) {
		plus["lu"] = unixFloat(n.lastUpdated)
	}
	if o.userID != n.userID {
		plus["c"] = map[string]any{"user_id": nilIfEmpty(n.userID), "id": n.ctxID}
	} else if o.ctxID != n.ctxID {
		plus["c"] = n.ctxID
	}
	attrs := map[string]any{}
	for k, v := range n.attrs {
		// Like Home Assistant, compare with old.get(key): a new key whose
		// value is null does not show up.
		if !valueEqual(o.attrs[k], v) {
			attrs[k] = v
		}
	}
	if len(attrs) > 0 {
		plus["a"] = attrs
	}
	var removed []string
	for k := range o.attrs {
		if _, ok := n.attrs[k]; !ok {
			removed = append(removed, k)
		}
	}
	if len(plus) == 0 && len(removed) == 0 {
		return nil
	}
	d := map[string]any{"+": plus}
	if len(removed) > 0 {
		slices.Sort(removed)
		d["-"] = map[string]any{"a": removed}
	}
	return d
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func unixFloat(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// isoTime formats like Python's datetime.isoformat() in UTC: microseconds
// only when non-zero.
func isoTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05+00:00")
	}
	return t.Format("2006-01-02T15:04:05.000000+00:00")
}

// fullState is a state as get_states returns it.
func fullState(id string, s *snap) map[string]any {
	return map[string]any{
		"entity_id":     id,
		"state":         s.state,
		"attributes":    s.attrs,
		"last_changed":  isoTime(s.lastChanged),
		"last_reported": isoTime(s.lastReported),
		"last_updated":  isoTime(s.lastUpdated),
		"context":       map[string]any{"id": s.ctxID, "parent_id": nil, "user_id": nilIfEmpty(s.userID)},
	}
}

// stateChangedEvent is a subscribe_events message for one change.
func stateChangedEvent(subID int64, ch change) []byte {
	var oldState, newState any
	if ch.old != nil {
		oldState = fullState(ch.id, ch.old)
	}
	var ctx map[string]any
	if ch.old != nil {
		ctx = map[string]any{"id": ch.old.ctxID, "parent_id": nil, "user_id": nil}
	}
	if ch.s != nil {
		newState = fullState(ch.id, ch.s)
		ctx = map[string]any{"id": ch.s.ctxID, "parent_id": nil, "user_id": nilIfEmpty(ch.s.userID)}
	}
	b, _ := marshal(map[string]any{"id": subID, "type": "event", "event": map[string]any{
		"event_type": "state_changed",
		"data":       map[string]any{"entity_id": ch.id, "old_state": oldState, "new_state": newState},
		"origin":     "LOCAL",
		"time_fired": isoTime(ch.at),
		"context":    ctx,
	}})
	return b
}

// subscribeEntities starts a subscribe_entities subscription, optionally
// to some entity ids, and queues every state it covers as its first event.
func (h *House) subscribeEntities(c *wsConn, id int64, msg map[string]any) {
	sub := &entitySub{known: map[string]*snap{}, pending: map[string]*snap{}, initial: true}
	if ids, ok := msg["entity_ids"].([]any); ok {
		sub.filter = map[string]bool{}
		for _, v := range ids {
			if s, ok := v.(string); ok {
				sub.filter[s] = true
			}
		}
	}
	// Lock order: h.mu before c.mu, as in notifyLocked.
	h.mu.Lock()
	c.mu.Lock()
	for _, eid := range h.order {
		if sub.filter == nil || sub.filter[eid] {
			sub.mark(eid, h.entities[eid].cur)
		}
	}
	b, _ := marshal(map[string]any{"id": id, "type": "result", "success": true, "result": nil})
	c.out = append(c.out, b)
	c.subs[id] = sub
	c.mu.Unlock()
	h.mu.Unlock()
	c.poke()
}
