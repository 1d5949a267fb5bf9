package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"maison/demotest"
	"maison/internal/testkit"
)

// shutdownClients is how many clients keep maison busy while it stops.
const shutdownClients = 8

// outcome is what one request came back as.
type outcome struct {
	status  int    // the HTTP status, when an answer came
	err     error  // why none came
	reached bool   // the request was written to a connection maison had accepted
	body    string // the answer's text, for a refusal
}

// TestSIGTERMAnswersEveryRequest stops a real maison serve (a child
// process) with SIGTERM while eight clients keep calling it over keep-alive
// connections, each as soon as its last call is answered. Every request
// that reaches maison gets an answer: its result, or 503 in words saying to
// retry. A client that honours Retry-After finds maison gone once it is:
// its connection is refused, and nothing was lost.
func TestSIGTERMAnswersEveryRequest(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	for round := range 3 {
		url, cmd, stderr := serveProcess(t, house, "MAISON_TOKEN="+e2eToken, "MAISON_RATE_LIMIT=off", "MAISON_SHUTDOWN_GRACE=20s")
		var (
			mu       sync.Mutex
			outcomes []outcome
			served   atomic.Int64
			wg       sync.WaitGroup
		)
		for i := range shutdownClients {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"describe_house","arguments":{}}}`
			if i%2 == 1 {
				body = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
			}
			wg.Go(func() {
				defer client.CloseIdleConnections()
				for {
					o := keepAlivePost(t.Context(), client, url, body)
					mu.Lock()
					outcomes = append(outcomes, o)
					mu.Unlock()
					switch {
					case o.err != nil && !o.reached:
						return // maison is gone: the connection was refused
					case o.status == http.StatusOK:
						served.Add(1)
					case o.status == http.StatusServiceUnavailable:
						time.Sleep(time.Second) // Retry-After, as a polite client waits
					}
				}
			})
		}
		for served.Load() < 8*shutdownClients {
			time.Sleep(5 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if err := cmd.Wait(); err != nil {
			t.Errorf("round %d: maison serve after SIGTERM: %v\n%s", round, err, stderr)
		}
		counts := map[string]int{}
		for _, o := range outcomes {
			switch {
			case o.err == nil:
				counts[strconv.Itoa(o.status)]++
				if o.status != http.StatusOK && !(o.status == http.StatusServiceUnavailable && strings.Contains(o.body, "shutting down")) {
					t.Errorf("round %d: answered %d: %s", round, o.status, o.body)
				}
			case o.reached:
				counts["lost"]++
				t.Errorf("round %d: a request maison had taken was never answered: %v", round, o.err)
			default:
				counts["refused before reaching maison"]++
			}
		}
		t.Logf("round %d: %v", round, counts)
	}
}

// keepAlivePost posts body to url over client's kept connection and says
// what came of it, and whether the request was written on a connection
// maison had taken (a refused dial never reached it).
func keepAlivePost(ctx context.Context, client *http.Client, url, body string) outcome {
	var wrote, reused atomic.Bool
	trace := &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) },
		GotConn:      func(c httptrace.GotConnInfo) { reused.Store(c.Reused) },
	}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+e2eToken)
	resp, err := client.Do(req)
	if err != nil {
		var errno syscall.Errno
		refused := errors.As(err, &errno) && errno == syscall.ECONNREFUSED
		// A new connection that ends before any answer was one the kernel
		// took into the listen queue as maison closed its listener: reset
		// unaccepted, it never reached maison, which closes no connection
		// it accepted before answering what was sent on it.
		unaccepted := !reused.Load() && !refused
		return outcome{err: err, reached: (wrote.Load() || !refused) && !unaccepted}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return outcome{err: fmt.Errorf("reading the answer: %w", err), reached: true}
	}
	return outcome{status: resp.StatusCode, reached: true, body: string(b)}
}

// serveProcess starts `maison serve` in front of house as a child process
// (this test binary running main) with env added, and returns its URL, the
// process and its standard error.
func serveProcess(t *testing.T, house *demotest.House, env ...string) (string, *exec.Cmd, *testkit.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "serve")
	cmd.Env = append(append(os.Environ(), "MAISON_TEST_RUN_MAIN=1", "MAISON_HA_URL="+house.URL, "MAISON_HA_TOKEN="+house.UserToken(), "MAISON_LISTEN=127.0.0.1:0"), env...)
	stderr := &testkit.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "maison is serving "); ok {
			go io.Copy(io.Discard, stdout)
			return strings.TrimSpace(u), cmd, stderr
		}
	}
	t.Fatalf("maison serve ended before serving: %s", stderr)
	return "", nil, nil
}
