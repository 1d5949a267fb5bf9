package homeassistant_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"maison/demo"
	"maison/demotest"
	"maison/homeassistant"
)

// The Assist endpoint as Home Assistant really serves it, produced by the
// demo on demand: loading after a restart or during discovery, and a call
// cut at Home Assistant's own limit.

func TestAssistEndpointLoadingAfterARestart(t *testing.T) {
	t.Parallel()
	f := newHouse(t, demo.NamingPrefixed)
	c := f.client(t, f.house.UserToken(), func(cfg *homeassistant.Config) { cfg.AssistGrace = 300 * time.Millisecond })
	if err := c.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AssistTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.house.SetMCPServerLoaded(false)
	_, err := c.CallAssist(t.Context(), "homeassistant__GetLiveContext", nil)
	e := asError(t, err)
	if e.Kind != homeassistant.KindAssistLoading {
		t.Fatalf("a 404 right after a restart: %v", err)
	}
	time.Sleep(400 * time.Millisecond)
	_, err = c.CallAssist(t.Context(), "homeassistant__GetLiveContext", nil)
	if kind(err) != homeassistant.KindNoAssist {
		t.Fatalf("a 404 that lasts: %v, want KindNoAssist", err)
	}
	f.house.SetMCPServerLoaded(true)
	if _, err := c.CallAssist(t.Context(), "homeassistant__GetLiveContext", nil); err != nil {
		t.Fatalf("loaded again: %v", err)
	}
	// A new 404 streak starts its grace afresh.
	f.house.SetMCPServerLoaded(false)
	if _, err := c.CallAssist(t.Context(), "intent__HassTurnOn", map[string]any{"name": "Porch Light"}); kind(err) != homeassistant.KindAssistLoading {
		t.Errorf("a new restart: %v", err)
	}
}

func TestAssistCallCutAtHomeAssistantsLimit(t *testing.T) {
	t.Parallel()
	f := newHouse(t, demo.NamingPlain)
	c := f.connected(t)
	f.house.SetAssistStall(50 * time.Millisecond)
	_, err := c.CallAssist(t.Context(), "intent__HassTurnOn", map[string]any{"name": "Porch Light"})
	e := asError(t, err)
	if e.Kind != homeassistant.KindServerError || e.Status != 500 {
		t.Fatalf("a call cut at Home Assistant's limit: %v, want KindServerError", err)
	}
	if st, _, _ := f.house.State("light.porch"); st != "on" {
		t.Fatalf("the demo should have acted before the cut: %s", st)
	}
}

// The integration loading between the two requests of discovery, as a
// restarting Home Assistant's does: /api/mcp/assist answers 404, then
// /api/mcp, which appears with it, answers 401 (administrators only). That
// is no user refused for good. Connected, maison knows the version offers
// /api/mcp/assist and does not ask /api/mcp at all (a 401 there counts as a
// failed login); not connected, it asks /api/mcp/assist again.
func TestAssistEndpointLoadsDuringDiscovery(t *testing.T) {
	t.Parallel()
	for _, connect := range []bool{true, false} {
		var house *demo.House
		var once sync.Once
		h := demotest.NewHouse(t, demotest.Options{LazyFrames: true, Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r)
				if r.URL.Path == "/api/mcp/assist" {
					once.Do(func() { house.SetMCPServerLoaded(true) }) // loaded just after the first 404
				}
			})
		}})
		house = h.House
		house.SetMCPServerLoaded(false)
		f := &fixture{house: h.House, url: h.URL, hits: &counter{}}
		c := f.client(t, f.house.UserToken())
		if connect {
			if err := c.Connect(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		tools, err := c.AssistTools(t.Context())
		if connect && kind(err) == homeassistant.KindAssistLoading {
			tools, err = c.AssistTools(t.Context()) // asked again, as maison does
		}
		if err != nil || len(tools) == 0 {
			t.Errorf("connected %v: Assist tools with the integration loading during discovery: %d tools, %v", connect, len(tools), err)
		}
		if n := house.FailedLogins(); connect && n != 0 {
			t.Errorf("connected: %d failed logins, want none", n)
		}
	}
}
