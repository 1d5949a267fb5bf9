package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
	"maison/demotest"
	"maison/internal/redistest"
	"maison/internal/testkit"
)

// e2eConfirmKey is the confirmations' key the tests of a restart and of
// replicas keep from one maison to the next.
const e2eConfirmKey = "an-e2e-confirm-key-of-at-least-thirty-two-bytes"

// runMaison runs maison cmd in this process with env until stop is
// called; it returns its /mcp URL and stop, which says how it ended.
func runMaison(t testing.TB, cmd string, env map[string]string) (mcpURL string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &testkit.Buffer{}, &testkit.Buffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{cmd}, strings.NewReader(""), out, logs, func(k string) string { return env[k] })
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("maison %s exited %d: %s", cmd, code, logs.String())
			}
		})
	}
	t.Cleanup(stop)
	for {
		for _, line := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(line, "maison is serving "); ok {
				return strings.TrimSpace(u), stop
			}
		}
		select {
		case code := <-done:
			t.Fatalf("maison %s exited %d before serving: %s %s", cmd, code, out.String(), logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// answerPage opens an approval link as a browser would and, when it shows
// a form, posts action (approve, with the password) from it; it returns
// the status of the page, and of the answer (0 with no form).
func answerPage(t *testing.T, link, origin, action string) (shown, answered int, body string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{}
	for _, m := range regexp.MustCompile(`name="(r|b)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], strings.NewReplacer("&amp;", "&", "&#43;", "+").Replace(m[2]))
	}
	if form.Get("b") == "" {
		return resp.StatusCode, 0, string(page)
	}
	form.Set("action", action)
	form.Set("password", e2ePassword)
	u, _ := url.Parse(link)
	req, _ := http.NewRequest(http.MethodPost, u.Scheme+"://"+u.Host+"/approve", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	post, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(post.Body)
	post.Body.Close()
	return resp.StatusCode, post.StatusCode, string(b)
}

// A restart mid-approval, with the same MAISON_CONFIRM_KEY and
// MAISON_STATE_DIR: the link answered before stays answered (no form, and
// the model hears it was done), the one still waiting is approved once.
func TestARestartMidApprovalKeepsEachAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	port := strconv.Itoa(freePort(t))
	issuer := "http://127.0.0.1:" + port
	env := map[string]string{
		"MAISON_LISTEN": "127.0.0.1:" + port, "MAISON_PUBLIC_URL": issuer, "MAISON_SECRET": e2eSecret,
		"MAISON_OPERATOR_PASSWORD": e2ePassword, "MAISON_TOKEN": e2eToken, "MAISON_CONFIRM_KEY": e2eConfirmKey,
		"MAISON_STATE_DIR": dir,
	}
	before, stop := runMaison(t, "demo", env)
	cs := connect(t, before, e2eToken, "")
	lock := map[string]any{"name": "Front Door Lock"}
	answeredLink, answeredRef := propose(t, cs, "turn_off", lock)
	// Spelled apart: the same call again would find the request waiting.
	waitingLink, _ := propose(t, cs, "turn_off", map[string]any{"name": "Front Door Lock "})
	if shown, answered, body := answerPage(t, answeredLink, issuer, "approve"); shown != 200 || answered != 200 || !strings.Contains(body, "unlocked") {
		t.Fatalf("approval before the restart: page %d, answer %d: %.400s", shown, answered, body)
	}
	cs.Close()
	stop()

	after, _ := runMaison(t, "demo", env)
	cs = connect(t, after, e2eToken, "")
	if shown, answered, body := answerPage(t, answeredLink, issuer, "approve"); shown != http.StatusOK || answered != 0 || !strings.Contains(body, "was approved at") {
		t.Errorf("the link answered before the restart: page %d, answer %d: %.400s", shown, answered, body)
	}
	heard := demotest.Text(demotest.Call(t, cs, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": answeredRef}))
	if !strings.Contains(heard, "unlocked") {
		t.Errorf("the model asking after the restart hears: %s", heard)
	}
	if shown, answered, body := answerPage(t, waitingLink, issuer, "approve"); shown != 200 || answered != 200 || !strings.Contains(body, "unlocked") {
		t.Errorf("the link still waiting after the restart: page %d, answer %d: %.400s", shown, answered, body)
	}
	if shown, answered, _ := answerPage(t, waitingLink, issuer, "approve"); shown != http.StatusOK || answered != 0 {
		t.Errorf("the waiting link answered a second time: page %d, answer %d", shown, answered)
	}
}

// codeRE finds a confirmation code in a proposal.
var codeRE = regexp.MustCompile(`\bc-[a-z2-7]{64}\b`)

// Three replicas of maison serve, one Home Assistant, one Redis server: a
// confirmation code sent to all three at once is used once. With the
// server killed, sensitive actions are refused in words and pictures
// still come; started again, the code not used meanwhile works once.
func TestACodeIsUsedOnceAcrossThreeReplicas(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	house := demo.New(demo.Options{})
	ha := httptest.NewServer(house.Handler())
	t.Cleanup(ha.Close)
	var replicas []*mcp.ClientSession
	for range 3 {
		u, _ := runMaison(t, "serve", map[string]string{
			"MAISON_LISTEN": "127.0.0.1:0", "MAISON_HA_URL": ha.URL, "MAISON_HA_TOKEN": house.UserToken(),
			"MAISON_TOKEN": e2eToken, "MAISON_CONFIRM_KEY": e2eConfirmKey, "MAISON_STATE_URL": srv.URL,
		})
		replicas = append(replicas, connect(t, u, e2eToken, ""))
	}
	lock := map[string]any{"name": "Front Door Lock"}
	code := func() string {
		text := demotest.Text(demotest.Call(t, replicas[0], "turn_off", lock))
		c := codeRE.FindString(text)
		if c == "" {
			t.Fatalf("no confirmation code proposed: %s", text)
		}
		return c
	}
	redeem := func(cs *mcp.ClientSession, c string) *mcp.CallToolResult {
		return demotest.Call(t, cs, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": c})
	}
	for round := range 3 {
		c := code()
		var mu sync.Mutex
		var done []string
		var wg sync.WaitGroup
		for _, cs := range replicas {
			for range 2 {
				wg.Go(func() {
					if res := redeem(cs, c); !res.IsError {
						mu.Lock()
						done = append(done, demotest.Text(res))
						mu.Unlock()
					}
				})
			}
		}
		wg.Wait()
		if len(done) != 1 || !strings.Contains(done[0], "unlocked") {
			t.Fatalf("round %d: one code sent six times to three replicas acted %d times: %q", round, len(done), done)
		}
		house.SetState("lock.front_door", "locked", nil)
	}

	c := code()
	srv.Kill()
	res := redeem(replicas[1], c)
	if text := demotest.Text(res); !res.IsError || !strings.Contains(text, "cannot reach its memory of answers") || !strings.Contains(text, "Nothing was done") {
		t.Errorf("a code with the store down: %s", text)
	}
	if st, _, _ := house.State("lock.front_door"); st != "locked" {
		t.Errorf("with the store down the lock is %s", st)
	}
	if res := demotest.Call(t, replicas[2], "camera_snapshot", map[string]any{"camera": "garage"}); res.IsError {
		t.Errorf("a picture with the store down: %s", demotest.Text(res))
	}
	srv.Restart()
	if res := redeem(replicas[2], c); res.IsError || !strings.Contains(demotest.Text(res), "unlocked") {
		t.Errorf("the code not used while the store was down, once it is back: %s", demotest.Text(res))
	}
	if res := redeem(replicas[0], c); !res.IsError {
		t.Errorf("the same code again on another replica: %s", demotest.Text(res))
	}
}
