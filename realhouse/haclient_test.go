package realhouse_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"maison/internal/realha"
)

// TestHAClientAddsMaisonOverOAuth adds maison to the real Home Assistant
// through its "Model Context Protocol" integration, as its owner does in the
// frontend: the URL, the application credentials Home Assistant asks for
// (its MCP client registers nothing itself), maison's sign-in page answered
// as a person would, and Home Assistant's callback. The entry must load and
// Home Assistant must list maison's tools as an LLM API.
func TestHAClientAddsMaisonOverOAuth(t *testing.T) {
	house := realha.Load(t)
	ctx := t.Context()
	password := "a real house test " + haclientRandom(t, 12)
	m := haclientStartMaison(t, house, password)
	ha := haclientHA{base: house.URL, token: house.OwnerToken}
	entryID := haclientAdd(t, house, m, password)

	var entries []haclientEntry
	ha.do(t, http.MethodGet, "/api/config/config_entries/entry?domain=mcp", nil, &entries)
	i := slices.IndexFunc(entries, func(e haclientEntry) bool { return e.EntryID == entryID })
	if i < 0 || entries[i].State != "loaded" {
		t.Fatalf("entry %s is not loaded: %+v", entryID, entries)
	}

	// Home Assistant offers maison to its assistants as an LLM API, and its
	// diagnostics list the tools it read from maison.
	var apis struct {
		APIs []struct{ ID, Name string } `json:"apis"`
	}
	ha.ws(ctx, t, map[string]any{"type": "llm/api/list"}, &apis)
	if !slices.ContainsFunc(apis.APIs, func(a struct{ ID, Name string }) bool { return a.ID == "mcp-"+entryID }) {
		t.Fatalf("no LLM API mcp-%s among %+v", entryID, apis.APIs)
	}
	var diag struct {
		Data struct {
			Authentication bool `json:"authentication"`
			Tools          []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"data"`
	}
	ha.diagnostics(t, entryID, &diag)
	var names []string
	for _, tool := range diag.Data.Tools {
		names = append(names, tool.Name)
	}
	t.Logf("Home Assistant lists %d tools from entry %q: %v", len(names), entries[i].Title, names)
	if entries[i].Title != "maison" {
		t.Errorf("Home Assistant names the entry %q, not maison (the name maison gives itself)", entries[i].Title)
	}
	if !diag.Data.Authentication {
		t.Errorf("Home Assistant's diagnostics say the entry has no authentication")
	}
	for _, want := range []string{"list_cameras", "camera_snapshot", "describe_camera"} {
		if !slices.Contains(names, want) {
			t.Errorf("Home Assistant does not list maison's %s: %v", want, names)
		}
	}
}

// haclientAdd adds maison, served at m, to the real Home Assistant through
// its "Model Context Protocol" integration, as its owner does in the
// frontend: the URL, the application credentials Home Assistant asks for
// (its MCP client registers nothing itself), maison's sign-in page
// answered as a person would, and Home Assistant's callback. It returns
// the config entry's id; the entry and the credentials go when the test
// ends.
func haclientAdd(t *testing.T, house realha.House, m haclientMaison, password string) string {
	t.Helper()
	ctx := t.Context()
	ha := haclientHA{base: house.URL, token: house.OwnerToken}
	callback := house.URL + "/auth/external/callback" // no My Home Assistant in the test house

	// Home Assistant's MCP client has no dynamic registration: it asks for
	// application credentials. The person gets them from maison's /register,
	// as a confidential client that sends its secret in the body, as Home
	// Assistant does (client_secret_post).
	var reg struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	haclientJSON(t, http.DefaultClient, http.MethodPost, m.url+"/register", nil, map[string]any{
		"redirect_uris": []string{callback}, "client_name": "Home Assistant",
		"token_endpoint_auth_method": "client_secret_post",
	}, http.StatusCreated, &reg)
	if reg.ClientID == "" || reg.ClientSecret == "" {
		t.Fatalf("registration gave client_id %q and a secret of %d characters", reg.ClientID, len(reg.ClientSecret))
	}
	var cred struct {
		ID         string `json:"id"`
		AuthDomain string `json:"auth_domain"`
	}
	ha.ws(ctx, t, map[string]any{
		"type": "application_credentials/create", "domain": "mcp", "name": "maison",
		"client_id": reg.ClientID, "client_secret": reg.ClientSecret,
	}, &cred)
	t.Cleanup(func() {
		ha.ws(context.Background(), t, map[string]any{"type": "application_credentials/delete", "application_credentials_id": cred.ID}, nil)
	})

	// The config flow, step by step as the frontend drives it.
	var step haclientStep
	ha.do(t, http.MethodPost, "/api/config/config_entries/flow", map[string]any{"handler": "mcp", "show_advanced_options": false}, &step)
	flow := "/api/config/config_entries/flow/" + step.FlowID
	t.Cleanup(func() { ha.do(t, http.MethodDelete, flow, nil, nil) }) // an unfinished flow; a finished one answers 404, ignored
	step.want(t, "form", "user")
	ha.do(t, http.MethodPost, flow, map[string]any{"url": m.url + "/mcp"}, &step)
	step.want(t, "menu", "credentials_choice")
	ha.do(t, http.MethodPost, flow, map[string]any{"next_step_id": "pick_implementation"}, &step)
	if step.Type == "form" && step.StepID == "pick_implementation" { // credentials of another server are there too
		impl := cred.AuthDomain
		if impl == "" {
			impl = cred.ID
		}
		ha.do(t, http.MethodPost, flow, map[string]any{"implementation": impl}, &step)
	}
	step.want(t, "external", "auth")

	authz, err := url.Parse(step.URL)
	if err != nil || !strings.HasPrefix(step.URL, m.url+"/authorize?") {
		t.Fatalf("Home Assistant sends the person to %q, not to maison's %s/authorize", step.URL, m.url)
	}
	q := authz.Query()
	t.Logf("Home Assistant's authorization request: %s", haclientParams(q))
	if q.Get("client_id") != reg.ClientID || q.Get("redirect_uri") != callback {
		t.Fatalf("authorization request names client %q and redirect %q, not the registered ones", q.Get("client_id"), q.Get("redirect_uri"))
	}

	// The person's browser: maison's page, the password, maison's redirect
	// to Home Assistant's callback, which resumes the flow.
	final := haclientSignIn(t, m.url, step.URL, password)
	if final.URL.Path != "/auth/external/callback" || final.StatusCode != http.StatusOK || !strings.Contains(final.Body, "window.close") {
		t.Fatalf("the browser ended at %s (%d): %.300s", final.URL.Redacted(), final.StatusCode, final.Body)
	}
	if !final.URL.Query().Has("code") {
		t.Fatalf("maison sent the browser back without a code: %s", haclientParams(final.URL.Query()))
	}

	// The frontend then fetches the flow, which redeems the code and
	// connects to maison with the token.
	ha.do(t, http.MethodGet, flow, nil, &step)
	if step.Type != "create_entry" {
		t.Fatalf("the flow ended as %q (reason %q, errors %v), not create_entry; Home Assistant's log says why", step.Type, step.Reason, step.Errors)
	}
	entryID := step.Result.EntryID
	t.Cleanup(func() { ha.do(t, http.MethodDelete, "/api/config/config_entries/entry/"+entryID, nil, nil) })
	return entryID
}

// haclientEntry is a config entry as Home Assistant lists it.
type haclientEntry struct {
	EntryID string `json:"entry_id"`
	Title   string `json:"title"`
	State   string `json:"state"`
	Reason  string `json:"reason"`
}

// haclientMaison is a running `maison serve`: its URL and the file its log
// goes to.
type haclientMaison struct{ url, log string }

// haclientStartMaison serves the real house with OAuth on a loopback port
// (maisonBin, built by TestMain), until the test ends, with the extra
// settings given (KEY=value).
func haclientStartMaison(t *testing.T, house realha.House, password string, extra ...string) haclientMaison {
	t.Helper()
	bin := maisonBin
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // maison listens on it next; the public URL must name the port first
	public := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = append(os.Environ(),
		"MAISON_LISTEN="+addr, "MAISON_PUBLIC_URL="+public,
		"MAISON_HA_URL="+house.URL, "MAISON_HA_TOKEN="+house.Token,
		"MAISON_SECRET="+haclientRandom(t, 32), "MAISON_OPERATOR_PASSWORD="+password,
		"MAISON_TOKEN=", "MAISON_REDIRECT_URIS=", "MAISON_LOG_LEVEL=debug",
	)
	cmd.Env = append(cmd.Env, extra...)
	logs, err := os.Create(filepath.Join(t.TempDir(), "maison.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			b, _ := os.ReadFile(logs.Name())
			t.Logf("maison's log:\n%s", b)
		}
	})
	serving := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "maison is serving "); ok {
				serving <- u
			}
		}
		cmd.Wait()
	}()
	select {
	case u := <-serving:
		if u != public+"/mcp" {
			t.Fatalf("maison serves %s, not %s/mcp", u, public)
		}
	case <-done:
		b, _ := os.ReadFile(logs.Name())
		t.Fatalf("maison serve stopped before serving:\n%s", b)
	}
	return haclientMaison{url: public, log: logs.Name()}
}

// haclientPage is where a browser ended.
type haclientPage struct {
	URL        *url.URL
	StatusCode int
	Body       string
}

var haclientHidden = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// haclientSignIn is the person at the browser: opens the authorization URL,
// types the operator password, keeps the scopes ticked, approves, and
// follows the redirects back to Home Assistant.
func haclientSignIn(t *testing.T, issuer, authorizeURL, password string) haclientPage {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	resp, err := browser.Get(authorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	page := haclientRead(t, resp)
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Host != strings.TrimPrefix(issuer, "http://") {
		t.Fatalf("maison's sign-in page did not open: %s (%d): %.500s", resp.Request.URL.Redacted(), resp.StatusCode, page)
	}
	form := url.Values{"password": {password}, "action": {"approve"}}
	for _, m := range haclientHidden.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	for _, m := range regexp.MustCompile(`<input type="checkbox" name="scope" value="([^"]+)" checked>`).FindAllStringSubmatch(page, -1) {
		form.Add("scope", m[1])
	}
	if form.Get("tx") == "" || len(form["scope"]) == 0 {
		t.Fatalf("maison's page has no transaction or no ticked scope: %.1000s", page)
	}
	return haclientPost(t, browser, issuer, "/authorize", form)
}

