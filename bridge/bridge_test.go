package bridge_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/demo"
	"maison/demotest"
	"maison/homeassistant"
)

// With Demo, the bridge starts a demo house on loopback and talks to it
// over the wire; Close stops both.
func TestStartServesTheDemoHouse(t *testing.T) {
	t.Parallel()
	b, err := bridge.Start(t.Context(), bridge.Config{Demo: &demo.Options{ToolNaming: demo.NamingPrefixed}})
	if err != nil {
		t.Fatal(err)
	}
	if b.House == nil || b.HA.User().Name != "Maison" || b.Server == nil {
		t.Fatalf("the parts: house %v, user %q, server %v", b.House, b.HA.User().Name, b.Server)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := b.Server.Connect(t.Context(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bridge-test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Porch Light"}})
	if err != nil || res.IsError {
		t.Fatalf("turn_on through the demo house's prefixed tools: %+v %v", res, err)
	}
	if st, _, _ := b.House.State("light.porch"); st != "on" {
		t.Errorf("the porch light is %s", st)
	}
	cs.Close()
	b.Close()
	if resp, err := http.Get(b.URL + "/api/"); err == nil {
		resp.Body.Close()
		t.Errorf("the demo house still answers after Close: %d", resp.StatusCode)
	}
}

// An administrator's token is refused at once, waiting or not: Home
// Assistant bans addresses after failed logins.
func TestStartRefusesAnAdminTokenAtOnce(t *testing.T) {
	t.Parallel()
	_, err := bridge.Start(t.Context(), bridge.Config{Demo: &demo.Options{}, DemoAdmin: true, ReachLater: true})
	var he *homeassistant.Error
	if !errors.As(err, &he) || he.Kind != homeassistant.KindAdminToken {
		t.Errorf("an admin token: %v", err)
	}
}

// Without ReachLater, a Home Assistant that is down when maison starts is
// Start's error, said at once (maison check).
func TestStartWithoutReachLaterSaysTheFailure(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetDown(true)
	if _, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: house.UserToken(), NoTools: true}); err == nil {
		t.Fatal("Home Assistant down, without ReachLater: started")
	}
}

// session connects an MCP client to the bridge's server, and returns with
// it a channel that receives each tools/list_changed notification.
func session(t *testing.T, b *bridge.Bridge) (*mcp.ClientSession, <-chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 8)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := b.Server.Connect(t.Context(), st, nil); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bridge-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := c.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, changed
}

// waitChanged waits for a tools/list_changed notification.
func waitChanged(t *testing.T, changed <-chan struct{}, why string) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(time.Minute): // a safety net against a hung test, not a timing
		t.Fatalf("no tools/list_changed after %s", why)
	}
}

// testWait is how long Start waits for Home Assistant's first answer in
// these tests, rather than two seconds: what waits longer is slow.
const testWait = 100 * time.Millisecond

// startWhileDown starts a bridge with ReachLater in front of a demo house
// that is down.
func startWhileDown(t *testing.T) (*demotest.House, *bridge.Bridge) {
	t.Helper()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetDown(true)
	b, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: house.UserToken(), ReachLater: true, FirstWait: testWait})
	if err != nil {
		t.Fatalf("Home Assistant down, with ReachLater: %v", err)
	}
	return house, b
}

var ownTools = []string{"camera_overview", "camera_snapshot", "describe_camera", "list_cameras", "what_happened"}

// With ReachLater, a Home Assistant that is down when maison starts does
// not keep clients waiting: the server answers at once with maison's own
// tools, which say Home Assistant is out of reach, and the house's actions
// join the list once it answers, the client being told.
func TestStartServesAtOnceWhileHomeAssistantIsDown(t *testing.T) {
	t.Parallel()
	house, b := startWhileDown(t)
	defer b.Close()
	cs, changed := session(t, b)
	if got := demotest.ToolNames(t, cs); !slices.Equal(got, ownTools) {
		t.Errorf("tools while Home Assistant is down: %v, want %v", got, ownTools)
	}
	text, isErr := demotest.CallText(t, cs, "list_cameras", nil)
	if !isErr || !strings.Contains(text, "Home Assistant") || strings.Contains(text, "no camera") {
		t.Errorf("list_cameras while Home Assistant is down: error %v, %q", isErr, text)
	}
	if text, isErr := demotest.CallText(t, cs, "turn_on", map[string]any{"name": "Porch Light"}); !isErr || !strings.HasPrefix(text, "Nothing was done. Home Assistant is restarting") {
		t.Errorf("turn_on before Home Assistant listed its Assist tools: error %v, %q", isErr, text)
	}
	if text, isErr := demotest.CallText(t, cs, "what_happened", nil); !isErr || !strings.Contains(text, "Home Assistant is restarting") {
		t.Errorf("what_happened while Home Assistant is down: error %v, %q", isErr, text)
	}
	if st, _, _ := house.State("light.porch"); st != "off" {
		t.Errorf("the porch light is %s", st)
	}
	house.SetDown(false)
	waitChanged(t, changed, "Home Assistant came back")
	if got := demotest.ToolNames(t, cs); !slices.Contains(got, "turn_on") || !slices.Contains(got, "describe_house") {
		t.Errorf("tools once Home Assistant answers: %v", got)
	}
	if text, isErr := demotest.CallText(t, cs, "turn_on", map[string]any{"name": "Porch Light"}); isErr {
		t.Errorf("turn_on once Home Assistant answers: %q", text)
	}
	if s, ok := b.ToolScope("turn_on"); !ok || s != "house.control" {
		t.Errorf("the door's scope of turn_on: %q %v", s, ok)
	}
	if b.Err() != nil {
		t.Errorf("Err: %v", b.Err())
	}
}

