package state_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/internal/redistest"
	"maison/internal/testkit"
	"maison/state"
)

// clock is a clock the tests move by hand.
type clock = testkit.Clock

// backend is one kind of store under test, with how its time passes.
type backend struct {
	name  string
	open  func(t *testing.T, max int) state.Store
	now   func() time.Time
	after func(d time.Duration) // lets d pass for the store
}

func backends(t *testing.T) []backend {
	mem := testkit.NewClock(time.Unix(1_800_000_000, 0))
	file := testkit.NewClock(time.Unix(1_800_000_000, 0))
	return []backend{
		{"memory", func(t *testing.T, max int) state.Store { return state.NewMemory(max, mem.Now) }, mem.Now, mem.Add},
		{"file", func(t *testing.T, max int) state.Store {
			f, err := state.OpenFile(t.TempDir(), max, file.Now)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, file.Now, file.Add},
		{"redis", func(t *testing.T, max int) state.Store {
			srv := redistest.Start(t)
			r, err := state.OpenRedis(t.Context(), srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return r
		}, time.Now, time.Sleep},
	}
}

// TestTheFirstClaimWinsAndOnlyIt: of many claims of one key at once,
// exactly one wins, and the others see its value.
func TestTheFirstClaimWinsAndOnlyIt(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, 0)
			ctx := t.Context()
			var wins atomic.Int32
			var wg sync.WaitGroup
			for i := range 40 {
				wg.Go(func() {
					won, held, err := s.Claim(ctx, "code:x", []byte(fmt.Sprint(i)), b.now().Add(time.Minute))
					if err != nil {
						t.Error(err)
						return
					}
					if won {
						wins.Add(1)
					} else if len(held) == 0 {
						t.Error("a lost claim did not see the winner's value")
					}
				})
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("%d claims won, want exactly 1", wins.Load())
			}
			v, err := s.Get(ctx, "code:x")
			if err != nil || len(v) == 0 {
				t.Fatalf("Get = %q, %v; want the winner's value", v, err)
			}
			if v, err := s.Get(ctx, "code:none"); v != nil || err != nil {
				t.Fatalf("Get of a missing key = %q, %v; want nil, nil", v, err)
			}
			won, held, err := s.Claim(ctx, "code:empty", nil, b.now().Add(time.Minute))
			if !won || err != nil {
				t.Fatalf("claim of an empty value = %v, %v", won, err)
			}
			if won, held, err = s.Claim(ctx, "code:empty", nil, b.now().Add(time.Minute)); won || held == nil || err != nil {
				t.Fatalf("second claim of an empty value = %v, %q, %v; want lost, empty but not nil", won, held, err)
			}
		})
	}
}

// TestEntriesExpireOnTheirOwn: a claim, a counter and a set member are
// gone once their time passes, and a key can be claimed again.
func TestEntriesExpireOnTheirOwn(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, 0)
			ctx := t.Context()
			exp := b.now().Add(300 * time.Millisecond)
			if won, _, err := s.Claim(ctx, "k", []byte("a"), exp); !won || err != nil {
				t.Fatal(won, err)
			}
			if n, err := s.Add(ctx, "n", 3, exp); n != 3 || err != nil {
				t.Fatal(n, err)
			}
			if ok, _, err := s.Join(ctx, "set", "m", exp, 1); !ok || err != nil {
				t.Fatal(ok, err)
			}
			if ok, first, err := s.Join(ctx, "set", "m2", exp, 1); ok || err != nil || first.IsZero() {
				t.Fatalf("join past the bound = %v, %v, %v; want refused with the first expiry", ok, first, err)
			}
			b.after(500 * time.Millisecond)
			if v, err := s.Get(ctx, "k"); v != nil || err != nil {
				t.Fatalf("after expiry Get = %q, %v", v, err)
			}
			if won, _, err := s.Claim(ctx, "k", []byte("b"), b.now().Add(time.Minute)); !won || err != nil {
				t.Fatalf("claim after expiry = %v, %v; want won", won, err)
			}
			if n, err := s.Add(ctx, "n", 0, time.Time{}); n != 0 || err != nil {
				t.Fatalf("counter after expiry = %d, %v; want 0", n, err)
			}
			if ok, _, err := s.Join(ctx, "set", "m2", b.now().Add(time.Minute), 1); !ok || err != nil {
				t.Fatalf("join after the member expired = %v, %v; want joined", ok, err)
			}
		})
	}
}