// haclientPost is a browser posting a form of maison's page at origin, as
// from that page.
func haclientPost(t *testing.T, browser *http.Client, origin, path string, form url.Values) haclientPage {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, origin+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return haclientPage{URL: resp.Request.URL, StatusCode: resp.StatusCode, Body: haclientRead(t, resp)}
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`).Replace(s)
}

// haclientHA is the owner talking to Home Assistant.
type haclientHA struct{ base, token string }

// haclientStep is a config flow's answer.
type haclientStep struct {
	FlowID string            `json:"flow_id"`
	Type   string            `json:"type"`
	StepID string            `json:"step_id"`
	URL    string            `json:"url"`
	Reason string            `json:"reason"`
	Errors map[string]string `json:"errors"`
	Result struct {
		EntryID string `json:"entry_id"`
	} `json:"result"`
}

func (s haclientStep) want(t *testing.T, typ, id string) {
	t.Helper()
	if s.Type != typ || s.StepID != id {
		t.Fatalf("the flow answered %s %q (reason %q, errors %v), not %s %q", s.Type, s.StepID, s.Reason, s.Errors, typ, id)
	}
}

// do sends one REST request as the owner, as the frontend does (its base in
// HA-Frontend-Base: the OAuth redirect URI is made from it).
func (h haclientHA) do(t *testing.T, method, path string, body, out any) {
	t.Helper()
	hdr := http.Header{"Authorization": {"Bearer " + h.token}, "HA-Frontend-Base": {h.base}}
	want := http.StatusOK
	if out == nil {
		want = 0
	}
	haclientJSON(t, http.DefaultClient, method, h.base+path, hdr, body, want, out)
}

// diagnostics reads a config entry's diagnostics. The first time an
// integration loads, Home Assistant registers its diagnostics platform in a
// background task, after the entry is loaded, and no event marks the end of
// it: until then the answer is 404, so a 404 is asked again for a while.
func (h haclientHA) diagnostics(t *testing.T, entryID string, out any) {
	t.Helper()
	hdr := http.Header{"Authorization": {"Bearer " + h.token}}
	u := h.base + "/api/diagnostics/config_entry/" + entryID
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, text := haclientSend(t, http.DefaultClient, http.MethodGet, u, hdr, nil)
		switch {
		case status == http.StatusOK:
			if err := json.Unmarshal([]byte(text), out); err != nil {
				t.Fatalf("diagnostics: %v in %.1000s", err, text)
			}
			return
		case status != http.StatusNotFound || time.Now().After(deadline):
			t.Fatalf("diagnostics of entry %s: %d: %.1000s", entryID, status, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ws sends one websocket command as the owner (ownerCommand) and decodes
// its result.
func (h haclientHA) ws(_ context.Context, t *testing.T, cmd map[string]any, out any) {
	t.Helper()
	res, err := ownerCommand(t, realha.House{URL: h.base, OwnerToken: h.token}, cmd)
	if err != nil {
		t.Fatalf("websocket %s refused: %v", cmd["type"], err)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			t.Fatalf("websocket %s: %v in %s", cmd["type"], err, res)
		}
	}
}

// haclientJSON sends a JSON request and decodes a JSON answer of the wanted
// status (any status when want is 0 and out is nil).
func haclientJSON(t *testing.T, c *http.Client, method, u string, hdr http.Header, body any, want int, out any) {
	t.Helper()
	status, text := haclientSend(t, c, method, u, hdr, body)
	if want == 0 {
		return
	}
	if status != want {
		t.Fatalf("%s %s: %d, not %d: %.1000s", method, u, status, want, text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		t.Fatalf("%s %s: %v in %.1000s", method, u, err, text)
	}
}

// haclientSend sends a request, JSON when body is not nil, and returns the
// answer's status and text.
func haclientSend(t *testing.T, c *http.Client, method, u string, hdr http.Header, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	return resp.StatusCode, haclientRead(t, resp)
}

func haclientRead(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// haclientParams shows a query with its secrets and signed values shortened.
func haclientParams(q url.Values) string {
	var parts []string
	for k, v := range q {
		s := strings.Join(v, ",")
		if len(s) > 24 && k != "redirect_uri" && k != "scope" {
			s = s[:12] + "…(" + strconv.Itoa(len(s)) + ")"
		}
		parts = append(parts, k+"="+s)
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func haclientRandom(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