// Home Assistant reached but its Assist endpoint still loading (404 after
// a restart): the server answers at once, and the actions join once it
// has loaded.
func TestStartServesWhileAssistLoads(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetMCPServerLoaded(false)
	b, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: house.UserToken(), ReachLater: true, FirstWait: testWait})
	if err != nil {
		t.Fatalf("Assist loading, with ReachLater: %v", err)
	}
	defer b.Close()
	cs, changed := session(t, b)
	if got := demotest.ToolNames(t, cs); !slices.Equal(got, ownTools) {
		t.Errorf("tools while Assist loads: %v, want %v", got, ownTools)
	}
	// Connected (the first contact may outlast Start's wait on a
	// loaded machine), Home Assistant is said to be loading.
	if !b.HA.WaitConnected(t.Context(), time.Minute) {
		t.Fatal("the websocket never connected")
	}
	if text, isErr := demotest.CallText(t, cs, "turn_on", map[string]any{"name": "Porch Light"}); !isErr || !strings.Contains(text, "Nothing was done. Home Assistant is still loading") {
		t.Errorf("turn_on while Assist loads: error %v, %q", isErr, text)
	}
	house.SetMCPServerLoaded(true)
	waitChanged(t, changed, "the Assist endpoint loaded")
	if got := demotest.ToolNames(t, cs); !slices.Contains(got, "turn_off") {
		t.Errorf("tools once Assist has loaded: %v", got)
	}
}

// A token refused when Home Assistant is first reached after start is not
// retried: Failed closes, and Err says why, for the command to stop.
func TestStartFailsWhenRefusedLater(t *testing.T) {
	t.Parallel()
	house, b := startWhileDown(t)
	defer b.Close()
	house.RevokeUserToken()
	house.SetDown(false)
	select {
	case <-b.Failed():
	case <-time.After(time.Minute):
		t.Fatal("a refused token did not end the bridge")
	}
	if !errors.Is(b.Err(), homeassistant.KindAuth) {
		t.Errorf("Err: %v, want a refused token", b.Err())
	}
	if n := house.FailedLogins(); n != 1 {
		t.Errorf("%d failed logins, want 1: a refused token is never retried", n)
	}
}

// Close while Home Assistant is still out of reach stops reaching for it.
func TestCloseStopsReaching(t *testing.T) {
	t.Parallel()
	house, b := startWhileDown(t)
	b.Close() // returns once reaching has stopped
	house.SetDown(false)
	time.Sleep(2 * time.Second) // longer than the first retry's wait: a reach still running would connect
	if st := b.HA.Status(); st.Connected {
		t.Errorf("connected after Close: %+v", st)
	}
}

// A Home Assistant address that accepts connections and never answers (a
// wrong port, a stuck proxy) does not keep a client waiting either: Start
// serves after a moment, and the tools say Home Assistant does not answer.
func TestStartServesWhileTheAddressIsSilent(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	b, err := bridge.Start(t.Context(), bridge.Config{URL: "http://" + ln.Addr().String(), Token: "a-token-long-enough-to-look-real", ReachLater: true, FirstWait: testWait, CallBudget: time.Second})
	if err != nil {
		t.Fatalf("a silent address, with ReachLater: %v", err)
	}
	defer b.Close()
	cs, _ := session(t, b)
	if got := demotest.ToolNames(t, cs); !slices.Equal(got, ownTools) {
		t.Errorf("tools while the address is silent: %v, want %v", got, ownTools)
	}
	if text, isErr := demotest.CallText(t, cs, "list_cameras", nil); !isErr || !strings.Contains(text, "Home Assistant") {
		t.Errorf("list_cameras while the address is silent: error %v, %q", isErr, text)
	}
}

