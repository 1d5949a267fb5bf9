package assist

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"maison/homeassistant"
)

// slowCaller answers GetLiveContext after release is closed, counting calls.
type slowCaller struct {
	release chan struct{}
	calls   atomic.Int32
}

func (c *slowCaller) CallAssist(ctx context.Context, _ string, _ map[string]any) (homeassistant.ToolResult, error) {
	c.calls.Add(1)
	<-c.release
	return homeassistant.ToolResult{Text: liveText}, nil
}

func TestLiveSharesOneRequestAndHonoursDeadlines(t *testing.T) {
	t.Parallel()
	c := &slowCaller{release: make(chan struct{})}
	l := NewLive(c, nil, time.Minute)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.Entities(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a caller whose deadline passes while Home Assistant is slow: %v", err)
	}
	results := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := l.Entities(t.Context())
			results <- err
		}()
	}
	close(c.release)
	for range 3 {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	if n := c.calls.Load(); n != 1 {
		t.Errorf("%d requests to Home Assistant, want one shared", n)
	}
	l.Forget()
	if _, err := l.Entities(t.Context()); err != nil || c.calls.Load() != 2 {
		t.Errorf("after Forget, a new request: err %v, %d calls", err, c.calls.Load())
	}
}
