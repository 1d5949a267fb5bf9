// Package testkit holds what tests of several packages share and no demo
// house is needed for: a buffer several goroutines write (a server's log or
// stdout under test), and the picture comparisons of the fit tests and
// benchmarks (SSIM on luma, the naive fit they are measured against).
// What needs a demo house or an MCP session lives in demotest.
package testkit

import (
	"bytes"
	"sync"
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
