package tools_test

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/approve"
	"maison/bridge"
	"maison/demo"
	"maison/demotest"
	"maison/internal/testkit"
	"maison/internal/webpage"
	"maison/tools"
	"maison/voice"
)

const pagePassword = "the password of this test house"

// passwordProver is the operator's proof with a password alone.
type passwordProver struct{}

func (passwordProver) AsksPassword() bool                        { return true }
func (passwordProver) AccessEmail(*http.Request) (string, error) { return "", nil }
func (passwordProver) ProveOperator(_ *http.Request, pw string) webpage.Proof {
	if pw != pagePassword {
		return webpage.Proof{WrongPassword: true, Left: 4}
	}
	return webpage.Proof{By: "operator"}
}

// approvalRig is the demo house behind maison with its approval page
// served, as maison serve does with a public URL.
type approvalRig struct {
	*demotest.Rig
	origin string
}

func newApprovalRig(t *testing.T, mode tools.Confirming, client *mcp.ClientOptions, version string) approvalRig {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	origin := "http://" + srv.Listener.Addr().String()
	r := demotest.New(t, demotest.Options{
		House: demo.Options{}, LazyFrames: true,
		Bridge: bridge.Config{ApprovalOrigin: origin, Confirming: mode},
		Client: client, ProtocolVersion: version,
	})
	srv.Config.Handler = r.Bridge.Approvals.Handler(passwordProver{}, r.Bridge.CarryOut, nil)
	srv.Start()
	t.Cleanup(srv.Close)
	return approvalRig{Rig: r, origin: origin}
}

var (
	linkRE = regexp.MustCompile(`https?://[^\s"]+/approve\?r=[A-Za-z0-9_.%-]+`)
	refRE  = regexp.MustCompile(`\ba-[a-z2-7]{16}\b`)
	formRE = regexp.MustCompile(`name="(r|b)" value="([^"]*)"`)
)

// callApproval calls a tool whose answer may carry an approval link: its
// first block is said aloud, so it must be speakable; the link comes apart.
func callApproval(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	parts, isErr := callBlocks(t, cs, name, args)
	if len(parts) == 0 {
		t.Fatalf("%s: no text", name)
	}
	if err := voice.Speakable(parts[0]); err != nil {
		t.Errorf("%s: the sentences are not speakable: %v", name, err)
	}
	return strings.Join(parts, " "), isErr
}

// approveOnThePage opens link as a person's browser does and answers with
// action and password; it returns the page's words after the answer.
func approveOnThePage(t *testing.T, link, action, password string) (int, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"action": {action}, "password": {password}}
	for _, m := range formRE.FindAllStringSubmatch(string(body), -1) {
		form.Set(m[1], strings.ReplaceAll(m[2], "&#43;", "+"))
	}
	u, _ := url.Parse(link)
	req, _ := http.NewRequest("POST", u.Scheme+"://"+u.Host+"/approve", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(resp.Body)
	return resp.StatusCode, strings.ReplaceAll(string(body), "&#34;", `"`)
}

