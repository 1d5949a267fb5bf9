package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/approve"
	"maison/confirm"
	"maison/demotest"
	"maison/internal/browsertest"
	"maison/internal/testkit"
	"maison/state"
)

// With a public URL and a password, maison demo serves the approval page:
// a link without a reference is answered with a page that says what to do,
// framed by no one.
func TestDemoServesTheApprovalPage(t *testing.T) {
	t.Parallel()
	issuer, _ := startOAuthDemo(t, nil)
	resp, err := http.Get(issuer + "/approve")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "Nothing was done") || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("/approve: %d %v %s", resp.StatusCode, resp.Header, body)
	}
}

// MAISON_CONFIRM=approval where no page can be served is refused at start,
// saying what is missing.
func TestApprovalWithoutAPageIsRefused(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{
		{"MAISON_CONFIRM": "approval"},
		{"MAISON_CONFIRM": "both", "MAISON_PUBLIC_URL": "https://maison.example.com"},
	} {
		c, err := loadConfig("demo", nil, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.approvalOrigin(true); err == nil || !strings.Contains(err.Error(), "MAISON_OPERATOR_PASSWORD") {
			t.Errorf("%v: %v", env, err)
		}
	}
	c, _ := loadConfig("stdio", []string{"--demo"}, func(k string) string {
		return map[string]string{"MAISON_CONFIRM": "approval", "MAISON_PUBLIC_URL": "https://maison.example.com", "MAISON_OPERATOR_PASSWORD": e2ePassword}[k]
	})
	if _, err := c.approvalOrigin(false); err == nil {
		t.Error("stdio accepted MAISON_CONFIRM=approval")
	}
	if _, err := loadConfig("demo", nil, func(k string) string { return map[string]string{"MAISON_CONFIRM": "maybe"}[k] }); err == nil {
		t.Error("MAISON_CONFIRM=maybe accepted")
	}
}

// approvalLinkRE finds the approval link and the reference in an answer.
var (
	approvalLinkRE = regexp.MustCompile(`https?://[^\s]+/approve\?r=[A-Za-z0-9_.%-]+`)
	approvalRefRE  = regexp.MustCompile(`\ba-[a-z2-7]{16}\b`)
)

// browserPage is what approve.cjs reports of the page.
type browserPage struct {
	Status   int
	Lang     string
	Text     string
	Scripts  []string
	Replay   *browserPage
	Attacker *browserPage
	Framed   *struct{ URL, Text string }
}

// inBrowser runs approve.cjs with plan and returns what the page said.
func inBrowser(t *testing.T, node string, env []string, plan map[string]any) browserPage {
	t.Helper()
	b, _ := json.Marshal(plan)
	cmd := exec.CommandContext(t.Context(), node, filepath.Join("..", "..", "approve", "testdata", "browser", "approve.cjs"), string(b))
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the browser: %v\n%s", err, stderr.String())
	}
	var p browserPage
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("the browser said %s: %v", out, err)
	}
	if len(p.Scripts) > 0 {
		t.Errorf("the page loaded scripts: %v", p.Scripts)
	}
	return p
}

