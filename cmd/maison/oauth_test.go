package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demotest"
	"maison/internal/testkit"
)

const (
	e2ePassword = "a long operator passphrase for tests"
	e2eSecret   = "an-e2e-secret-of-at-least-thirty-two-bytes"
	e2eToken    = "e2e-static-bearer-token-0123456789"
)

// freePort returns a loopback port that was free a moment ago: the issuer
// must be known before maison listens.
func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startOAuthDemo runs `maison demo` with the authorization server on and
// returns its issuer and the logs it writes.
func startOAuthDemo(t *testing.T, extra map[string]string) (string, *testkit.Buffer) {
	t.Helper()
	issuer, _, logs := runOAuthDemo(t, extra, "maison is serving")
	return issuer, logs
}

// runOAuthDemo runs `maison demo` with the authorization server on until
// what it prints holds until; it returns its issuer, what it prints and
// the logs it writes.
func runOAuthDemo(t *testing.T, extra map[string]string, until string) (string, *testkit.Buffer, *testkit.Buffer) {
	t.Helper()
	port := strconv.Itoa(freePort(t))
	issuer := "http://127.0.0.1:" + port
	env := map[string]string{
		"MAISON_LISTEN": "127.0.0.1:" + port, "MAISON_PUBLIC_URL": issuer, "MAISON_SECRET": e2eSecret,
		"MAISON_OPERATOR_PASSWORD": e2ePassword, "MAISON_TOKEN": e2eToken, "MAISON_LOG_LEVEL": "debug",
	}
	for k, v := range extra {
		env[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &testkit.Buffer{}, &testkit.Buffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"demo"}, strings.NewReader(""), out, logs, func(k string) string { return env[k] })
	}()
	t.Cleanup(func() { cancel(); <-done })
	for !strings.Contains(out.String(), until) {
		select {
		case code := <-done:
			t.Fatalf("maison demo exited %d: %s %s", code, out.String(), logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return issuer, out, logs
}

// What `maison demo` prints with OAuth on tells a person what to do (add
// the connector URL in the client) and names no address that only an app
// should open: /authorize opened by hand has no app to approve.
func TestDemoSaysHowToConnectAnApp(t *testing.T) {
	t.Parallel()
	issuer, out, _ := runOAuthDemo(t, nil, "custom connector")
	var line string
	for l := range strings.Lines(out.String()) {
		if strings.Contains(l, "custom connector") {
			line = l
		}
	}
	for _, want := range []string{"add " + issuer + "/mcp as a custom connector", "Settings › Connectors", "Connect"} {
		if !strings.Contains(line, want) {
			t.Errorf("the OAuth line does not say %q: %s", want, line)
		}
	}
	for _, u := range regexp.MustCompile(`https?://[^\s;,)]+`).FindAllString(line, -1) {
		if strings.TrimRight(u, ".") != issuer+"/mcp" {
			t.Errorf("the OAuth line names %s, which a person should not open: %s", u, line)
		}
	}
}

// connector is a client that runs OAuth as the Claude app does, and
// remembers every secret it handled for the log scan.
type connector struct {
	t       *testing.T
	issuer  string
	http    *http.Client
	secrets []string
	client  string
}

func newConnector(t *testing.T, issuer string) *connector {
	return &connector{t: t, issuer: issuer, http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *connector) do(req *http.Request) (*http.Response, []byte) {
	c.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

var (
	txField  = regexp.MustCompile(`name="tx" value="([^"]+)"`)
	metaURL  = regexp.MustCompile(`resource_metadata="([^"]+)"`)
	callback = "https://claude.ai/api/mcp/auth_callback"
)

// discover follows the 401 challenge to the metadata, as a client must.
func (c *connector) discover() (authorize, token, register string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.issuer+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-ai","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, _ := c.do(req)
	m := metaURL.FindStringSubmatch(resp.Header.Get("WWW-Authenticate"))
	if resp.StatusCode != 401 || m == nil || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `scope="house.read house.control"`) {
		c.t.Fatalf("the first call: %d %q, want 401 naming resource_metadata and scope", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	get := func(u string) map[string]any {
		req, _ := http.NewRequest("GET", u, nil)
		resp, b := c.do(req)
		var out map[string]any
		if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
			c.t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
		}
		return out
	}
	prm := get(m[1])
	if prm["resource"] != c.issuer+"/mcp" {
		c.t.Fatalf("protected resource metadata: %v", prm)
	}
	as := get(prm["authorization_servers"].([]any)[0].(string) + "/.well-known/oauth-authorization-server")
	if as["issuer"] != c.issuer {
		c.t.Fatalf("authorization server metadata: %v", as)
	}
	return as["authorization_endpoint"].(string), as["token_endpoint"].(string), as["registration_endpoint"].(string)
}

// connect runs the whole flow and returns the token answer; tick lists the
// scopes the person leaves ticked.
func (c *connector) connect(tick ...string) map[string]any {
	c.t.Helper()
	authorize, tokenURL, register := c.discover()
	body, _ := json.Marshal(map[string]any{"redirect_uris": []string{callback}, "client_name": "Claude", "token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"}})
	req, _ := http.NewRequest("POST", register, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, b := c.do(req)
	var reg map[string]any
	if json.Unmarshal(b, &reg); resp.StatusCode != 201 {
		c.t.Fatalf("register: %d %s", resp.StatusCode, b)
	}
	c.client = reg["client_id"].(string)
	v := make([]byte, 32)
	rand.Read(v)
	verifier := base64.RawURLEncoding.EncodeToString(v)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {c.client}, "redirect_uri": {callback}, "state": {"s1"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"scope": {"house.read house.control"}, "resource": {c.issuer + "/mcp"}}
	req, _ = http.NewRequest("GET", authorize+"?"+q.Encode(), nil)
	resp, page := c.do(req)
	tx := txField.FindSubmatch(page)
	if resp.StatusCode != 200 || tx == nil {
		c.t.Fatalf("the page: %d %.300s", resp.StatusCode, page)
	}
	form := url.Values{"tx": {string(tx[1])}, "password": {e2ePassword}, "action": {"approve"}, "scope": tick}
	req, _ = http.NewRequest("POST", authorize, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range resp.Cookies() {
		req.AddCookie(ck)
		c.secrets = append(c.secrets, ck.Value)
	}
	resp, _ = c.do(req)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	code := loc.Query().Get("code")
	if resp.StatusCode != 303 || code == "" || loc.Query().Get("iss") != c.issuer {
		c.t.Fatalf("login: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	tok := c.token(tokenURL, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {callback},
		"code_verifier": {verifier}, "client_id": {c.client}, "resource": {c.issuer + "/mcp"}})
	c.secrets = append(c.secrets, code, verifier, string(tx[1]))
	return tok
}

func (c *connector) token(tokenURL string, form url.Values) map[string]any {
	c.t.Helper()
	req, _ := http.NewRequest("POST", tokenURL, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, b := c.do(req)
	var tok map[string]any
	if json.Unmarshal(b, &tok); resp.StatusCode != 200 {
		c.t.Fatalf("token: %d %s", resp.StatusCode, b)
	}
	c.secrets = append(c.secrets, tok["access_token"].(string), tok["refresh_token"].(string))
	return tok
}

// rawCall posts one JSON-RPC body to /mcp with the given headers.
func rawCall(t *testing.T, issuer, token, body string, headers map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", issuer+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// The Claude app's whole path against `maison demo`: discovery from the
// 401, registration, the page and its password, the token with PKCE, MCP
// calls with it in both eras, a refresh; the static token beside it; and
// no secret in the logs.
func TestClaudeAppConnects(t *testing.T) {
	t.Parallel()
	issuer, logs := startOAuthDemo(t, nil)
	c := newConnector(t, issuer)
	tok := c.connect("house.read", "house.control")
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connect(t, issuer+"/mcp", tok["access_token"].(string), version)
		checkTools(t, cs)
		res := callAsAClientWould(t, cs, "camera_snapshot", map[string]any{"camera": "front door"})
		if res.IsError || len(res.Content) != 2 {
			t.Fatalf("camera_snapshot with an OAuth token (%s): %s", version, demotest.Text(res))
		}
		if res := demotest.Call(t, cs, "turn_on", map[string]any{"name": "Kitchen Light"}); res.IsError {
			t.Errorf("turn_on with house.control (%s): %s", version, demotest.Text(res))
		}
	}
	// A refresh rotates, and the new access token works.
	_, tokenURL, _ := c.discover()
	next := c.token(tokenURL, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {c.client}, "resource": {issuer + "/mcp"}})
	cs := connect(t, issuer+"/mcp", next["access_token"].(string), "2025-11-25")
	demotest.Call(t, cs, "list_cameras", nil)
	// The static bearer token keeps working beside OAuth.
	demotest.Call(t, connect(t, issuer+"/mcp", e2eToken, "2025-11-25"), "describe_house", nil)
	// A confidential registration's secret, for the scan.
	req, _ := http.NewRequest("POST", issuer+"/register", strings.NewReader(`{"redirect_uris":["http://localhost/cb"],"client_name":"Desktop"}`))
	req.Header.Set("Content-Type", "application/json")
	_, b := c.do(req)
	var reg map[string]string
	json.Unmarshal(b, &reg)
	c.secrets = append(c.secrets, reg["client_secret"])
	// A wrong password, for the scan too.
	wrong := "a wrong guess at the passphrase"
	authorize, _, _ := c.discover()
	q := url.Values{"response_type": {"code"}, "client_id": {c.client}, "redirect_uri": {callback}, "code_challenge": {strings.Repeat("A", 43)}, "code_challenge_method": {"S256"}}
	req, _ = http.NewRequest("GET", authorize+"?"+q.Encode(), nil)
	resp, page := c.do(req)
	form := url.Values{"tx": {string(txField.FindSubmatch(page)[1])}, "password": {wrong}, "action": {"approve"}, "scope": {"house.read"}}
	req, _ = http.NewRequest("POST", authorize, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range resp.Cookies() {
		req.AddCookie(ck)
	}
	if resp, _ := c.do(req); resp.StatusCode != 401 {
		t.Errorf("a wrong password: %d", resp.StatusCode)
	}
	// The audit: which client read which camera, which ran which action.
	// A request's line is written as its answer leaves: wait for the lines.
	audit := []string{"msg=request component=door client=dcr-", "client_name=Claude remote=127.0.0.1 method=tools/call tool=camera_snapshot camera=\"front door\" status=200 outcome=ok", "tool=turn_on name=\"Kitchen Light\" status=200 outcome=ok", "client=bearer-token client_name=MAISON_TOKEN remote=127.0.0.1 method=tools/call tool=describe_house", "msg=\"authorization granted\""}
	l := logs.String()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && !containsAll(l, audit); time.Sleep(10 * time.Millisecond) {
		l = logs.String()
	}
	for _, want := range audit {
		if !strings.Contains(l, want) {
			t.Errorf("the logs lack %q:\n%s", want, l)
		}
	}
	scanSecrets(t, l, append(c.secrets, e2ePassword, e2eSecret, e2eToken, wrong, "Bearer "+e2eToken))
}

// scanSecrets fails if any secret, or a long piece of one, is in the logs.
func scanSecrets(t *testing.T, logs string, secrets []string) {
	t.Helper()
	if len(logs) < 1000 {
		t.Fatalf("the logs are too short to mean anything: %q", logs)
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		pieces := []string{s}
		if len(s) > 40 { // a signed object: also its signature alone
			pieces = append(pieces, s[len(s)-40:])
		}
		for _, p := range pieces {
			if strings.Contains(logs, p) {
				t.Errorf("a secret reached the logs: %.12s…", s)
			}
		}
	}
	t.Logf("%d secrets, %d bytes of logs scanned", len(secrets), len(logs))
}

// Scopes narrow the door: a read-only grant lists only read tools; a call
// to any other is answered, HTTP 200, with a tool result in words (isError)
// saying the grant allows looking, not acting, and how to reconnect with
// control; decided from the body whatever the headers say, and never with
// 403 insufficient_scope, which makes the clients that exist reopen the
// sign-in page and leave the call unanswered.
func TestScopesNarrowTheDoor(t *testing.T) {
	t.Parallel()
	issuer, _ := startOAuthDemo(t, nil)
	c := newConnector(t, issuer)
	tok := c.connect("house.read")
	read := tok["access_token"].(string)
	if tok["scope"] != "house.read" {
		t.Fatalf("granted %v", tok["scope"])
	}
	cs := connect(t, issuer+"/mcp", read, "2025-11-25")
	got := demotest.ToolNames(t, cs)
	for _, name := range got {
		if name == "turn_on" || name == "turn_off" || name == "set_light" || name == "ha_act" {
			t.Errorf("a read-only token lists %s", name)
		}
	}
	if len(got) != 7 {
		t.Errorf("a read-only token lists %v, want the seven read tools (GetDateTime only reads)", got)
	}
	legacy := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"turn_on","arguments":{"name":"Kitchen Light"}}}`
	modern := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"turn_on","arguments":{"name":"Kitchen Light"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	cameras := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_cameras","arguments":{}}}`
	for _, tc := range []struct {
		name, body string
		headers    map[string]string
		id         int // of the call answered in words; 0 for a call that runs, -1 either way
	}{
		{"legacy body, no headers", legacy, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, 7},
		{"2026 with Mcp-Name", modern, map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "turn_on"}, 7},
		{"a header that lies", legacy, map[string]string{"Mcp-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/call", "Mcp-Name": "list_cameras"}, 7},
		{"a batch hiding an action", "[" + cameras + "," + legacy + "]", map[string]string{"Mcp-Protocol-Version": "2025-03-26"}, 7},
		{"an allowed tool", cameras, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, 0},
		// Parsers that disagree: whatever the door reads, the action never runs.
		{"a key in another case", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"turn_on","Name":"list_cameras","arguments":{"name":"Kitchen Light"}}}`, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, 9},
		{"a repeated key", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"turn_on","name":"list_cameras","arguments":{"name":"Kitchen Light"}}}`, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, -1},
	} {
		resp, body := rawCall(t, issuer, read, tc.body, tc.headers)
		if strings.Contains(body, "turned on") || strings.Contains(body, "Kitchen") {
			t.Errorf("%s: the action ran: %.300s", tc.name, body)
		}
		if tc.id == -1 { // refused at the door, or by the MCP server as a tool that is not there
			if !strings.Contains(body, "Unknown tool") && !strings.Contains(body, `"isError":true`) {
				t.Errorf("%s: %d %.300s", tc.name, resp.StatusCode, body)
			}
			continue
		}
		if resp.StatusCode != 200 || resp.Header.Get("WWW-Authenticate") != "" {
			t.Errorf("%s: %d %q %.200s, want 200 without a challenge", tc.name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
			continue
		}
		if tc.id == 0 {
			continue
		}
		if strings.HasPrefix(body, "[") {
			var answers []json.RawMessage
			if err := json.Unmarshal([]byte(body), &answers); err != nil || len(answers) != 2 || !strings.Contains(string(answers[0]), "Not run") {
				t.Errorf("%s: %.400s", tc.name, body)
				continue
			}
			body = string(answers[1])
		}
		var r struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct{ Text string }
				IsError bool `json:"isError"`
			}
		}
		if err := json.Unmarshal([]byte(body), &r); err != nil || r.ID != tc.id || !r.Result.IsError || len(r.Result.Content) != 1 {
			t.Errorf("%s: not a tool result with isError for id %d: %.400s", tc.name, tc.id, body)
			continue
		}
		for _, want := range []string{"Nothing was done", "look at the house", "turn_on", "house.control", "remove the maison connector", "Act in the house"} {
			if !strings.Contains(r.Result.Content[0].Text, want) {
				t.Errorf("%s: the words lack %q: %s", tc.name, want, r.Result.Content[0].Text)
			}
		}
	}
	// An MCP client gets its answer: the call returns a result, it does
	// not fail or hang waiting for a sign-in.
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Kitchen Light"}})
	if err != nil || !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Nothing was done") {
		t.Errorf("turn_on through an MCP client: %v %+v", err, res)
	}
}