// With the approval page, unlocking takes a person on the page: the model
// gets a link and a reference, a code does not unlock, the page's Approve
// does, and the model hears what Home Assistant did.
func TestUnlockWaitsForThePage(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, "", nil, "")
	unlock := map[string]any{"name": "Front Door Lock"}
	text, isErr := callApproval(t, r.Session, "turn_off", unlock)
	link, ref := linkRE.FindString(text), refRE.FindString(text)
	if isErr || link == "" || ref == "" || !strings.HasPrefix(link, r.origin+"/approve?r=") || !strings.Contains(text, "The approval link is in the text of my answer, not sent to your phone: open it from this conversation, or say cancel.") {
		t.Fatalf("the proposal: %q", text)
	}
	locked := func() string { st, _, _ := r.House.State("lock.front_door"); return st }
	// A code, any code, is refused, and the page offered anew.
	text, _ = callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": "c-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
	if !strings.Contains(text, "codes are not accepted") || linkRE.FindString(text) == "" || locked() != "locked" {
		t.Errorf("a code: %q, lock %s", text, locked())
	}
	// The reference as a code: not a yes either.
	with := map[string]any{"name": "Front Door Lock", "confirmation": ref}
	if text, _ = callApproval(t, r.Session, "turn_off", with); !strings.Contains(text, "has not answered") || locked() != "locked" {
		t.Errorf("waiting: %q, lock %s", text, locked())
	}
	status, page := approveOnThePage(t, link, "approve", pagePassword)
	if status != 200 || !strings.Contains(page, "Home Assistant says") || locked() != "unlocked" {
		t.Fatalf("the page: %d %s; lock %s", status, page, locked())
	}
	if text, isErr = callApproval(t, r.Session, "turn_off", with); isErr || !strings.Contains(text, "approved") || !strings.Contains(text, "unlocked") {
		t.Errorf("the outcome: %q (error %v)", text, isErr)
	}
	// Passed back with another action, it tells nothing.
	other := map[string]any{"name": "Garage Door", "confirmation": ref}
	if text, _ = callApproval(t, r.Session, "turn_on", other); !strings.Contains(text, "cannot be used") || strings.Contains(text, "unlocked") {
		t.Errorf("the reference with another action: %q", text)
	}
}

// A client that can open a page for the person (URL-mode elicitation) is
// asked to open maison's: the person approves there, and the call that
// follows says what Home Assistant did. A dismissal declines.
func TestUnlockOpensThePageInTheClient(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		version string
		accept  bool
	}{{"2026-07-28", true}, {"2026-07-28", false}, {"2025-11-25", true}, {"2025-11-25", false}} {
		accept := c.accept
		var opened []*mcp.ElicitParams
		opts := &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				opened = append(opened, req.Params)
				if !accept {
					return &mcp.ElicitResult{Action: "decline"}, nil
				}
				approveOnThePage(t, req.Params.URL, "approve", pagePassword) // the person, in the page the client opened
				return &mcp.ElicitResult{Action: "accept"}, nil
			},
		}
		r := newApprovalRig(t, "", opts, c.version)
		text, isErr := callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock"})
		st, _, _ := r.House.State("lock.front_door")
		if len(opened) != 1 || opened[0].Mode != "url" || !strings.HasPrefix(opened[0].URL, r.origin+"/approve?r=") || !strings.Contains(opened[0].Message, "unlock the “Front Door Lock”") {
			t.Fatalf("%s, accept %v: the client was asked %+v", c.version, accept, opened)
		}
		switch {
		case accept && (isErr || !strings.Contains(text, "approved") || st != "unlocked"):
			t.Errorf("%s approved: %q (error %v), lock %s", c.version, text, isErr, st)
		case !accept && (!isErr || !strings.Contains(text, "declined") || st != "locked"):
			t.Errorf("%s dismissed: %q (error %v), lock %s", c.version, text, isErr, st)
		}
		if !accept {
			status, _ := approveOnThePage(t, opened[0].URL, "approve", pagePassword)
			if st, _, _ := r.House.State("lock.front_door"); status == 200 || st != "locked" {
				t.Errorf("the page approved after the person declined in the client: %d, lock %s", status, st)
			}
		}
	}
}

// MAISON_CONFIRM=both keeps the client's own question and the code beside
// the page; code keeps them alone.
func TestBothAcceptsTheCode(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, tools.ByEither, nil, "")
	text, _ := callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock"})
	if linkRE.FindString(text) == "" {
		t.Fatalf("both: no link in %q", text)
	}
	r = newApprovalRig(t, tools.ByCode, nil, "")
	text, _ = callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock"})
	code := regexp.MustCompile(`c-[a-z0-9]{20,}`).FindString(text)
	if code == "" || linkRE.FindString(text) != "" {
		t.Fatalf("code: %q", text)
	}
	if text, isErr := callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": code}); isErr {
		t.Errorf("the code: %q", text)
	}
}

