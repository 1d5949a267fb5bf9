// Package testkit holds what tests of several packages share and no demo
// house is needed for: a buffer several goroutines write (a server's log or
// stdout under test), a clock tests move by hand, and the picture comparisons of the fit tests and
// benchmarks (SSIM on luma, the naive fit they are measured against).
// What needs a demo house or an MCP session lives in demotest.
package testkit

import (
	"bytes"
	"sync"
	"time"
)

// Buffer is a bytes.Buffer that goroutines may write and read at once: the
// log or the stdout of a server under test. The zero value is empty.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Clock is a clock tests move by hand, safe for concurrent use: its Now is
// what a component under test is given for the time. The zero value is at
// the zero time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
