// Package redistest starts a real Redis server (Debian's redis-server, or
// valkey-server) for a test, on a free loopback port with its files in the
// test's temporary directory, or skips the test naming the package.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a Redis server a test started. Its data lives in an
// append-only file synced on every write, so a server killed and started
// again keeps every write it acknowledged.
type Server struct {
	URL  string // redis://127.0.0.1:port
	Addr string // 127.0.0.1:port

	bin, dir string
	port     int
	cmd      *exec.Cmd
	t        testing.TB
}

// Binary is the Redis server found on PATH (valkey-server first), or "".
func Binary() string {
	for _, name := range []string{"valkey-server", "redis-server"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a server for t, stopped when t ends, or skips t.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skip("needs a Redis server: apt-get install redis-server (Debian's redis-server package; valkey-server works too)")
	}
	s := &Server{bin: bin, dir: t.TempDir(), t: t}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Kill)
	return s
}

// Args are a server's settings on loopback at port with its files in dir:
// no snapshots, an append-only file synced at every write.
func Args(port int, dir string) []string {
	return []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--protected-mode", "yes", "--loglevel", "warning"}
}

func (s *Server) start() error {
	if s.port == 0 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		s.port = ln.Addr().(*net.TCPAddr).Port
		ln.Close()
	}
	s.Addr = "127.0.0.1:" + strconv.Itoa(s.port)
	s.URL = "redis://" + s.Addr
	s.cmd = exec.Command(s.bin, Args(s.port, s.dir)...)
	s.cmd.Stdout, s.cmd.Stderr = nil, nil
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("redistest: starting %s: %w", s.bin, err)
	}
	return Wait(s.Addr, 10*time.Second)
}

// Wait waits until the server at addr answers PING.
func Wait(addr string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			fmt.Fprint(c, "PING\r\n")
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: the Redis server at %s did not answer within %s", addr, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill stops the server at once (SIGKILL), as a crash would.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Restart starts the killed server again, on the same port with the same
// files.
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}