// TestCountersAddUpUnderConcurrency: every addition counts once, and a
// counter keeps the expiry of its first addition.
func TestCountersAddUpUnderConcurrency(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, 0)
			ctx := t.Context()
			var wg sync.WaitGroup
			for range 50 {
				wg.Go(func() {
					if _, err := s.Add(ctx, "tries", 1, b.now().Add(time.Minute)); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if n, err := s.Add(ctx, "tries", -1, b.now().Add(time.Hour)); n != 49 || err != nil {
				t.Fatalf("after 50 additions and one taken back: %d, %v; want 49", n, err)
			}
			if n, err := s.Add(ctx, "tries", 0, time.Time{}); n != 49 || err != nil {
				t.Fatalf("read = %d, %v", n, err)
			}
			if n, err := s.Add(ctx, "never", 0, time.Time{}); n != 0 || err != nil {
				t.Fatalf("read of a missing counter = %d, %v", n, err)
			}
		})
	}
}

// TestSetsHoldAtMostTheirBound: members join up to the bound, a member
// already there counts as joined, and one leaving makes room.
func TestSetsHoldAtMostTheirBound(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, 0)
			ctx := t.Context()
			base := b.now()
			var wg sync.WaitGroup
			var joined atomic.Int32
			for i := range 12 {
				wg.Go(func() {
					ok, _, err := s.Join(ctx, "waiting:c", fmt.Sprint("m", i), base.Add(time.Duration(i+1)*time.Minute), 5)
					if err != nil {
						t.Error(err)
					}
					if ok {
						joined.Add(1)
					}
				})
			}
			wg.Wait()
			if joined.Load() != 5 {
				t.Fatalf("%d joined a set bounded at 5", joined.Load())
			}
			ok, first, err := s.Join(ctx, "waiting:c", "late", base.Add(time.Hour), 5)
			if ok || err != nil || !first.After(base) || first.After(base.Add(13*time.Minute)) {
				t.Fatalf("join of a full set = %v, %v, %v; want refused, with a member's expiry", ok, first, err)
			}
			if ok, _, _ := s.Join(ctx, "waiting:other", "late", base.Add(time.Hour), 5); !ok {
				t.Fatal("another set is not bounded by this one")
			}
			// Find a member and let it leave.
			for i := range 12 {
				m := fmt.Sprint("m", i)
				if ok, _, _ := s.Join(ctx, "waiting:c", m, base.Add(time.Hour), 5); ok {
					if err := s.Leave(ctx, "waiting:c", m); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			if ok, _, err := s.Join(ctx, "waiting:c", "late", base.Add(time.Hour), 5); !ok || err != nil {
				t.Fatalf("join after one left = %v, %v", ok, err)
			}
		})
	}
}

// TestAFullStoreRefusesRatherThanForgets: at its bound a store refuses
// new entries with ErrFull, and what it holds still counts.
func TestAFullStoreRefusesRatherThanForgets(t *testing.T) {
	for _, b := range backends(t)[:2] {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, 3)
			ctx := t.Context()
			for i := range 3 {
				if won, _, err := s.Claim(ctx, fmt.Sprint("used:", i), nil, b.now().Add(time.Hour)); !won || err != nil {
					t.Fatal(won, err)
				}
			}
			if _, _, err := s.Claim(ctx, "used:new", nil, b.now().Add(time.Hour)); !errors.Is(err, state.ErrFull) {
				t.Fatalf("claim in a full store: %v, want ErrFull", err)
			}
			if _, err := s.Add(ctx, "count", 1, b.now().Add(time.Hour)); !errors.Is(err, state.ErrFull) {
				t.Fatalf("counter in a full store: %v, want ErrFull", err)
			}
			if won, _, err := s.Claim(ctx, "used:0", nil, b.now().Add(time.Hour)); won || err != nil {
				t.Fatalf("a used entry in a full store: won=%v, %v; want still used", won, err)
			}
			b.after(2 * time.Hour)
			if won, _, err := s.Claim(ctx, "used:new", nil, b.now().Add(time.Hour)); !won || err != nil {
				t.Fatalf("once the others expired: %v, %v; want room", won, err)
			}
		})
	}
}