var confirmationRE = regexp.MustCompile(`(c-[a-z0-9]{20,})`)

// A confirmation is bound to the client that received it: another client,
// even with the same rights, cannot use it; the client it was made for can,
// once, though its access token was refreshed in between.
func TestConfirmationBoundToTheClient(t *testing.T) {
	t.Parallel()
	issuer, _ := startOAuthDemo(t, map[string]string{"MAISON_CONFIRM": "code"})
	a, b := newConnector(t, issuer), newConnector(t, issuer)
	ta, tb := a.connect("house.read", "house.control"), b.connect("house.read", "house.control")
	csA := connect(t, issuer+"/mcp", ta["access_token"].(string), "2025-11-25")
	csB := connect(t, issuer+"/mcp", tb["access_token"].(string), "2025-11-25")
	open := map[string]any{"name": "Garage Door"}
	m := confirmationRE.FindStringSubmatch(demotest.Text(demotest.Call(t, csA, "turn_on", open)))
	if m == nil {
		t.Fatal("opening the garage door did not ask for a confirmation")
	}
	with := map[string]any{"name": "Garage Door", "confirmation": m[1]}
	if res := demotest.Call(t, csB, "turn_on", with); !res.IsError {
		t.Errorf("another client used the confirmation: %s", demotest.Text(res))
	}
	_, tokenURL, _ := a.discover()
	next := a.token(tokenURL, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {ta["refresh_token"].(string)}, "client_id": {a.client}})
	csA2 := connect(t, issuer+"/mcp", next["access_token"].(string), "2025-11-25")
	if res := demotest.Call(t, csA2, "turn_on", with); res.IsError {
		t.Errorf("the client it was made for, after a refresh: %s", demotest.Text(res))
	}
}