// A token Home Assistant refuses costs one failed login per start, even
// when tools are called before Home Assistant first answers: no request
// presents the token over HTTP before the websocket has accepted it.
func TestRefusedTokenCostsOneFailedLogin(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetLatency(time.Second) // slower than Start waits for
	b, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: "a-token-home-assistant-never-issued", ReachLater: true, FirstWait: testWait})
	if err != nil {
		t.Fatalf("a slow Home Assistant, with ReachLater: %v", err)
	}
	defer b.Close()
	cs, _ := session(t, b)
	for tool, args := range map[string]map[string]any{
		"list_cameras": nil, "camera_snapshot": {"camera": "garage"}, "camera_overview": nil,
	} {
		if text, isErr := demotest.CallText(t, cs, tool, args); !isErr || !strings.Contains(text, "Home Assistant") {
			t.Errorf("%s before Home Assistant first answers: error %v, %q", tool, isErr, text)
		}
	}
	select {
	case <-b.Failed():
	case <-time.After(time.Minute):
		t.Fatal("a refused token did not end the bridge")
	}
	if n := house.FailedLogins(); n != 1 {
		t.Errorf("%d failed logins, want 1", n)
	}
}

// Home Assistant answering over HTTP while maison's websocket is not
// connected yet (the gap after a restart, before maison's next attempt):
// the tools say Home Assistant is not reachable yet, never that a camera's
// name is unclear nor that nothing happened. The gap is held open by
// refusing the websocket alone.
func TestTheGapBeforeReconnecting(t *testing.T) {
	t.Parallel()
	var wsDown atomic.Bool
	wsDown.Store(true)
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true, Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if wsDown.Load() && r.URL.Path == "/api/websocket" {
				http.Error(w, "", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	b, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: house.UserToken(), ReachLater: true, FirstWait: testWait})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cs, changed := session(t, b)
	for tool, args := range map[string]map[string]any{
		"list_cameras": nil, "camera_snapshot": {"camera": "front door"}, "describe_camera": {"camera": "porch"},
		"camera_overview": nil, "what_happened": nil,
	} {
		text, isErr := demotest.CallText(t, cs, tool, args)
		if !isErr || !strings.Contains(text, "Home Assistant is restarting") {
			t.Errorf("%s in the gap: error %v, %q", tool, isErr, text)
		}
	}
	if n := house.CameraFetches("camera.front_door"); n != 0 {
		t.Errorf("the camera was fetched %d times with the token unverified", n)
	}
	wsDown.Store(false)
	waitChanged(t, changed, "the websocket connected")
	if text, isErr := demotest.CallText(t, cs, "list_cameras", nil); isErr || !strings.Contains(text, "Front Door") {
		t.Errorf("list_cameras once connected: error %v, %q", isErr, text)
	}
}

// A session lost to a blip of a healthy house: what_happened, which reads
// over the websocket, waits the second it takes to come back and answers,
// rather than say Home Assistant cannot be reached.
func TestWhatHappenedAcrossABlip(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	b, err := bridge.Start(t.Context(), bridge.Config{URL: house.URL, Token: house.UserToken(), ReachLater: true,
		HomeAssistant: func(c *homeassistant.Config) {
			c.ReconnectMin, c.ReconnectMax = 800*time.Millisecond, time.Second
			c.ReconnectWait = time.Minute // the answer waits for the session; how long it takes is the machine's
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cs, _ := session(t, b)
	if !b.HA.WaitConnected(t.Context(), time.Minute) { // the first contact may outlast Start's wait
		t.Fatal("the websocket never connected")
	}
	house.DropConnections()
	for {
		changed := b.HA.Changed()
		if !b.HA.Status().Connected {
			break
		}
		<-changed
	}
	if text, isErr := demotest.CallText(t, cs, "what_happened", nil); isErr {
		t.Errorf("what_happened across a blip: %q", text)
	}
}

// slowTransport holds every request a while before sending it, as a loaded
// machine does.
type slowTransport struct{ delay time.Duration }

func (s slowTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case <-time.After(s.delay):
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// The demo house runs in maison's own process: it cannot be away at
// start, so Start waits for it however slow the machine, and serves the
// whole house from the first request (maison demo, even with ReachLater).
func TestStartWaitsForTheDemoHouseHoweverSlow(t *testing.T) {
	t.Parallel()
	b, err := bridge.Start(t.Context(), bridge.Config{
		Demo: &demo.Options{}, ReachLater: true, FirstWait: testWait,
		HomeAssistant: func(c *homeassistant.Config) {
			c.HTTPClient = &http.Client{Transport: slowTransport{delay: 5 * testWait}} // slower than Start waits for
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cs, _ := session(t, b)
	if names := demotest.ToolNames(t, cs); !slices.Contains(names, "turn_on") {
		t.Errorf("the demo house, slow to answer: the first list is %v, without the house's actions", names)
	}
}
