package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/internal/testkit"
)

// Each log line names its component once, and its message does not repeat
// it: only the wiring tags a part's logger.
func TestEachLogLineNamesItsComponentOnce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &testkit.Buffer{}, &testkit.Buffer{}
	done := make(chan int, 1)
	env := map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0", "MAISON_LOG_LEVEL": "debug"}
	go func() {
		done <- run(ctx, []string{"demo"}, strings.NewReader(""), out, logs, func(k string) string { return env[k] })
	}()
	url := ""
	for url == "" {
		for _, line := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "maison is serving "); ok {
				url = strings.TrimSpace(u)
			}
		}
		select {
		case code := <-done:
			t.Fatalf("maison demo exited %d before serving: %s", code, logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cs := connect(t, url, e2eToken, "2025-11-25")
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_snapshot", Arguments: map[string]any{"camera": "garage"}}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	cancel()
	<-done
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if n := strings.Count(line, " component="); n > 1 {
			t.Errorf("a line names its component %d times: %s", n, line)
		}
		_, rest, ok := strings.Cut(line, " component=")
		if !ok {
			continue
		}
		component, _, _ := strings.Cut(rest, " ")
		seen[component] = true
		if strings.Contains(line, `msg="`+component+": ") || strings.Contains(line, "msg="+component+":") {
			t.Errorf("a message repeats its component: %s", line)
		}
	}
	for _, want := range []string{"demo", "homeassistant", "camera", "mcp", "door"} {
		if !seen[want] {
			t.Errorf("no line from component %s in the debug log:\n%s", want, logs.String())
		}
	}
}