// Each token maison token mints is a client of its own: a confirmation
// proposed to the kitchen tablet's token is worthless from the garage
// tablet's, and the audit line names the token that called.
func TestMintedTokensAreEachTheirOwnClient(t *testing.T) {
	t.Parallel()
	issuer, logs := startOAuthDemo(t, map[string]string{"MAISON_CONFIRM": "code"})
	env := map[string]string{"MAISON_SECRET": e2eSecret, "MAISON_PUBLIC_URL": issuer}
	mint := func(name string) string {
		var out testkit.Buffer
		if code := run(t.Context(), []string{"token", "--scope", "both", "--name", name}, strings.NewReader(""), &out, io.Discard, func(k string) string { return env[k] }); code != 0 {
			t.Fatalf("maison token --name %q: exit %d", name, code)
		}
		return strings.TrimSpace(out.String())
	}
	kitchen := connect(t, issuer+"/mcp", mint("kitchen tablet"), "2025-11-25")
	garage := connect(t, issuer+"/mcp", mint("garage tablet"), "2025-11-25")
	m := confirmationRE.FindStringSubmatch(demotest.Text(demotest.Call(t, kitchen, "turn_on", map[string]any{"name": "Garage Door"})))
	if m == nil {
		t.Fatal("opening the garage door did not ask for a confirmation")
	}
	with := map[string]any{"name": "Garage Door", "confirmation": m[1]}
	if res := demotest.Call(t, garage, "turn_on", with); !res.IsError {
		t.Errorf("the garage tablet's token used the kitchen tablet's confirmation: %s", demotest.Text(res))
	}
	if res := demotest.Call(t, kitchen, "turn_on", with); res.IsError {
		t.Errorf("the token the confirmation was made for: %s", demotest.Text(res))
	}
	var clients []string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "sensitive action proposed") || strings.Contains(line, "sensitive action refused") {
			if i := strings.Index(line, "client="); i >= 0 {
				clients = append(clients, strings.Fields(line[i:])[0])
			}
			if !strings.Contains(line, "tablet") {
				t.Errorf("the audit line does not name the token: %s", line)
			}
		}
	}
	if len(clients) != 2 || clients[0] == clients[1] {
		t.Errorf("the two tokens are logged as clients %v, want two different ones", clients)
	}
}

