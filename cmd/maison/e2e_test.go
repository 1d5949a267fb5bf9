package main

import (
	"bytes"
	"context"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demotest"
	"maison/internal/testkit"
	"maison/voice"
)

// TestMain lets the test binary act as maison itself, so the stdio test runs
// a real process without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("MAISON_TEST_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// startDemo runs `maison demo` in process and returns its /mcp URL.
func startDemo(t testing.TB, env map[string]string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &testkit.Buffer{}
	done := make(chan int, 1)
	getenv := func(k string) string { return env[k] }
	go func() {
		done <- run(ctx, append([]string{"demo"}, args...), strings.NewReader(""), out, io.Discard, getenv)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("maison demo exited %d", code)
		}
	})
	for {
		for _, line := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "maison is serving "); ok {
				return strings.TrimSpace(u)
			}
		}
		select {
		case code := <-done:
			t.Fatalf("maison demo exited %d before serving: %s", code, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func connect(t testing.TB, url, token, version string) *mcp.ClientSession {
	t.Helper()
	return demotest.Connect(t, url, token, version)
}

var wantTools = []string{"list_cameras", "camera_overview", "camera_snapshot", "describe_camera", "describe_house", "what_happened", "turn_on", "turn_off", "set_light"}

func TestDemoOverHTTP(t *testing.T) {
	t.Parallel()
	// One client making every call there is, faster than a person would:
	// the per-client limit is raised, as a load test raises it.
	url := startDemo(t, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0", "MAISON_RATE_LIMIT": "600/10s"})
	prefixed := startDemo(t, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0", "MAISON_RATE_LIMIT": "600/10s"}, "--demo-naming", "prefixed")
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "prefixed"} {
		t.Run(version, func(t *testing.T) {
			url := url
			if version == "prefixed" { // Home Assistant 2026.9's tool names, the newest client
				url, version = prefixed, "2026-07-28"
			}
			cs := connect(t, url, e2eToken, version)
			if got := cs.InitializeResult(); got != nil && got.ProtocolVersion != version {
				t.Errorf("negotiated %q, want %q", got.ProtocolVersion, version)
			}
			checkTools(t, cs)
			checkCameras(t, cs)
		})
	}
}

func checkTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	have := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		have[tool.Name] = tool
		a := tool.Annotations
		if a == nil || a.Title == "" || a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("tool %s: annotations not all set explicitly: %+v", tool.Name, a)
		}
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
	}
	for _, name := range wantTools {
		if have[name] == nil {
			t.Errorf("tool %s missing; have %v", name, keys(have))
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// callAsAClientWould calls a tool, and again (up to six times in all, a
// second apart) while the answer says it came too late and to try again in
// a moment, as a client does: maison demo draws its 4K frames in the
// background as it starts, and under the race detector on a loaded machine
// that can outlast a call's budget (describe_camera's is 4.5 s) three times
// running.
func callAsAClientWould(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res := demotest.Call(t, cs, name, args)
	for try := 1; try < 6 && res.IsError && strings.Contains(demotest.Text(res), "Try again in a moment"); try++ {
		t.Logf("%s %v answered late (%q); asking again", name, args, demotest.Text(res))
		time.Sleep(time.Second)
		res = demotest.Call(t, cs, name, args)
	}
	return res
}

func checkCameras(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	list := demotest.Call(t, cs, "list_cameras", nil)
	spoken := demotest.Text(list)
	if err := voice.Speakable(spoken); err != nil {
		t.Errorf("list_cameras is not speakable: %v: %q", err, spoken)
	}
	for _, name := range []string{"Front Door", "Garage", "Backyard", "Porch"} {
		if !strings.Contains(spoken, name) {
			t.Errorf("list_cameras does not name %s: %q", name, spoken)
		}
	}
	if strings.Contains(strings.ToLower(spoken), "shed") {
		t.Errorf("list_cameras names the unexposed shed camera: %q", spoken)
	}
	for _, name := range []string{"front door", "garage", "backyard", "camera.front_door"} {
		res := callAsAClientWould(t, cs, "camera_snapshot", map[string]any{"camera": name})
		if res.IsError || len(res.Content) != 2 {
			t.Fatalf("camera_snapshot(%s): isError=%v, %d blocks: %s", name, res.IsError, len(res.Content), demotest.Text(res))
		}
		img, ok := res.Content[0].(*mcp.ImageContent)
		if !ok || img.MIMEType != "image/jpeg" {
			t.Fatalf("camera_snapshot(%s): first block is %T, want a JPEG image", name, res.Content[0])
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatalf("camera_snapshot(%s): %v", name, err)
		}
		if max(cfg.Width, cfg.Height) > 1568 || cfg.Width*cfg.Height > 1_150_000 || len(img.Data) > 700_000 {
			t.Errorf("camera_snapshot(%s): %dx%d, %d bytes: over the image budget", name, cfg.Width, cfg.Height, len(img.Data))
		}
		strictDecode(t, name, img.Data)
		if err := voice.Speakable(demotest.Text(res)); err != nil {
			t.Errorf("camera_snapshot(%s) text is not speakable: %v: %q", name, err, demotest.Text(res))
		}
		desc := callAsAClientWould(t, cs, "describe_camera", map[string]any{"camera": name})
		if desc.IsError || len(desc.Content) != 1 {
			t.Errorf("describe_camera(%s): isError=%v, %d blocks", name, desc.IsError, len(desc.Content))
		}
		if err := voice.Speakable(demotest.Text(desc)); err != nil {
			t.Errorf("describe_camera(%s) is not speakable: %v: %q", name, err, demotest.Text(desc))
		}
	}
	off := demotest.Call(t, cs, "camera_snapshot", map[string]any{"camera": "porch"})
	if !off.IsError || !strings.Contains(demotest.Text(off), "turned off") {
		t.Errorf("porch camera (off): isError=%v %q; want an error saying it is turned off", off.IsError, demotest.Text(off))
	}
	// The unexposed shed camera is answered exactly like one that does not exist.
	shed := demotest.Call(t, cs, "camera_snapshot", map[string]any{"camera": "camera.shed"})
	attic := demotest.Call(t, cs, "camera_snapshot", map[string]any{"camera": "camera.attic"})
	if !shed.IsError || len(shed.Content) != 1 || strings.ReplaceAll(demotest.Text(shed), "shed", "attic") != demotest.Text(attic) {
		t.Errorf("unexposed shed camera: isError=%v %q; want the same refusal as a camera that does not exist: %q", shed.IsError, demotest.Text(shed), demotest.Text(attic))
	}
}

// strictDecode runs libjpeg's strict decoder on data.
func strictDecode(t *testing.T, name string, data []byte) {
	t.Helper()
	djpeg, err := exec.LookPath("djpeg")
	if err != nil {
		t.Log("cmd/maison: djpeg not found, strict decode skipped; install libjpeg-turbo-progs")
		return
	}
	cmd := exec.Command(djpeg, "-strict", "-ppm", "-outfile", os.DevNull)
	cmd.Stdin = bytes.NewReader(data)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: djpeg -strict refuses the served image: %v %s", name, err, out)
	}
}

func TestDoorRefusals(t *testing.T) {
	t.Parallel()
	url := startDemo(t, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0"})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	for _, tc := range []struct {
		name, method, token string
		want                int
	}{
		{"no token", "POST", "", 401},
		{"wrong token", "POST", "nope", 401},
		{"GET", "GET", e2eToken, 405},
		{"DELETE", "DELETE", "", 405},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), tc.method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if tc.want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q, want a Bearer challenge", tc.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/healthz: %d", resp.StatusCode)
	}
}

func TestNoAuthOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"demo", "--no-auth"}, strings.NewReader(""), io.Discard, &stderr,
		func(k string) string { return map[string]string{"MAISON_LISTEN": "0.0.0.0:0"}[k] })
	if code == 0 || !strings.Contains(stderr.String(), "not a loopback address") {
		t.Errorf("--no-auth on 0.0.0.0: exit %d, %q; want a refusal naming loopback", code, stderr.String())
	}
}

func TestNoAuthDemo(t *testing.T) {
	t.Parallel()
	url := startDemo(t, map[string]string{"MAISON_LISTEN": "127.0.0.1:0"}, "--no-auth")
	cs := connect(t, url, "", "2025-11-25")
	checkTools(t, cs)
}

func TestGeneratedTokenShownOnce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &testkit.Buffer{}
	var logs testkit.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"demo"}, strings.NewReader(""), out, &logs, func(k string) string {
			return map[string]string{"MAISON_LISTEN": "127.0.0.1:0"}[k]
		})
	}()
	var url, token string
	for url == "" || token == "" {
		select {
		case code := <-done:
			t.Fatalf("maison demo exited %d before serving: %s", code, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "maison is serving "); ok {
				url = u
			}
			if _, tok, ok := strings.Cut(line, "MAISON_TOKEN to choose your own): "); ok {
				token = strings.TrimSpace(tok)
			}
		}
	}
	cs := connect(t, url, token, "2026-07-28")
	demotest.Call(t, cs, "list_cameras", nil)
	if n := strings.Count(out.String(), token); n != 2 { // the token line and the ready-to-paste command
		t.Errorf("token appears %d times on stdout, want 2 (once, with its claude mcp add line)", n)
	}
	cancel()
	<-done
	if strings.Contains(logs.String(), token) {
		t.Errorf("the token reached the logs")
	}
}

