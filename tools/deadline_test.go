package tools_test

import (
	"strings"
	"testing"
	"time"

	"maison/bridge"
	"maison/demotest"
	"maison/homeassistant"
	"maison/internal/longtest"
)

// Every tool call has one deadline of its own, whatever Home Assistant's
// request timeout: a slow house is said to be slow within it, for reading
// tools and actions alike, and the next call works once the house is fast
// again.
func TestEveryCallHasOneDeadline(t *testing.T) {
	longtest.Only(t)
	r := demotest.New(t, demotest.Options{LazyFrames: true, Bridge: bridge.Config{
		CallBudget: 5 * time.Second,  // room for the healthy calls on a loaded machine
		LiveTTL:    time.Millisecond, // each call asks Home Assistant afresh
		HomeAssistant: func(c *homeassistant.Config) {
			c.RequestTimeout = time.Minute
		},
	}})
	if text, isErr := call(t, r.Session, "describe_house", nil); isErr {
		t.Fatalf("describe_house before the house is slow: %q", text)
	}
	// Slower than the call's deadline (5 s), but less than the three calls
	// below together: work a call leaves running in the slow house has
	// ended before the house is fast again, so the last call does not join
	// it. A moment's pause lets any request started before the house turned
	// slow end first, for the same reason.
	r.House.SetLatency(6 * time.Second)
	time.Sleep(300 * time.Millisecond)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"describe_house", nil},
		{"what_happened", map[string]any{"hours": 2}},
		{"turn_off", map[string]any{"name": "Kitchen Light"}},
	} {
		text, isErr := call(t, r.Session, c.tool, c.args)
		if !isErr || !strings.Contains(text, "slow") {
			t.Errorf("%s with Home Assistant slower than the call's deadline: want it said slow, got %q", c.tool, text)
		}
		// Cut before the action was sent, it says nothing was done; cut
		// after, that it may still have happened: never neither.
		if c.tool == "turn_off" && !strings.HasPrefix(text, "Nothing was done. ") && !strings.Contains(text, "may still have happened") {
			t.Errorf("turn_off cut by its deadline must say whether the action may have happened: %q", text)
		}
	}
	r.House.SetLatency(0)
	if text, isErr := call(t, r.Session, "describe_house", nil); isErr {
		t.Errorf("describe_house once the house is fast again: %q", text)
	}
}

// A name longer than anything a person says is refused before anything is
// matched against it, with words that say what to give instead; a name of
// ordinary length that matches nothing is still answered as before.
func TestArgumentsLongerThanAnyName(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{LazyFrames: true})
	long := strings.Repeat("a", 900_000)
	many := make([]any, 60)
	for i := range many {
		many[i] = "light"
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"describe_camera", map[string]any{"camera": long}},
		{"camera_snapshot", map[string]any{"camera": "Front Door", "region": long}},
		{"describe_house", map[string]any{"name": strings.Repeat("é", 201)}},
		{"turn_off", map[string]any{"name": long}},
		{"describe_house", map[string]any{"domain": many}},
	} {
		text, isErr := call(t, r.Session, c.tool, c.args)
		if !isErr || !strings.Contains(text, "longer than any name") || !strings.Contains(text, "nothing was done") {
			t.Errorf("%s with an argument longer than any name: got %q", c.tool, text)
		}
	}
	text, isErr := call(t, r.Session, "describe_camera", map[string]any{"camera": strings.Repeat("a", 200)})
	if !isErr || strings.Contains(text, "longer than any name") || !strings.Contains(text, "no camera called") {
		t.Errorf("describe_camera with a 200-character name that matches nothing: got %q", text)
	}
}
