package bridge_test

import (
	"errors"
	"net/http"
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
	_, err := bridge.Start(t.Context(), bridge.Config{Demo: &demo.Options{}, DemoAdmin: true, Wait: true})
	var he *homeassistant.Error
	if !errors.As(err, &he) || he.Kind != homeassistant.KindAdminToken {
		t.Errorf("an admin token: %v", err)
	}
}

// With Wait, a Home Assistant that is down when maison starts is waited
// for; without, the failure is said at once (maison check).
func TestStartWaitsForHomeAssistant(t *testing.T) {
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	cfg := bridge.Config{URL: house.URL, Token: house.UserToken(), NoTools: true}
	house.SetDown(true)
	if _, err := bridge.Start(t.Context(), cfg); err == nil {
		t.Fatal("Home Assistant down, not waiting: started")
	}
	cfg.Wait = true
	go func() {
		time.Sleep(300 * time.Millisecond)
		house.SetDown(false)
	}()
	b, err := bridge.Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("waiting for Home Assistant: %v", err)
	}
	b.Close()
}
