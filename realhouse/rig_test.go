// Package realhouse_test checks maison's promises against a real Home
// Assistant, the one `scripts/realha up` starts: the built maison binary
// over HTTP (maison serve, with a bearer token) and over stdio, the house
// read and changed through its owner's token. Without MAISON_REAL_HA every
// test skips with a sentence saying how to bring the house up.
package realhouse_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demotest"
	"maison/internal/realha"
)

// maisonBin is the maison binary TestMain builds when a real house is named.
var maisonBin string

func TestMain(m *testing.M) {
	if os.Getenv(realha.EnvVar) == "" {
		os.Exit(m.Run()) // every test skips with realha.Load's sentence
	}
	dir, err := os.MkdirTemp("", "realhouse")
	if err != nil {
		fmt.Fprintln(os.Stderr, "realhouse:", err)
		os.Exit(1)
	}
	maisonBin = filepath.Join(dir, "maison")
	if out, err := exec.Command("go", "build", "-o", maisonBin, "maison/cmd/maison").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "realhouse: building maison: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// hidden are words of what the house does not share with Assist: the
// lights and the switch not exposed, the demo cameras without a registry
// entry. No answer of maison's may hold them.
var hidden = []string{"ceiling lights", "ceiling_lights", "switch.ac", "“ac”", "demo camera", "demo_camera"}

// maisonEnv is the environment maison runs with against the real house.
func maisonEnv(h realha.House, token string, extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(),
		"MAISON_HA_URL=" + h.URL, "MAISON_HA_TOKEN=" + token,
	}, extra...)
}

// runCheck runs maison check with token and returns its output and exit code.
func runCheck(t *testing.T, h realha.House, token string, extra ...string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), maisonBin, "check")
	cmd.Env = maisonEnv(h, token, extra...)
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("maison check: %v", err)
	}
	t.Logf("maison check (exit %d):\n%s", code, out)
	return string(out), code
}

// transport starts maison one way and returns a ready session.
type transport struct {
	name  string
	start func(*testing.T, realha.House) *mcp.ClientSession
}

var transports = []transport{{"http", serveHTTP}, {"stdio", serveStdio}}

// serveHTTP runs maison serve with a bearer token on a loopback port until
// the test ends and connects to it as a client over HTTP would.
func serveHTTP(t *testing.T, h realha.House) *mcp.ClientSession {
	t.Helper()
	return serveHTTPWith(t, h, "MAISON_LISTEN=127.0.0.1:0")
}

// serveHTTPWith is serveHTTP with settings of the test's own (MAISON_LISTEN
// among them).
func serveHTTPWith(t *testing.T, h realha.House, env ...string) *mcp.ClientSession {
	t.Helper()
	url, token, _ := serveHTTPAt(t, h, env...)
	cs := demotest.Connect(t, url, token, "")
	demotest.UntilActionsOffered(t, cs)
	return cs
}

// serveHTTPAt runs maison serve with settings of the test's own until the
// test ends, and returns its URL, its bearer token and its process.
func serveHTTPAt(t *testing.T, h realha.House, env ...string) (url, token string, cmd *exec.Cmd) {
	t.Helper()
	secret := make([]byte, 32)
	rand.Read(secret)
	token = hex.EncodeToString(secret)
	ctx, cancel := context.WithCancel(context.Background())
	cmd = exec.CommandContext(ctx, maisonBin, "serve")
	cmd.Env = maisonEnv(h, h.Token, append([]string{"MAISON_TOKEN=" + token, "MAISON_RATE_LIMIT=off"}, env...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	stderr := &bytes.Buffer{} // read once maison has ended
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting maison serve: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		if t.Failed() {
			t.Logf("maison serve's log:\n%s", stderr)
		}
	})
	sc := bufio.NewScanner(stdout)
	for url == "" && sc.Scan() {
		url, _ = strings.CutPrefix(sc.Text(), "maison is serving ")
	}
	if url == "" {
		cancel()
		cmd.Wait()
		t.Fatalf("maison serve ended before serving: %s", stderr)
	}
	go io.Copy(io.Discard, stdout)
	return strings.TrimSpace(url), token, cmd
}

// serveStdio runs maison stdio as a client starts it, speaking
// newline-delimited JSON-RPC on its standard input and output.
func serveStdio(t *testing.T, h realha.House) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(maisonBin, "stdio")
	cmd.Env = maisonEnv(h, h.Token)
	stderr := &bytes.Buffer{} // read once maison has ended
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "realhouse", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting maison stdio: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("maison stdio's log:\n%s", stderr)
		}
	})
	demotest.UntilActionsOffered(t, cs)
	return cs
}

// ask calls a tool and returns its answer and its words, failing the test
// if the words name anything the house does not share with Assist.
func ask(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, text := askSeeing(t, cs, name, args)
	folded := strings.ToLower(text)
	for _, w := range hidden {
		if strings.Contains(folded, w) {
			t.Errorf("%s(%v) names %q, which is not shared with Assist: %s", name, args, w, text)
		}
	}
	return res, text
}