// TestTheFileKeepsAnswersAcrossARestart: what was claimed in the file is
// still claimed when the file is opened again, and a second process
// cannot open it at the same time.
func TestTheFileKeepsAnswersAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	f, err := state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if won, _, err := f.Claim(ctx, "answer:a-1", []byte("done"), time.Now().Add(time.Hour)); !won || err != nil {
		t.Fatal(won, err)
	}
	if _, err := f.Add(ctx, "tries", 4, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := state.OpenFile(dir, 0, nil); err == nil || !strings.Contains(err.Error(), "another process") {
		t.Fatalf("a second open of the same file: %v; want refused, naming another process", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f, err = state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if won, held, err := f.Claim(ctx, "answer:a-1", []byte("again"), time.Now().Add(time.Hour)); won || string(held) != "done" || err != nil {
		t.Fatalf("after a restart the claim = won %v, %q, %v; want lost to %q", won, held, err, "done")
	}
	if n, _ := f.Add(ctx, "tries", 0, time.Time{}); n != 4 {
		t.Fatalf("after a restart the counter is %d, want 4", n)
	}
}

// TestAStoreThatDoesNotAnswerIsUnavailable: a Redis server stopped, or
// too slow, makes every operation fail with ErrUnavailable within the
// timeout; started again, it answers with what it held.
func TestAStoreThatDoesNotAnswerIsUnavailable(t *testing.T) {
	srv := redistest.Start(t)
	s, err := state.OpenRedis(t.Context(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	if won, _, err := s.Claim(ctx, "code:1", nil, time.Now().Add(time.Hour)); !won || err != nil {
		t.Fatal(won, err)
	}
	srv.Kill()
	if _, _, err := s.Claim(ctx, "code:2", nil, time.Now().Add(time.Hour)); !errors.Is(err, state.ErrUnavailable) {
		t.Fatalf("claim with the server down: %v, want ErrUnavailable", err)
	}
	if _, err := s.Get(ctx, "code:1"); !errors.Is(err, state.ErrUnavailable) {
		t.Fatalf("get with the server down: %v, want ErrUnavailable", err)
	}
	srv.Restart()
	if won, _, err := s.Claim(ctx, "code:1", nil, time.Now().Add(time.Hour)); won || err != nil {
		t.Fatalf("after the server restarted, a used code: won=%v, %v; want still used", won, err)
	}
	srv.Pause()
	_, _, err = s.Claim(ctx, "code:3", nil, time.Now().Add(time.Hour))
	srv.Resume()
	if !errors.Is(err, state.ErrUnavailable) {
		t.Fatalf("claim with the server not answering: %v, want ErrUnavailable", err)
	}
}

// TestOpenChoosesOneStore: a directory or a URL, not both; a URL that is
// not Redis's is refused naming the setting.
func TestOpenChoosesOneStore(t *testing.T) {
	ctx := context.Background()
	if _, err := state.Open(ctx, state.Config{Dir: t.TempDir(), URL: "redis://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "both") {
		t.Fatalf("both set: %v", err)
	}
	if _, err := state.Open(ctx, state.Config{URL: "http://user:hunter2@example.com"}); err == nil || !strings.Contains(err.Error(), "MAISON_STATE_URL") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("a wrong URL: %v; want refused naming MAISON_STATE_URL, without the password", err)
	}
	s, err := state.Open(ctx, state.Config{})
	if err != nil || !strings.HasPrefix(state.Describe(s), "memory") {
		t.Fatalf("neither set: %v, %v; want memory", state.Describe(s), err)
	}
}
