package door

import (
	"log/slog"
	"sort"
	"sync"
	"time"
)

// summaryWindow is how often repeated refusals are summarised.
const summaryWindow = time.Minute

// maxSummarised bounds the addresses a summary remembers.
const maxSummarised = 1000

// refusals writes the first refusal of each kind in a window as its own
// line, and every later one of that kind only in one summary line when the
// window ends: a flood of wrong tokens writes two lines a minute, not one
// per request.
type refusals struct {
	log    *slog.Logger
	window time.Duration

	mu      sync.Mutex
	kinds   map[string]*tally
	pending bool // a summary is scheduled
}

type tally struct {
	count int
	addrs map[string]int
}

func newRefusals(log *slog.Logger) *refusals {
	return &refusals{log: log, window: summaryWindow, kinds: map[string]*tally{}}
}

// note records one refusal of kind (a few words) from addr; attrs describe
// it and are logged only when it is the first of its kind in the window.
func (s *refusals) note(kind, addr string, attrs ...any) {
	s.mu.Lock()
	if !s.pending {
		s.pending = true
		time.AfterFunc(s.window, s.flush)
	}
	t, seen := s.kinds[kind]
	if !seen {
		s.kinds[kind] = &tally{addrs: map[string]int{}}
		s.mu.Unlock()
		s.log.Info("request refused", append([]any{"reason", kind, "remote", addr}, attrs...)...)
		return
	}
	t.count++
	if _, ok := t.addrs[addr]; ok || len(t.addrs) < maxSummarised {
		t.addrs[addr]++
	}
	s.mu.Unlock()
}

// flush writes one line per kind refused again since its first line.
func (s *refusals) flush() {
	s.mu.Lock()
	kinds := s.kinds
	s.kinds, s.pending = map[string]*tally{}, false
	s.mu.Unlock()
	for kind, t := range kinds {
		if t.count == 0 {
			continue
		}
		top, topN := "", 0
		addrs := make([]string, 0, len(t.addrs))
		for a := range t.addrs {
			addrs = append(addrs, a)
		}
		sort.Strings(addrs)
		for _, a := range addrs {
			if t.addrs[a] > topN {
				top, topN = a, t.addrs[a]
			}
		}
		s.log.Info("requests refused again", "reason", kind, "more", t.count, "within", s.window,
			"addresses", len(t.addrs), "most_from", top, "most_count", topN)
	}
}