// askSeeing calls a tool and returns its answer and its words, whatever they name.
func askSeeing(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res := demotest.Call(t, cs, name, args)
	return res, demotest.Text(res)
}

// picture returns the one JPEG an answer holds, after checking it decodes
// with image/jpeg and, where libjpeg-turbo-progs is installed, under
// djpeg -strict.
func picture(t *testing.T, what string, res *mcp.CallToolResult) image.Image {
	t.Helper()
	var data []byte
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			if ic.MIMEType != "image/jpeg" || data != nil {
				t.Fatalf("%s: an image of type %q, or a second one", what, ic.MIMEType)
			}
			data = ic.Data
		}
	}
	if data == nil {
		t.Fatalf("%s: no picture in the answer", what)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: image/jpeg refuses the picture: %v", what, err)
	}
	if djpeg, err := exec.LookPath("djpeg"); err == nil {
		cmd := exec.Command(djpeg, "-strict", "-ppm", "-outfile", os.DevNull)
		cmd.Stdin = bytes.NewReader(data)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: djpeg -strict refuses the picture: %v %s", what, err, out)
		}
	} else {
		t.Logf("%s: djpeg not found, strict decode skipped; install libjpeg-turbo-progs", what)
	}
	return img
}

// owner speaks to Home Assistant's REST API with the owner's token and
// returns the status and the body.
func owner(t *testing.T, h realha.House, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(context.WithoutCancel(t.Context()), method, h.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.OwnerToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("owner %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("owner %s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// service calls a Home Assistant service as the owner.
func service(t *testing.T, h realha.House, domain, name string, data map[string]any) {
	t.Helper()
	if code, body := owner(t, h, http.MethodPost, "/api/services/"+domain+"/"+name, data); code != http.StatusOK {
		t.Fatalf("owner %s.%s(%v): %d %s", domain, name, data, code, body)
	}
}

// state is an entity's state as the owner reads it.
type state struct {
	State      string         `json:"state"`
	Attributes map[string]any `json:"attributes"`
}

func readState(t *testing.T, h realha.House, entityID string) state {
	t.Helper()
	code, body := owner(t, h, http.MethodGet, "/api/states/"+entityID, nil)
	if code != http.StatusOK {
		t.Fatalf("owner reading %s: %d %s", entityID, code, body)
	}
	var s state
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatalf("owner reading %s: %v", entityID, err)
	}
	return s
}

// ownerWS sends one command on Home Assistant's websocket as the owner and
// returns its result, failing the test if Home Assistant refuses it.
func ownerWS(t *testing.T, h realha.House, fields map[string]any) json.RawMessage {
	t.Helper()
	res, err := ownerCommand(t, h, fields)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// ownerCommand sends one command on Home Assistant's websocket as the
// owner and returns its result, or Home Assistant's refusal.
func ownerCommand(t *testing.T, h realha.House, fields map[string]any) (json.RawMessage, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(h.URL, "http", "ws", 1)+"/api/websocket", nil)
	if err != nil {
		t.Fatalf("owner websocket: %v", err)
	}
	defer c.CloseNow()
	c.SetReadLimit(16 << 20)
	var msg struct {
		ID      int             `json:"id"`
		Type    string          `json:"type"`
		Success bool            `json:"success"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := wsjson.Read(ctx, c, &msg); err != nil {
		t.Fatalf("owner websocket: %v", err)
	}
	if err := wsjson.Write(ctx, c, map[string]any{"type": "auth", "access_token": h.OwnerToken}); err != nil {
		t.Fatalf("owner websocket: %v", err)
	}
	if err := wsjson.Read(ctx, c, &msg); err != nil || msg.Type != "auth_ok" {
		t.Fatalf("owner websocket auth: %v %s", err, msg.Type)
	}
	cmd := map[string]any{"id": 1}
	for k, v := range fields {
		cmd[k] = v
	}
	if err := wsjson.Write(ctx, c, cmd); err != nil {
		t.Fatalf("owner websocket: %v", err)
	}
	for {
		msg.ID, msg.Type = 0, ""
		if err := wsjson.Read(ctx, c, &msg); err != nil {
			t.Fatalf("owner websocket %v: %v", fields["type"], err)
		}
		if msg.ID == 1 && msg.Type == "result" {
			if !msg.Success {
				return nil, fmt.Errorf("owner websocket %v: %s", fields, msg.Error)
			}
			return msg.Result, nil
		}
	}
}

// until asks again, for at most a minute, until ok holds for an answer's
// words; it returns the last words.
func until(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, text := askSeeing(t, cs, name, args)
		if ok(text) || time.Now().After(deadline) {
			return text
		}
		time.Sleep(250 * time.Millisecond)
	}
}
