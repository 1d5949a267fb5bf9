package accesslog

import (
	"log/slog"
	"sort"
	"sync"
	"time"
)

// SummaryWindow is how often repeated refusals are summarised.
const SummaryWindow = time.Minute

// maxSummarised bounds the addresses a summary remembers.
const maxSummarised = 1000

// Refusals keeps floods of refusals out of the log: the first refusal of
// each kind in a window gets its own line, written by the caller, and every
// later one of that kind is only counted, into one summary line when the
// window ends. A flood of wrong tokens writes two lines a minute, not one
// per request. It is safe for concurrent use.
type Refusals struct {
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

// NewRefusals returns refusals summarised to log every window (zero means
// SummaryWindow).
func NewRefusals(log *slog.Logger, window time.Duration) *Refusals {
	if window <= 0 {
		window = SummaryWindow
	}
	return &Refusals{log: log, window: window, kinds: map[string]*tally{}}
}

// Note records one refusal of kind (a few words, from a fixed set) from
// addr, and reports whether it is the first of its kind in the window: the
// caller then writes its line.
func (s *Refusals) Note(kind, addr string) (first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pending {
		s.pending = true
		time.AfterFunc(s.window, s.Flush)
	}
	t, seen := s.kinds[kind]
	if !seen {
		s.kinds[kind] = &tally{addrs: map[string]int{}}
		return true
	}
	t.count++
	if _, ok := t.addrs[addr]; ok || len(t.addrs) < maxSummarised {
		t.addrs[addr]++
	}
	return false
}

// Flush writes one line per kind refused again since its first line, and
// starts a new window. The window's end calls it; a caller may call it
// sooner.
func (s *Refusals) Flush() {
	s.mu.Lock()
	kinds := s.kinds
	s.kinds, s.pending = map[string]*tally{}, false
	s.mu.Unlock()
	names := make([]string, 0, len(kinds))
	for kind := range kinds {
		names = append(names, kind)
	}
	sort.Strings(names)
	for _, kind := range names {
		t := kinds[kind]
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
