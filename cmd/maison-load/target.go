//go:build unix

package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// target is a server process under measurement.
type target struct {
	secret string // never to be found in the log
	name   string
	url    string // its /mcp, always on loopback
	token  string // empty for the bare server
	cmd    *exec.Cmd
	logs   *tail
}

// startMaison runs maison (demo, or serve against haURL) on a loopback
// port with a fresh token and the per-client limit raised, so a load run
// measures throughput, not the limiter.
func startMaison(ctx context.Context, bin string, args []string, env []string, logFile string) (*target, error) {
	tok := make([]byte, 32)
	rand.Read(tok)
	t := &target{name: "maison", token: base64.RawURLEncoding.EncodeToString(tok)}
	t.secret = t.token
	cmd := exec.CommandContext(ctx, bin, args...)
	// maison's settings are the run's own, whatever this environment holds.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAISON_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "MAISON_LISTEN=127.0.0.1:0", "MAISON_TOKEN="+t.token, "MAISON_RATE_LIMIT=1000000/10s")
	cmd.Env = append(cmd.Env, env...)
	return t, t.start(cmd, "maison is serving ", logFile)
}

// startBare runs this program's bare go-sdk server.
func startBare(ctx context.Context) (*target, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	t := &target{name: "bare"}
	return t, t.start(exec.CommandContext(ctx, self, "bare"), "bare go-sdk server at ", "")
}

func (t *target) start(cmd *exec.Cmd, ready, logFile string) error {
	t.cmd = cmd
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	t.logs = newTail(logFile)
	t.logs.secret = t.secret
	cmd.Stderr = t.logs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	found, ended := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), ready); ok {
				found <- strings.TrimSpace(u)
			}
		}
	}()
	select {
	case <-ended:
		time.Sleep(100 * time.Millisecond) // its last words reach the log
		return fmt.Errorf("%s exited before serving; its log:\n%s", t.name, t.logs.String())
	case u := <-found:
		if err := loopbackOnly(u); err != nil {
			t.stop()
			return err
		}
		t.url = u
		return nil
	case <-time.After(60 * time.Second):
		t.stop()
		return fmt.Errorf("%s did not start within a minute; its log:\n%s", t.name, t.logs.String())
	}
}

// stop ends the process with SIGTERM and waits for it, and fails if its
// log ever held its token.
func (t *target) stop() error {
	if t.cmd.Process == nil {
		return nil
	}
	t.cmd.Process.Signal(syscall.SIGTERM)
	err := t.cmd.Wait()
	t.logs.close()
	if t.logs.leaked {
		return fmt.Errorf("%s wrote its token into its log", t.name)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("%s exited: %v", t.name, err)
	}
	return nil
}

// loopbackOnly refuses any address but this machine's.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing %s: maison-load drives loopback addresses only", raw)
	}
	return nil
}

// memory reads the process's resident memory now and its peak, in bytes.
func (t *target) memory() (rss, peak int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", t.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak
}

// resetPeak starts the peak resident memory afresh (Linux clear_refs 5).
func (t *target) resetPeak() {
	os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", t.cmd.Process.Pid), []byte("5"), 0)
}

// openFiles counts the process's open file descriptors.
func (t *target) openFiles() int {
	es, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", t.cmd.Process.Pid))
	return len(es)
}

var runtimeLine = regexp.MustCompile(`msg=runtime goroutines=(\d+) in_flight=(\d+) heap_bytes=(\d+)`)

// goroutines asks maison for its figures (SIGUSR1) and reads them from
// its log: goroutines and heap.
func (t *target) goroutines() (n int, heap int64, err error) {
	before, _ := t.logs.runtime()
	t.cmd.Process.Signal(syscall.SIGUSR1)
	for range 100 {
		time.Sleep(20 * time.Millisecond)
		if seen, m := t.logs.runtime(); seen > before {
			n, _ = strconv.Atoi(m[1])
			heap, _ = strconv.ParseInt(m[3], 10, 64)
			return n, heap, nil
		}
	}
	return 0, 0, errors.New("maison wrote no runtime line after SIGUSR1")
}

// tail keeps a server's log: all of it in a file when asked, and its
// last lines in memory.
type tail struct {
	mu          sync.Mutex
	lines       []string
	part        string
	file        io.WriteCloser
	total       int
	runtimeSeen int
	lastRuntime []string
	secret      string
	leaked      bool // a line held the secret
}

func newTail(path string) *tail {
	t := &tail{}
	if path != "" {
		if f, err := os.Create(path); err == nil {
			t.file = f
		}
	}
	return t
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.file != nil {
		t.file.Write(p)
	}
	s := t.part + string(p)
	parts := strings.Split(s, "\n")
	t.part = parts[len(parts)-1]
	for _, l := range parts[:len(parts)-1] {
		t.total++
		t.lines = append(t.lines, l)
		if t.secret != "" && strings.Contains(l, t.secret) {
			t.leaked = true
		}
		if m := runtimeLine.FindStringSubmatch(l); m != nil {
			t.runtimeSeen, t.lastRuntime = t.runtimeSeen+1, m
		}
	}
	if len(t.lines) > 4000 {
		t.lines = append([]string(nil), t.lines[len(t.lines)-2000:]...)
	}
	return len(p), nil
}

func (t *tail) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
}

// runtime is how many runtime lines were seen, and the last.
func (t *tail) runtime() (int, []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runtimeSeen, t.lastRuntime
}

// linesTotal is how many lines the server has logged.
func (t *tail) linesTotal() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := max(0, len(t.lines)-40)
	return strings.Join(t.lines[n:], "\n")
}
