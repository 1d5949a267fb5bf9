package door

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"maison/voice"
)

// Conns is a listener that keeps at most a given number of connections
// open. At the bound, a new connection takes the place of the one that has
// waited longest without a request inside it (headers still to come, or
// idle between requests), which is closed; only when every connection is
// answering a request does the next wait in the kernel's queue. A stranger
// who opens connections and sends nothing, or keeps them idle, cannot hold
// maison's last connection against the owner.
//
// The server must report its connections' states: set http.Server's
// ConnState to Conns.ConnState.
type Conns struct {
	net.Listener
	max int

	mu      sync.Mutex
	open    int
	waiting *list.List    // of *slot, the longest waiting first
	room    chan struct{} // signalled when a slot frees or a connection waits
	done    chan struct{}
	closing sync.Once
	// Lang is the language of the answers Go's server gives before any
	// handler runs, which the connections put into JSON-RPC (early.go).
	// Set it before serving.
	Lang voice.Lang
}

// LimitConns keeps ln to n open connections (at least 1).
func LimitConns(ln net.Listener, n int) *Conns {
	return &Conns{Listener: ln, max: max(n, 1), waiting: list.New(), room: make(chan struct{}, 1), done: make(chan struct{})}
}

// slot is one open connection.
type slot struct {
	net.Conn
	l      *Conns
	el     *list.Element // in l.waiting while no request is inside
	since  time.Time     // when it began to wait, under l.mu
	closed bool          // under l.mu
	once   sync.Once
}

// Accept accepts a connection, then makes room for it if there is none by
// closing the connection that has waited longest for a request; when every
// connection has a request inside, it waits for one to close.
func (l *Conns) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		l.mu.Lock()
		if l.open < l.max {
			l.open++
			s := &slot{Conn: c, l: l, since: time.Now()}
			s.el = l.waiting.PushBack(s)
			l.mu.Unlock()
			return s, nil
		}
		var victim *slot
		if e := l.waiting.Front(); e != nil {
			victim = e.Value.(*slot)
			l.waiting.Remove(e)
			victim.el = nil
		}
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
			continue
		}
		select {
		case <-l.room:
		case <-l.done:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// ConnState follows the server's connections: one with a request inside is
// never closed for room; an idle one waits at the back of the line.
func (l *Conns) ConnState(c net.Conn, state http.ConnState) {
	s, ok := c.(*slot)
	if !ok || state == http.StateNew {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.el != nil {
		l.waiting.Remove(s.el)
		s.el = nil
	}
	if state == http.StateIdle && !s.closed {
		s.el, s.since = l.waiting.PushBack(s), time.Now()
		l.signal()
	}
}

// Settle waits, while the server goes on serving, until no connection is
// open, closing each that has waited idle (or, new, for its first request)
// for at least idle; it stops when ctx ends. Draining, a server answers
// every request with Connection: close, so a client's connection closes
// after the answer to its next request; one that a client keeps without
// using it is closed once it has waited idle, when the client is unlikely
// to be sending on it that very moment. Closing every idle connection at
// once (http.Server.Shutdown) loses the requests clients were sending on
// them: the connection is reset under them.
func (l *Conns) Settle(ctx context.Context, idle time.Duration) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		l.mu.Lock()
		if l.open == 0 {
			l.mu.Unlock()
			return nil
		}
		var victims []*slot
		for e := l.waiting.Front(); e != nil; e = e.Next() {
			if s := e.Value.(*slot); time.Since(s.since) >= idle {
				victims = append(victims, s)
			}
		}
		for _, s := range victims {
			l.waiting.Remove(s.el)
			s.el = nil
		}
		l.mu.Unlock()
		for _, s := range victims {
			s.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Close stops accepting.
func (l *Conns) Close() error {
	l.closing.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Open is how many connections are open.
func (l *Conns) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

func (l *Conns) free() {
	l.mu.Lock()
	l.open--
	l.signal()
	l.mu.Unlock()
}

// signal wakes Accept. l.mu must be held.
func (l *Conns) signal() {
	select {
	case l.room <- struct{}{}:
	default:
	}
}

// Close closes the connection and frees its slot, once.
func (s *slot) Close() error {
	err := s.Conn.Close()
	s.once.Do(func() {
		s.l.mu.Lock()
		s.closed = true
		if s.el != nil {
			s.l.waiting.Remove(s.el)
			s.el = nil
		}
		s.l.mu.Unlock()
		s.l.free()
	})
	return err
}

// Write passes the server's writes on, putting its own plain-text answers
// to requests it could not read into JSON-RPC in words (early.go).
func (s *slot) Write(b []byte) (int, error) {
	if len(b) > 9 && string(b[:9]) == "HTTP/1.1 " {
		if j := rewriteEarly(b, s.l.Lang); j != nil {
			if _, err := s.Conn.Write(j); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return s.Conn.Write(b)
}

// CloseWrite passes a half-close on, so the server's last answer on a
// connection it closes is not cut short.
func (s *slot) CloseWrite() error {
	if cw, ok := s.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