// Where only the page counts, a client's own yes is no yes: a client that
// asks in a form is not asked to, and an answer it makes up (the state and
// responses of a question never put) unlocks nothing.
func TestAClientsOwnYesDoesNotUnlock(t *testing.T) {
	t.Parallel()
	var forms int
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		forms++
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}}
	r := newApprovalRig(t, "", opts, "2026-07-28")
	text, _ := callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock"})
	if forms != 0 || linkRE.FindString(text) == "" {
		t.Errorf("a client that asks in forms: asked %d times, answer %q", forms, text)
	}
	// The link is sealed: nothing of the action reads in it, the code it
	// holds least of all.
	u, _ := url.Parse(linkRE.FindString(text))
	if raw, _ := base64.RawURLEncoding.DecodeString(u.Query().Get("r")); strings.Contains(string(raw), "Front Door") || strings.Contains(string(raw), `"cc"`) {
		t.Errorf("the link's reference reads: %s", raw)
	}
	// The code the link holds, had it leaked, as the made-up answer's
	// state, as a confirmation, in either mode that has the page.
	var held struct{ Code string }
	for _, mode := range []tools.Confirming{tools.ByApproval, tools.ByEither} {
		r := newApprovalRig(t, mode, nil, "2026-07-28") // no question of its own: the page is offered
		text, _ := callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock"})
		if held.Code = r.Bridge.Approvals.Outcome("local", refRE.FindString(text)).For.Code; !strings.HasPrefix(held.Code, "c-") {
			t.Fatalf("no code held for the reference in %q", text)
		}
		for _, p := range []*mcp.CallToolParams{
			{Name: "turn_off", Arguments: map[string]any{"name": "Front Door Lock"}, RequestState: held.Code,
				InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}},
			{Name: "turn_off", Arguments: map[string]any{"name": "Front Door Lock", "confirmation": held.Code}},
		} {
			res, err := r.Session.CallTool(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			if st, _, _ := r.House.State("lock.front_door"); st != "locked" || !res.IsError {
				t.Errorf("%s: a made-up yes with the link's code: lock %s, answer %+v", mode, st, res.Content[0])
			}
		}
	}
}

// A sensitive action mixed with other devices (a whole room with its lock)
// is refused in words naming every device the call reaches, so no page
// shows only part of what approving would do; nothing changes.
func TestMixedSensitiveCallIsRefusedNamingEveryDevice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang voice.Lang
		says string
	}{{voice.English, "Nothing was done"}, {voice.French, "Rien n'a été fait"}} {
		for _, mode := range []tools.Confirming{tools.ByApproval, tools.ByCode} {
			r := demotest.New(t, demotest.Options{LazyFrames: true,
				Bridge: bridge.Config{ApprovalOrigin: "http://127.0.0.1:1", Confirming: mode, Lang: c.lang}})
			// The demo's entrance: the lock, the camera and its person sensor.
			reached := map[string]string{"lock.front_door": "Front Door Lock", "camera.front_door": "Front Door", "binary_sensor.front_door_person": "Front Door Person"}
			before := map[string]string{}
			for id := range reached {
				before[id], _, _ = r.House.State(id)
			}
			text, isErr := callApproval(t, r.Session, "turn_off", map[string]any{"area": "Entrance"})
			if !isErr || !strings.HasPrefix(text, c.says) || linkRE.MatchString(text) || refRE.MatchString(text) {
				t.Errorf("%s %s: the mixed call was not refused: %q", c.lang, mode, text)
			} else if testing.Verbose() {
				t.Log(text)
			}
			for _, n := range reached {
				if !strings.Contains(text, "“"+n+"”") && !strings.Contains(text, "« "+n+" »") {
					t.Errorf("%s %s: the refusal does not name %q: %q", c.lang, mode, n, text)
				}
			}
			for id, st := range before {
				if now, _, _ := r.House.State(id); now != st {
					t.Errorf("%s %s: %s went from %s to %s", c.lang, mode, id, st, now)
				}
			}
		}
	}
}

