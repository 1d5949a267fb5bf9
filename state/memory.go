package state

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Memory is a store in this process's memory: quick, bounded, and lost
// when the process stops.
type Memory struct {
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*memEntry
	size    int       // entries, a set's members each counting
	swept   time.Time // when the last sweep for room ran
}

type memEntry struct {
	kind    byte // kindValue, kindCounter or kindSet
	exp     time.Time
	value   []byte
	n       int64
	members map[string]time.Time // a set's; nil for a value or a counter
}

var _ Store = (*Memory)(nil)

// NewMemory returns a memory store of at most max entries, on clock now.
func NewMemory(max int, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	if max <= 0 {
		max = MaxEntries
	}
	return &Memory{max: max, now: now, entries: map[string]*memEntry{}}
}

func (m *Memory) String() string { return "memory (lost when maison stops)" }

// live returns key's entry while it lives, dropping it once expired. Call
// with mu held.
func (m *Memory) live(key string, now time.Time) *memEntry {
	e, ok := m.entries[key]
	if !ok {
		return nil
	}
	if e.kind == kindSet {
		for k, x := range e.members {
			if !now.Before(x) {
				delete(e.members, k)
				m.size--
			}
		}
		if len(e.members) > 0 {
			return e
		}
	} else if now.Before(e.exp) {
		return e
	}
	m.drop(key, e)
	return nil
}

func (m *Memory) drop(key string, e *memEntry) {
	delete(m.entries, key)
	if e.kind == kindSet {
		m.size -= len(e.members)
	} else {
		m.size--
	}
}

// room makes room for one more entry, sweeping what expired (at most once
// a second while full), or says the store is full. Call with mu held.
func (m *Memory) room(now time.Time) error {
	if m.size < m.max {
		return nil
	}
	if now.Sub(m.swept) >= time.Second {
		m.swept = now
		for k := range m.entries {
			m.live(k, now)
		}
	}
	if m.size < m.max {
		return nil
	}
	return ErrFull
}

// Claim implements Store.
func (m *Memory) Claim(_ context.Context, key string, value []byte, exp time.Time) (bool, []byte, error) {
	if err := checkEntry(key, value); err != nil {
		return false, nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if e := m.live(key, now); e != nil {
		if e.kind != kindValue {
			return false, nil, errKind(key)
		}
		return false, append([]byte{}, e.value...), nil
	}
	if err := m.room(now); err != nil {
		return false, nil, err
	}
	m.entries[key] = &memEntry{kind: kindValue, exp: exp, value: slices.Clone(value)}
	m.size++
	return true, nil, nil
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.live(key, m.now())
	switch {
	case e == nil:
		return nil, nil
	case e.kind != kindValue:
		return nil, errKind(key)
	}
	return slices.Clone(e.value), nil
}

// Add implements Store.
func (m *Memory) Add(_ context.Context, key string, n int64, exp time.Time) (int64, error) {
	if err := checkKey(key); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	e := m.live(key, now)
	switch {
	case e == nil && n == 0:
		return 0, nil
	case e == nil:
		if err := m.room(now); err != nil {
			return 0, err
		}
		e = &memEntry{kind: kindCounter, exp: exp}
		m.entries[key] = e
		m.size++
	case e.kind != kindCounter:
		return 0, errKind(key)
	}
	e.n += n
	return e.n, nil
}

// Join implements Store.
func (m *Memory) Join(_ context.Context, key, member string, exp time.Time, max int) (bool, time.Time, error) {
	if err := checkKey(key); err != nil {
		return false, time.Time{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	e := m.live(key, now)
	switch {
	case e == nil:
	case e.kind != kindSet:
		return false, time.Time{}, errKind(key)
	case !e.members[member].IsZero():
		return true, time.Time{}, nil
	case len(e.members) >= max:
		var first time.Time
		for _, x := range e.members {
			if first.IsZero() || x.Before(first) {
				first = x
			}
		}
		return false, first, nil
	}
	if err := m.room(now); err != nil {
		return false, time.Time{}, err
	}
	if e == nil {
		e = &memEntry{kind: kindSet, members: map[string]time.Time{}}
		m.entries[key] = e
	}
	e.members[member] = exp
	m.size++
	return true, time.Time{}, nil
}

// Leave implements Store.
func (m *Memory) Leave(_ context.Context, key, member string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.live(key, m.now())
	if e == nil || e.kind != kindSet {
		return nil
	}
	if _, ok := e.members[member]; ok {
		delete(e.members, member)
		m.size--
		if len(e.members) == 0 {
			delete(m.entries, key)
		}
	}
	return nil
}

// Close implements Store.
func (m *Memory) Close() error { return nil }

// The kinds of entry.
const (
	kindValue   = 'v'
	kindCounter = 'n'
	kindSet     = 's'
)

// checkEntry refuses a key or a value a store cannot keep.
func checkEntry(key string, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if len(value) > maxValue {
		return errors.New("state: a value must be at most 8 KiB")
	}
	return nil
}

// errKind is a key used as two kinds of entry: a mistake in maison.
func errKind(key string) error {
	return errors.New("state: " + strconv.Quote(key) + " is held by another kind of entry")
}