// propose asks for a sensitive action and returns the approval link and
// the reference the model is given.
func propose(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (link, ref string) {
	t.Helper()
	res := demotest.Call(t, cs, tool, args)
	text := demotest.Text(res)
	link, ref = approvalLinkRE.FindString(text), approvalRefRE.FindString(text)
	if res.IsError || link == "" || ref == "" {
		t.Fatalf("%s %v did not ask for an approval: %s", tool, args, text)
	}
	return link, ref
}

// The whole loop in a real browser, with the defaults and a public URL:
// the model's call gets a link and nothing happens; the person opens it,
// types the password of this maison and approves; the lock is unlocked
// and the model hears it. Declined, replayed, posted from another site,
// framed, expired, or passed back by another client: nothing happens.
func TestBrowserApprovesAnUnlock(t *testing.T) {
	t.Parallel()
	node, env := browsertest.Tools(t)
	env = append(env, "MAISON_OPERATOR_PASSWORD="+e2ePassword)
	key := "a-confirm-key-of-at-least-thirty-two-bytes"
	// A lasting store: without one, links of a process end with it, and
	// the expired link this test makes offline with the key would not open.
	issuer, logs := startOAuthDemo(t, map[string]string{"MAISON_CONFIRM_KEY": key, "MAISON_STATE_DIR": t.TempDir()})
	tok := newConnector(t, issuer).connect("house.read", "house.control") // as the Claude app connects
	cs := connect(t, issuer+"/mcp", tok["access_token"].(string), "2025-11-25")
	lock := func() string {
		text := demotest.Text(demotest.Call(t, cs, "describe_house", nil))
		switch {
		case strings.Contains(text, "“Front Door Lock” is not locked"):
			return "unlocked"
		case strings.Contains(text, "“Front Door Lock” is locked") || !strings.Contains(text, "Front Door Lock"):
			return "locked"
		}
		return text
	}
	unlock := map[string]any{"name": "Front Door Lock"}
	link, ref := propose(t, cs, "turn_off", unlock)
	if got := lock(); got != "locked" {
		t.Fatalf("before any approval the lock is %s", got)
	}

	// Another site: a page elsewhere that frames the link, and one that
	// posts the very form this browser was shown, password included.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/frame" {
			fmt.Fprintf(w, `<!doctype html><iframe src="%s" width="600" height="400"></iframe>`, html.EscapeString(link))
			return
		}
		q := r.URL.Query()
		fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/approve"><input name="r" value="%s"><input name="b" value="%s"><input name="password" value="%s"><button id="go" name="action" value="approve">go</button></form>`,
			issuer, html.EscapeString(q.Get("r")), html.EscapeString(q.Get("b")), html.EscapeString(q.Get("password")))
	}))
	defer evil.Close()
	p := inBrowser(t, node, env, map[string]any{"url": link, "action": "none", "password": e2ePassword, "attacker": evil.URL + "/evil", "framer": evil.URL + "/frame"})
	if p.Status != 200 || !strings.Contains(p.Text, "unlock the “Front Door Lock”") || !strings.Contains(p.Text, "Claude") || !strings.Contains(p.Text, "The password of this maison") || strings.Contains(p.Text, "MAISON_") {
		t.Errorf("the page: %d %s", p.Status, p.Text)
	}
	if p.Attacker == nil || p.Attacker.Status != http.StatusForbidden {
		t.Errorf("a post from another site: %+v", p.Attacker)
	}
	if p.Framed == nil || strings.Contains(p.Framed.Text, "Front Door Lock") {
		t.Errorf("the page was shown in another site's frame: %+v", p.Framed)
	}
	if got := lock(); got != "locked" {
		t.Fatalf("after another site's post the lock is %s", got)
	}

	// Another client passes the reference back: it hears nothing of it.
	other := connect(t, issuer+"/mcp", mintToken(t, issuer, "kitchen tablet"), "2025-11-25")
	with := map[string]any{"name": "Front Door Lock", "confirmation": ref}
	if res := demotest.Call(t, other, "turn_off", with); !res.IsError || !strings.Contains(demotest.Text(res), "cannot be used") {
		t.Errorf("another client with the reference: %s", demotest.Text(res))
	}

	// The person approves, and a second tab's copy of the form is replayed.
	shots := map[string]any(nil)
	if dir := os.Getenv("MAISON_APPROVAL_SCREENSHOTS"); dir != "" {
		shots = map[string]any{"dir": dir, "name": "approval"}
	}
	p = inBrowser(t, node, env, map[string]any{"url": link, "action": "approve", "password": e2ePassword, "replay": true, "shots": shots})
	if p.Status != 200 || !strings.Contains(p.Text, "Home Assistant says") || !strings.Contains(p.Text, "unlocked") {
		t.Fatalf("approved: %d %s\n%s", p.Status, p.Text, logs.String())
	}
	if p.Replay == nil || p.Replay.Status != http.StatusConflict || !strings.Contains(p.Replay.Text, "already answered") {
		t.Errorf("the replayed approval: %+v", p.Replay)
	}
	if got := lock(); got != "unlocked" {
		t.Fatalf("after the approval the lock is %s", got)
	}
	if res := demotest.Call(t, cs, "turn_off", with); res.IsError || !strings.Contains(demotest.Text(res), "approved") {
		t.Errorf("the model hears: %s", demotest.Text(res))
	}

	// Decline: the garage door stays shut, and the model hears it.
	link, ref = propose(t, cs, "turn_on", map[string]any{"name": "Garage Door"})
	if p = inBrowser(t, node, env, map[string]any{"url": link, "action": "decline"}); p.Status != 200 || !strings.Contains(p.Text, "nothing was done") {
		t.Errorf("declined: %d %s", p.Status, p.Text)
	}
	if res := demotest.Call(t, cs, "turn_on", map[string]any{"name": "Garage Door", "confirmation": ref}); !strings.Contains(demotest.Text(res), "declined") {
		t.Errorf("the model hears: %s", demotest.Text(res))
	}

	// Expired: a reference sealed with the same key, past its time.
	if p = inBrowser(t, node, env, map[string]any{"url": expiredLink(t, issuer, key), "action": "none"}); p.Status != http.StatusGone || !strings.Contains(p.Text, "expired") || strings.Contains(p.Text, "Approve") {
		t.Errorf("expired: %d %s", p.Status, p.Text)
	}

	// One line per proposal, approval, decline and expiry; no secret.
	for _, want := range []string{"approval requested", "approval granted by the person; maison acted", "outcome=done", "approval declined by the person"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %q line in the log", want)
		}
	}
	for _, secret := range []string{e2ePassword, ref, "r=ey"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
}

