package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"maison/demotest"
	"maison/internal/testkit"
)

// stdioProcess starts `maison stdio` with args and env added to the
// test's, and returns its stdin, a channel of its stdout lines and its
// stderr.
// stdioCommand is `maison stdio args` as a child process (this test binary
// running main), its standard error kept.
func stdioCommand(t *testing.T, env []string, args ...string) (*exec.Cmd, *testkit.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"stdio"}, args...)...)
	cmd.Env = append(append(os.Environ(), "MAISON_TEST_RUN_MAIN=1"), env...)
	stderr := &testkit.Buffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

func stdioProcess(t *testing.T, env []string, args ...string) (*exec.Cmd, io.WriteCloser, *stdoutLines, *testkit.Buffer) {
	t.Helper()
	cmd, stderr := stdioCommand(t, env, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, &stdoutLines{C: lines}, stderr
}

// stdoutLines are maison's stdout lines, as read; lines await passed over,
// answers that came before the one awaited, are kept for a later await.
type stdoutLines struct {
	C    <-chan string
	held []string
}

// await reads lines until one holds want; the deadline is a safety net
// against a hung test, not a timing.
func await(t *testing.T, lines *stdoutLines, want string, stderr *testkit.Buffer) string {
	t.Helper()
	for i, l := range lines.held {
		if strings.Contains(l, want) {
			lines.held = append(lines.held[:i], lines.held[i+1:]...)
			return l
		}
	}
	deadline := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines.C:
			if !ok {
				t.Fatalf("stdout ended before %s (stderr: %s)", want, stderr.String())
			}
			if !strings.HasPrefix(l, `{"jsonrpc":"2.0"`) {
				t.Fatalf("stdout carries something other than protocol: %.200q", l)
			}
			if strings.Contains(l, want) {
				return l
			}
			lines.held = append(lines.held, l)
		case <-deadline:
			t.Fatalf("no line with %s (stderr: %s)", want, stderr.String())
		}
	}
}

// A client that starts maison while Home Assistant is down gets answers at
// once: maison's own tools, which say Home Assistant is out of reach; once
// Home Assistant answers, the client is told the list changed and the
// house's actions are there.
func TestStdioAnswersAtOnceWhileHomeAssistantIsDown(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetDown(true)
	_, stdin, lines, stderr := stdioProcess(t, []string{"MAISON_HA_URL=" + house.URL, "MAISON_HA_TOKEN=" + house.UserToken()})
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_cameras","arguments":{}}}`)
	if init := await(t, lines, `"id":1`, stderr); !strings.Contains(init, `"listChanged":true`) {
		t.Errorf("initialize does not announce that the tool list may change: %.400s", init)
	}
	if list := await(t, lines, `"id":2`, stderr); !strings.Contains(list, `"list_cameras"`) || strings.Contains(list, `"turn_on"`) {
		t.Errorf("tools while Home Assistant is down: %.600s", list)
	}
	if call := await(t, lines, `"id":3`, stderr); !strings.Contains(call, `"isError":true`) || !strings.Contains(call, "Home Assistant") {
		t.Errorf("list_cameras while Home Assistant is down: %.600s", call)
	}
	house.SetDown(false)
	await(t, lines, `"method":"notifications/tools/list_changed"`, stderr)
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	if list := await(t, lines, `"id":4`, stderr); !strings.Contains(list, `"turn_on"`) {
		t.Errorf("tools once Home Assistant answers: %.600s", list)
	}
}

// An administrator's token found when Home Assistant first answers, after
// maison started, stops maison with the reason, as it would have at start.
func TestStdioStopsOnAnAdminTokenFoundLater(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetDown(true)
	cmd, stdin, lines, stderr := stdioProcess(t, []string{"MAISON_HA_URL=" + house.URL, "MAISON_HA_TOKEN=" + house.AdminToken()})
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n")
	await(t, lines, `"id":1`, stderr)
	house.SetDown(false)
	for range lines.C { // stdout ends when maison exits
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if !strings.Contains(stderr.String(), "administrator") {
		t.Errorf("stderr does not say why: %s", stderr.String())
	}
}

// A stop asked for (SIGTERM, Ctrl-C) is a clean stop, exit 0 and no error,
// whatever Home Assistant is doing: exit 1 is kept for a refusal, so that a
// supervisor can tell them apart.
func TestStdioStopsCleanlyOnASignal(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	for _, state := range []string{"up", "down"} {
		house.SetDown(state == "down")
		cmd, stdin, lines, stderr := stdioProcess(t, []string{"MAISON_HA_URL=" + house.URL, "MAISON_HA_TOKEN=" + house.UserToken()})
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n")
		await(t, lines, `"id":1`, stderr)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		for range lines.C {
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("Home Assistant %s, SIGTERM: %v (stderr: %s)", state, err, stderr.String())
		}
		if strings.Contains(stderr.String(), "canceled") {
			t.Errorf("Home Assistant %s, SIGTERM said an error: %s", state, stderr.String())
		}
	}
}
