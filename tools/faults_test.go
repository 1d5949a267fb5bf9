package tools_test

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/demo"
	"maison/homeassistant"
	"maison/internal/longtest"
)

// faultySession is a rig tuned to recover fast, returning the client too so
// its cache can be compared with the house.
func faultySession(t *testing.T) (*demo.House, *homeassistant.Client, *mcp.ClientSession) {
	t.Helper()
	r := newRig(t, rigOptions{
		ha: func(c *homeassistant.Config) {
			c.ReconnectMin, c.ReconnectMax = 100*time.Millisecond, 500*time.Millisecond
			c.RequestTimeout = 5 * time.Second // room for the healthy calls on a loaded machine; the slow house takes 10 s
		},
		liveTTL: time.Nanosecond, // always ask: the test changes the house under it
		camera:  func(c *camera.Config) { c.MaxAge = time.Nanosecond },
	})
	return r.house, r.ha, r.cs
}

// settled waits until the client is connected and its cache says what the
// house says, or fails after a generous bound (this is not a timing assertion).
func settled(t *testing.T, house *demo.House, ha *homeassistant.Client, want int) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if ha.Status().Connected && sameAsHouse(house, ha) == "" && len(ha.States()) == want {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("cache never matched the house: %s (connected %v, %d entities, want %d)", sameAsHouse(house, ha), ha.Status().Connected, len(ha.States()), want)
		case <-ha.Changed():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func sameAsHouse(house *demo.House, ha *homeassistant.Client) string {
	for _, st := range ha.States() {
		s, _, ok := house.State(st.EntityID)
		if !ok {
			return st.EntityID + " is gone from the house but not from the cache"
		}
		if s != st.State {
			return st.EntityID + " is " + s + " in the house but " + st.State + " in the cache"
		}
	}
	return ""
}

func TestFaultsAreSurvivedAndSaid(t *testing.T) {
	longtest.Only(t)
	house, ha, cs := faultySession(t)
	total := len(ha.States())

	// The websocket drops mid-stream: answers go on, the cache catches up.
	house.DropConnections()
	house.SetState("light.porch", "on", nil)
	if text, isErr := call(t, cs, "describe_house", nil); isErr {
		t.Errorf("describe_house right after a dropped websocket: %q", text)
	}
	settled(t, house, ha, total)

	// Home Assistant restarts: down for five seconds, back with changed states.
	house.SetDown(true)
	text, isErr := call(t, cs, "describe_house", nil)
	if !isErr || !strings.Contains(text, "Home Assistant is restarting") && !strings.Contains(text, "I cannot reach Home Assistant") {
		t.Errorf("describe_house while Home Assistant is down: %q", text)
	}
	text, isErr = call(t, cs, "camera_snapshot", map[string]any{"camera": "garage"})
	if !isErr || !strings.Contains(text, "Home Assistant") {
		t.Errorf("camera_snapshot while Home Assistant is down: %q", text)
	}
	house.SetStates(demo.StateChange{EntityID: "lock.front_door", State: "unlocked"}, demo.StateChange{EntityID: "light.kitchen", State: "off"})
	house.Remove("sensor.shed_power")
	time.Sleep(5 * time.Second)
	house.SetDown(false)
	settled(t, house, ha, total-1)
	text, isErr = call(t, cs, "describe_house", nil)
	if first, _, _ := strings.Cut(text, ". "); isErr || !strings.Contains(first, "the “Front Door Lock” is not locked") {
		t.Errorf("describe_house after the restart should lead with the unlocked door: %q", text)
	}

	// An upgrade renames the tools: the stable names keep working.
	house.SetToolNaming(demo.NamingPrefixed)
	if text, isErr := call(t, cs, "turn_on", map[string]any{"name": "Kitchen Light"}); isErr || text != "I turned on the “Kitchen Light”." {
		t.Errorf("turn_on after the tools were renamed: %q", text)
	}

	// Home Assistant answers slowly.
	house.SetLatency(10 * time.Second)
	text, isErr = call(t, cs, "turn_off", map[string]any{"name": "Kitchen Light"})
	if !isErr || !strings.Contains(text, "slow to answer") {
		t.Errorf("turn_off with a slow Home Assistant: %q", text)
	}
	house.SetLatency(0)

	// The token is revoked: said plainly, and never retried into a ban.
	before := house.FailedLogins()
	house.RevokeUserToken()
	text, isErr = call(t, cs, "describe_house", nil)
	for range 3 {
		text, isErr = call(t, cs, "turn_on", map[string]any{"name": "Porch Light"})
	}
	if !isErr || !strings.Contains(text, "no longer accepts my access key") {
		t.Errorf("answer after the token was revoked: %q", text)
	}
	time.Sleep(time.Second) // room for a retry storm, were there one
	if n := house.FailedLogins() - before; n > 2 {
		t.Errorf("the revoked token cost %d failed logins; it must not be retried", n)
	}
}