// The page speaks the browser's language among maison's, here French.
func TestBrowserApprovalPageInFrench(t *testing.T) {
	t.Parallel()
	node, env := browsertest.Tools(t)
	issuer, _ := startOAuthDemo(t, map[string]string{"MAISON_LANG": "fr"})
	tok := newConnector(t, issuer).connect("house.read", "house.control")
	cs := connect(t, issuer+"/mcp", tok["access_token"].(string), "2025-11-25")
	link, _ := propose(t, cs, "turn_off", map[string]any{"name": "Front Door Lock"})
	shots := map[string]any(nil)
	if dir := os.Getenv("MAISON_APPROVAL_SCREENSHOTS"); dir != "" {
		shots = map[string]any{"dir": dir, "name": "approval-fr"}
	}
	p := inBrowser(t, node, env, map[string]any{"url": link, "action": "none", "shots": shots, "locale": "fr-CA"})
	for _, want := range []string{"Approuver", "Refuser", "Le mot de passe de cette maison", "déverrouiller"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("the French page lacks %q: %s", want, p.Text)
		}
	}
	if p.Lang != "fr" {
		t.Errorf("lang %q", p.Lang)
	}
}

// mintToken signs a token for a client of its own, as maison token does.
func mintToken(t *testing.T, issuer, name string) string {
	t.Helper()
	env := map[string]string{"MAISON_SECRET": e2eSecret, "MAISON_PUBLIC_URL": issuer}
	var out testkit.Buffer
	if code := run(t.Context(), []string{"token", "--scope", "both", "--name", name}, strings.NewReader(""), &out, io.Discard, func(k string) string { return env[k] }); code != 0 {
		t.Fatalf("maison token --name %q: exit %d", name, code)
	}
	return strings.TrimSpace(out.String())
}

// expiredLink is a link to a reference maison's key sealed, expired a
// minute ago.
func expiredLink(t *testing.T, issuer, key string) string {
	t.Helper()
	now := time.Now()
	a := approve.Action{ID: "a-aaaaaaaaaaaaaaaa", Caller: "x", Client: "x", Tool: "turn_off", Canonical: "HassTurnOff",
		Args: json.RawMessage(`{"name":"Front Door Lock"}`), What: "unlock the “Front Door Lock”", Code: "c-x",
		Asked: now.Add(-6 * time.Minute).Unix(), Exp: now.Add(-time.Minute).Unix()}
	b, _ := json.Marshal(a)
	f, err := state.OpenFile(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return issuer + approve.Path + "?r=" + url.QueryEscape(confirm.NewStored([]byte(key), f).Seal("approve-reference", b))
}

// With MAISON_APPROVAL_NOTIFY, maison demo sends the link to Home
// Assistant's own notifications and to a phone the demo house does not
// have: the answer says where it went and which phone Home Assistant has
// no notification for, and the log names that phone, never the link.
func TestDemoSendsTheApprovalLinkAndSaysWhere(t *testing.T) {
	t.Parallel()
	issuer, logs := startOAuthDemo(t, map[string]string{"MAISON_APPROVAL_NOTIFY": "persistent_notification, notify.mobile_app_no_such_phone"})
	cs := demotest.Connect(t, issuer+"/mcp", e2eToken, "")
	text := demotest.Text(demotest.Call(t, cs, "turn_off", map[string]any{"name": "Front Door Lock"}))
	link := approvalLinkRE.FindString(text)
	for _, want := range []string{
		"I've sent the approval link to Home Assistant's notifications: open it there, or say cancel.",
		"I could not send it to your phone (“no such phone”): Home Assistant has no such notification, or it is unavailable",
	} {
		if !strings.Contains(text, want) || link == "" {
			t.Errorf("the answer lacks %q, or the link: %s", want, text)
		}
	}
	if line := regexp.MustCompile(`.*approval link not sent.*`).FindString(logs.String()); !strings.Contains(line, "target=notify.mobile_app_no_such_phone") || strings.Contains(logs.String(), link) {
		t.Errorf("the log line of the phone not reached: %q (or the log holds the link)", line)
	}
}

// A place to send approval links that is neither notify.<name> nor
// persistent_notification is refused at start, saying what to give.
func TestApprovalNotifyTargetsAreChecked(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"mobile_app_phone", "notify.My Phone", "persistent_notification,tts.speak"} {
		_, err := loadConfig("demo", nil, func(k string) string { return map[string]string{"MAISON_APPROVAL_NOTIFY": v}[k] })
		if err == nil || !strings.Contains(err.Error(), "MAISON_APPROVAL_NOTIFY") || !strings.Contains(err.Error(), "notify.mobile_app_your_phone") {
			t.Errorf("MAISON_APPROVAL_NOTIFY=%s: %v", v, err)
		}
	}
}