// maison token prints a long-lived token signed the same way; it works
// with its scope, and a changed secret revokes it.
func TestMaisonToken(t *testing.T) {
	t.Parallel()
	issuer, _ := startOAuthDemo(t, nil)
	env := map[string]string{"MAISON_SECRET": e2eSecret, "MAISON_PUBLIC_URL": issuer}
	var out, errOut testkit.Buffer
	if code := run(t.Context(), []string{"token", "--scope", "house.read", "--ttl", "90d", "--name", "kitchen tablet"}, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] }); code != 0 {
		t.Fatalf("maison token: exit %d: %s", code, errOut.String())
	}
	tok := strings.TrimSpace(out.String())
	if strings.Count(tok, ".") != 2 || !strings.Contains(errOut.String(), "house.read") {
		t.Fatalf("maison token printed %q / %q", tok, errOut.String())
	}
	cs := connect(t, issuer+"/mcp", tok, "2025-11-25")
	if got := demotest.ToolNames(t, cs); len(got) != 7 {
		t.Errorf("a house.read token from maison token lists %v", got)
	}
	// --scope both, as maison token --help offers it, is both scopes.
	out, errOut = testkit.Buffer{}, testkit.Buffer{}
	if code := run(t.Context(), []string{"token", "--scope", "both"}, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] }); code != 0 {
		t.Fatalf("maison token --scope both: exit %d: %s", code, errOut.String())
	}
	if got := demotest.ToolNames(t, connect(t, issuer+"/mcp", strings.TrimSpace(out.String()), "2025-11-25")); !slices.Contains(got, "turn_on") || !slices.Contains(got, "list_cameras") {
		t.Errorf("a token for both scopes lists %v", got)
	}
	env["MAISON_SECRET"] = "another-secret-that-is-long-enough-32b!"
	out = testkit.Buffer{}
	run(t.Context(), []string{"token", "--scope", "house.read,house.control"}, strings.NewReader(""), &out, io.Discard, func(k string) string { return env[k] })
	if resp, _ := rawCall(t, issuer, strings.TrimSpace(out.String()), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil); resp.StatusCode != 401 {
		t.Errorf("a token signed with another secret: %d, want 401", resp.StatusCode)
	}
	for _, args := range [][]string{{"token", "--scope", "house.admin"}, {"token", "--ttl", "0d"}, {"token", "--ttl", "forever"}} {
		if code := run(t.Context(), args, strings.NewReader(""), io.Discard, io.Discard, func(k string) string { return env[k] }); code == 0 {
			t.Errorf("maison %v: exit 0", args)
		}
	}
	if code := run(t.Context(), []string{"token"}, strings.NewReader(""), io.Discard, io.Discard, func(string) string { return "" }); code == 0 {
		t.Error("maison token without MAISON_SECRET: exit 0")
	}
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
