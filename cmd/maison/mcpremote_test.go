package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"maison/internal/testkit"
)

// mcp-remote, the stdio bridge many desktop clients use, calling turn_on
// with a read-only grant gets its answer: a tool result in words saying the
// grant allows looking, not acting, and how to reconnect with control. A
// 403 insufficient_scope made it reopen the sign-in page instead and leave
// the call unanswered.
func TestMcpRemoteReadOnlyGrantGetsItsAnswer(t *testing.T) {
	t.Parallel()
	bridge := lookPathOrSkip(t, "mcp-remote", "npm mcp-remote")
	issuer, _ := startOAuthDemo(t, nil)
	read := newConnector(t, issuer).connect("house.read")["access_token"].(string)
	// A bound for a bridge that never answers, so the test ends with words.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bridge, issuer+"/mcp", "--allow-http", "--header", "Authorization: Bearer "+read)
	cmd.Env = append(cmd.Environ(), "HOME="+t.TempDir(), "BROWSER=true") // its sign-in, if it began one, opens nothing
	var stderr testkit.Buffer
	cmd.Stderr = &stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`+"\n")
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct{ Text string }
				IsError bool `json:"isError"`
			}
			Error *struct{ Message string }
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.ID {
		case 1:
			io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"turn_on","arguments":{"name":"Kitchen Light"}}}`+"\n")
		case 2:
			if m.Error != nil || !m.Result.IsError || len(m.Result.Content) != 1 {
				t.Fatalf("turn_on: %s", sc.Text())
			}
			text := m.Result.Content[0].Text
			for _, want := range []string{"Nothing was done", "look at the house", "remove the maison connector", "Act in the house"} {
				if !strings.Contains(text, want) {
					t.Errorf("the answer lacks %q: %s", want, text)
				}
			}
			if strings.Contains(stderr.String(), "sign-in") {
				t.Errorf("mcp-remote began a sign-in:\n%s", stderr.String())
			}
			return
		}
	}
	t.Fatalf("mcp-remote ended without answering turn_on (%v); its log:\n%s", sc.Err(), stderr.String())
}
