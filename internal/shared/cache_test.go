package shared

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/internal/testkit"
)

// clock is a clock the tests move by hand.
type clock = testkit.Clock

func TestConcurrentCallersShareOneCall(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	release := make(chan struct{})
	c := New(func(ctx context.Context, k string) (string, error) {
		calls.Add(1)
		<-release
		return "v:" + k, nil
	}, time.Minute, nil)
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Go(func() {
			v, err := c.Get(t.Context(), "a")
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		})
	}
	time.Sleep(20 * time.Millisecond) // let the callers queue on the one call
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls of the work, want 1", n)
	}
	for _, v := range results {
		if v != "v:a" {
			t.Errorf("a caller got %q", v)
		}
	}
	if v, _ := c.Get(t.Context(), "b"); v != "v:b" || calls.Load() != 2 {
		t.Errorf("another key: %q after %d calls", v, calls.Load())
	}
}

func TestKeptForMaxAgeOnly(t *testing.T) {
	t.Parallel()
	clk := testkit.NewClock(time.Unix(0, 0))
	var calls atomic.Int32
	c := New(func(ctx context.Context, k int) (int32, error) { return calls.Add(1), nil }, 3*time.Second, clk.Now)
	first, _ := c.Get(t.Context(), 1)
	clk.Add(2 * time.Second)
	if v, _ := c.Get(t.Context(), 1); v != first {
		t.Errorf("a result two seconds old was not kept: %d then %d", first, v)
	}
	clk.Add(2 * time.Second)
	if v, _ := c.Get(t.Context(), 1); v == first {
		t.Errorf("a result four seconds old was kept past three")
	}
}

func TestFailuresAreNotKept(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	boom := errors.New("boom")
	c := New(func(ctx context.Context, k int) (int, error) {
		if calls.Add(1) == 1 {
			return 0, boom
		}
		return 7, nil
	}, time.Minute, nil)
	if _, err := c.Get(t.Context(), 1); !errors.Is(err, boom) {
		t.Fatalf("first call: %v", err)
	}
	if v, err := c.Get(t.Context(), 1); err != nil || v != 7 {
		t.Errorf("after a failure: %d, %v; want the work run again", v, err)
	}
}

func TestACallerThatGivesUpLeavesTheWorkToOthers(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var calls atomic.Int32
	c := New(func(ctx context.Context, k int) (int, error) {
		calls.Add(1)
		<-release
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 42, nil
	}, time.Minute, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { _, err := c.Get(ctx, 1); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("a caller that gave up got %v", err)
	}
	close(release) // the work was not cancelled with its first caller
	if v, err := c.Get(t.Context(), 1); err != nil || v != 42 || calls.Load() != 1 {
		t.Errorf("after the first caller left: %d, %v, %d calls", v, err, calls.Load())
	}
}

func TestForgetDropsKeptAndRunningResults(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	release, started := make(chan struct{}, 1), make(chan struct{})
	c := New(func(ctx context.Context, k int) (int32, error) {
		n := calls.Add(1)
		if n == 2 {
			close(started)
			<-release
		}
		return n, nil
	}, time.Minute, nil)
	c.Get(t.Context(), 1)
	c.Forget()
	done := make(chan int32)
	go func() { v, _ := c.Get(t.Context(), 1); done <- v }() // call 2, running
	<-started
	c.Forget() // call 2 started before: not to be kept
	release <- struct{}{}
	if v := <-done; v != 2 {
		t.Errorf("the running call gave %d", v)
	}
	if v, _ := c.Get(t.Context(), 1); v != 3 {
		t.Errorf("a result started before Forget was kept: got %d, want a third call", v)
	}
}

func TestFreshRunsNowAndIsKept(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := New(func(ctx context.Context, k int) (int32, error) { return calls.Add(1), nil }, time.Minute, nil)
	c.Get(t.Context(), 1)
	if v, _ := c.Fresh(t.Context(), 1); v != 2 {
		t.Errorf("Fresh gave %d, want a new call", v)
	}
	if v, _ := c.Get(t.Context(), 1); v != 2 {
		t.Errorf("after Fresh, Get gave %d, want the fresh result kept", v)
	}
}
