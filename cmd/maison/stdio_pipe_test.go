//go:build unix

package main

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"
)

// When the client closes maison's standard output while maison still has
// answers to write, maison says so in one log line and exits cleanly, not
// killed by SIGPIPE without a word; its standard input is still open.
func TestStdioClientClosingStdoutEndsCleanly(t *testing.T) {
	t.Parallel()
	cmd, stderr := stdioCommand(t, nil, "--demo")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { stdin.Close() })
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n")
	if first, err := bufio.NewReader(r).ReadString('\n'); err != nil || !strings.Contains(first, `"id":1`) {
		t.Fatalf("initialize answer %q, %v (stderr: %s)", first, err, stderr.String())
	}
	r.Close() // the client goes away mid-session, its standard input left open
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for id := range 3 { // one answer is enough; more in case one is in flight
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":`+string(rune('2'+id))+`,"method":"tools/call","params":{"name":"describe_house","arguments":{}}}`+"\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("maison stdio ended with %v, want a clean exit (stderr: %s)", err, stderr.String())
	}
	n := 0
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, "standard output") {
			n++
		}
	}
	if n != 1 || !strings.Contains(stderr.String(), "closed maison's standard output") {
		t.Errorf("%d log lines speak of standard output, want 1 saying the client closed it:\n%s", n, stderr.String())
	}
}
