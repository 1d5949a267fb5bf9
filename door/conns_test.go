package door

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// serveConns serves h on loopback, at most n connections at once.
func serveConns(t *testing.T, h http.Handler, n int) (addr string, l *Conns) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l = LimitConns(ln, n)
	srv := &http.Server{Handler: h, ConnState: l.ConnState, ReadHeaderTimeout: time.Minute, IdleTimeout: time.Minute}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), l
}

func (l *Conns) waitingLen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting.Len()
}

func closedByServer(t *testing.T, what string, c net.Conn, r *bufio.Reader) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("%s: still open: %v", what, err)
	}
}

// Connections held by a stranger, idle or trickling headers, give way to
// the owner's request when maison has no connection left.
func TestConnectionsHeldByAStrangerGiveWay(t *testing.T) {
	t.Parallel()
	addr, l := serveConns(t, okDoor(t, Config{}), 2)
	silent, err := net.Dial("tcp", addr) // headers never finished
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	silent.Write([]byte("GET /healthz HTTP/1.1\r\n"))
	idle, err := net.Dial("tcp", addr) // one request, then kept idle
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	idle.Write([]byte("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
	idleR := bufio.NewReader(idle)
	idle.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(idleR, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	// The server marks the connection idle just after answering: wait for
	// both of the stranger's connections to be waiting.
	for deadline := time.Now().Add(5 * time.Second); l.waitingLen() < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections waiting, want the stranger's 2", l.waitingLen())
		}
		time.Sleep(time.Millisecond)
	}

	// Two owners' clients, each keeping its own connection: each needs a
	// connection the stranger holds.
	for i := range 2 {
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(listBody))
		req.Header.Set("Authorization", "Bearer right")
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("request %d with the right token, every connection held: %v", i+1, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+1, resp.StatusCode)
		}
	}
	closedByServer(t, "the connection trickling headers", silent, bufio.NewReader(silent))
	closedByServer(t, "the idle connection", idle, idleR)
	if n := l.Open(); n > 2 {
		t.Errorf("%d connections open, bound 2", n)
	}
}

// A connection with a request inside is never closed to make room: the
// next connection waits for it.
func TestConnectionsAnsweringAreNotCut(t *testing.T) {
	t.Parallel()
	inside, release := make(chan struct{}), make(chan struct{})
	addr, _ := serveConns(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(inside)
			<-release
		}
		w.Write([]byte("done"))
	}), 1)
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	first := make(chan error, 1)
	go func() {
		resp, err := client.Get("http://" + addr + "/slow")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != "done" {
				err = errors.New("answer cut: " + string(b))
			}
		}
		first <- err
	}()
	<-inside
	second := make(chan error, 1)
	go func() {
		resp, err := client.Get("http://" + addr + "/fast")
		if err == nil {
			resp.Body.Close()
		}
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("a second connection was served while the only one was answering: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the request inside: %v", err)
	}
	if err := <-second; err != nil {
		t.Errorf("the waiting request: %v", err)
	}
}

// Bodies being read and held are bounded in bytes: clients trickling many
// large bodies hold at most the door's body budget, one client at most its
// share of it, and the next large body is refused without being read.
func TestBodiesHeldAreBounded(t *testing.T) {
	t.Parallel()
	d, err := New(Config{QueueWait: time.Second, Verify: func(tok string) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Extra: map[string]any{"client_id": tok}}, nil // every token its own client
	}}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	if err != nil {
		t.Fatal(err)
	}
	if d.bodyBudget < 4*bodyShare || bodyShare < 2*maxBody {
		t.Fatalf("body budget %d, share %d: want room for a few full bodies, a few clients", d.bodyBudget, bodyShare)
	}
	addr, _ := serveConns(t, d, 1000)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	slow := func(client string) *bufio.Reader {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + client + "\r\nContent-Type: application/json\r\nContent-Length: " + itoa(maxBody) + "\r\n\r\n{"))
		held = append(held, c)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		return bufio.NewReader(c)
	}
	waitHeld := func(want int64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); d.bodiesHeld() < want; {
			if time.Now().After(deadline) {
				t.Fatalf("%d bytes of bodies held, want %d", d.bodiesHeld(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// One client: its share, then 429 at once for its next large body.
	for range bodyShare / maxBody {
		slow("c0")
	}
	waitHeld(bodyShare)
	resp, err := http.ReadResponse(slow("c0"), nil)
	if err != nil {
		t.Fatalf("one body more than a client's share: %v", err)
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || !resp.Close {
		t.Errorf("one body more than a client's share: %d, Retry-After %q, close %v; want 429, a wait, closed", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Close)
	}
	// Other clients fill the rest of the budget; then anyone waits, and is
	// told to retry when no room comes.
	for n := 1; int64(n)*bodyShare < d.bodyBudget; n++ {
		for range bodyShare / maxBody {
			slow("c" + itoa(n))
		}
	}
	waitHeld(d.bodyBudget)
	resp, err = http.ReadResponse(slow("late"), nil)
	if err != nil {
		t.Fatalf("one body more than the budget: %v", err)
	}
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !resp.Close {
		t.Errorf("one body more than the budget: %d, Retry-After %q, close %v; want 503, a wait, closed", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Close)
	}
	// A small request waits for room, and gets it once a body is done.
	prefix := `"jsonrpc":"2.0","id":1,"method":"tools/list","x":"`
	held[0].Write([]byte(prefix + strings.Repeat("a", maxBody-1-len(prefix)-2) + `"}`))
	rec := post(d, "192.0.2.1:1", "late", listBody)
	if rec.Code != 200 {
		t.Errorf("a small request once room is back: %d %s", rec.Code, rec.Body.String())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Draining, a request on a kept connection is answered 503 in words and
// its connection closed after the answer; a connection kept idle is closed
// once it has waited idle; Settle returns when none is open. No request on
// a kept connection meets a connection closed under it.
func TestSettleAnswersThenClosesKeptConnections(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{})
	addr, l := serveConns(t, d, 8)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	post := func() *http.Response {
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(listBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer right")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if resp := post(); resp.StatusCode != 200 || resp.Close {
		t.Fatalf("before draining: %d, close %v", resp.StatusCode, resp.Close)
	}
	idle, err := net.Dial("tcp", addr) // a connection nobody uses
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	d.Drain()
	settled := make(chan error, 1)
	go func() { settled <- l.Settle(t.Context(), 200*time.Millisecond) }()
	if resp := post(); resp.StatusCode != 503 || !resp.Close {
		t.Errorf("on the kept connection while draining: %d, close %v; want 503, closed after", resp.StatusCode, resp.Close)
	}
	closedByServer(t, "the idle connection", idle, bufio.NewReader(idle))
	if err := <-settled; err != nil || l.Open() != 0 {
		t.Errorf("Settle: %v, %d still open", err, l.Open())
	}
}