func TestStdioDemo(t *testing.T) {
	t.Parallel()
	_, stdin, lines, stderr := stdioProcess(t, nil, "--demo")
	// Speak raw JSON-RPC; await checks every line on stdout is a JSON-RPC message.
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"camera_snapshot","arguments":{"camera":"garage"}}}`)
	if init := await(t, lines, `"id":1`, stderr); !strings.Contains(init, `"name":"maison"`) {
		t.Errorf("initialize answer: %.300s", init)
	}
	snap := await(t, lines, `"id":2`, stderr)
	if strings.Contains(snap, `"isError":true`) && strings.Contains(snap, "Try again in a moment") {
		// Late while maison demo still draws its frames: a client asks again.
		send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"camera_snapshot","arguments":{"camera":"garage"}}}`)
		snap = await(t, lines, `"id":3`, stderr)
	}
	if !strings.Contains(snap, `"type":"image"`) || !strings.Contains(snap, `"mimeType":"image/jpeg"`) || strings.Contains(snap, `"isError":true`) {
		t.Errorf("camera_snapshot over stdio: %.300s (stderr: %s)", snap, stderr.String())
	}
}

// Over stdio a malformed line is answered with a parse error and the
// session goes on; when input ends, the calls already read are answered
// before maison exits.
func TestStdioMalformedLineAndEndOfInput(t *testing.T) {
	t.Parallel()
	cmd, stderr := stdioCommand(t, nil, "--demo")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"camera_snapshot","arguments":{"camera":"garage"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_cameras"`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"describe_house","arguments":{}}}`,
	}, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("maison stdio: %v (stderr: %s)", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var parseError bool
	answered := map[string]bool{}
	for _, l := range lines {
		switch {
		case strings.Contains(l, `"id":null`) && strings.Contains(l, `-32700`):
			parseError = true
		case strings.Contains(l, `"id":2,"result"`): // a picture, or words if it came late
			answered["snapshot"] = true
		case strings.Contains(l, `"id":4,"result"`):
			answered["describe_house"] = true
		}
	}
	if !parseError || !answered["snapshot"] || !answered["describe_house"] {
		t.Errorf("parse error %v, answered %v; stdout:\n%.2000s\nstderr: %s", parseError, answered, out, stderr.String())
	}
}