// Past the approval requests one app may have waiting, the answer says so,
// how long until the first expires and what to do, not that Home
// Assistant could not be reached.
func TestTooManyApprovalsWaitingSaysSo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang       voice.Lang
		says, wait string
	}{{voice.English, "approval requests waiting", "the first in 5 min"}, {voice.French, "demandes d'approbation en attente", "la première dans 5 min"}} {
		r := demotest.New(t, demotest.Options{LazyFrames: true,
			Bridge: bridge.Config{ApprovalOrigin: "http://127.0.0.1:1", Lang: c.lang}})
		// Each spelled apart (Home Assistant strips the spaces): the same
		// call asked again is the request already waiting, not a new one.
		unlock := func(i int) map[string]any { return map[string]any{"name": "Front Door Lock" + strings.Repeat(" ", i)} }
		first := ""
		for i := range approve.MaxWaitingPerClient {
			text, _ := callApproval(t, r.Session, "turn_off", unlock(i))
			if !linkRE.MatchString(text) {
				t.Fatalf("%s: a request within the limit: %q", c.lang, text)
			}
			if again, _ := callApproval(t, r.Session, "turn_off", unlock(i)); linkRE.FindString(again) != linkRE.FindString(text) {
				t.Errorf("%s: the same call asked again made another request: %q", c.lang, again)
			}
			if first == "" {
				first = linkRE.FindString(text)
			}
		}
		text, isErr := callApproval(t, r.Session, "turn_off", unlock(approve.MaxWaitingPerClient))
		if !isErr || !strings.Contains(text, c.says) || !strings.Contains(text, c.wait) || strings.Contains(text, "Home Assistant just now") || strings.Contains(text, "joindre Home Assistant") || linkRE.MatchString(text) {
			t.Errorf("%s: past the limit: %q", c.lang, text)
		}
	}
}

// The audit line of a sensitive call says what it came to: the model
// checking on a request, or sending a code that does not count, is never
// written as a confirmed call that went well.
func TestTheAuditLineSaysWhatASensitiveCallCameTo(t *testing.T) {
	t.Parallel()
	var logs testkit.Buffer
	r := demotest.New(t, demotest.Options{LazyFrames: true,
		Bridge: bridge.Config{ApprovalOrigin: "http://127.0.0.1:1", Logger: slog.New(slog.NewTextHandler(&logs, nil))}})
	unlock := map[string]any{"name": "Front Door Lock"}
	text, _ := callApproval(t, r.Session, "turn_off", unlock)
	ref := refRE.FindString(text)
	callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": "c-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
	callApproval(t, r.Session, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": ref})
	// "all" in the lock's room is the same unlock, and says so.
	callApproval(t, r.Session, "turn_off", map[string]any{"name": "all", "area": "Entrance", "domain": []string{"lock"}})
	var steps []string
	for _, line := range strings.Split(logs.String(), "\n") {
		if !strings.Contains(line, `msg="tool call"`) || !strings.Contains(line, "tool=turn_off") {
			continue
		}
		if strings.Contains(line, "confirmed=") {
			t.Errorf("a line says confirmed: %s", line)
		}
		step, _, _ := strings.Cut(line[strings.Index(line, "sensitive=")+len("sensitive="):], " ")
		outcome, _, _ := strings.Cut(line[strings.Index(line, "outcome=")+len("outcome="):], " took")
		steps = append(steps, step+" "+outcome)
	}
	want := []string{"proposal ok", `refused "refused or failed"`, "checked ok", "proposal ok"}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("the audit lines say %q, want %q:\n%s", steps, want, logs.String())
	}
}
