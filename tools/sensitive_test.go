package tools_test

// Sensitive actions (unlock, open, disarm) ask the person first, whatever
// the name, the slot's shape or the tool that carries them: each test
// states the promise and tries to break it against the demo Home Assistant.

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
	"maison/demotest"
	"maison/homeassistant"
)

// Promise 3: an exposed lock whose name is shaped like the entity id of
// another exposed entity. maison looks the name up as an entity id, swaps in
// that other entity's name for its sensitive check, sees only a light, and
// sends the call unchanged: Home Assistant matches the lock by its name and
// unlocks it. No confirmation is ever asked.
func TestEntityIDShapedNameUnlocksWithoutConfirmation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label string
		lock  demo.Entity
		args  map[string]any
	}{
		{"name", demo.Entity{ID: "lock.side_gate", Name: "light.porch", Area: "Entrance", State: "locked", Exposed: true},
			map[string]any{"name": "light.porch"}},
		{"name in another case", demo.Entity{ID: "lock.side_gate", Name: "Light.Porch", Area: "Entrance", State: "locked", Exposed: true},
			map[string]any{"name": "LIGHT.PORCH"}},
		{"alias", demo.Entity{ID: "lock.side_gate", Name: "Side Entry", Aliases: []string{"light.kitchen"}, Area: "Entrance", State: "locked", Exposed: true},
			map[string]any{"name": "light.kitchen"}},
		// Real Home Assistant also takes an entity id as a name; with the
		// lock's own area it is the only one left, here as in the demo.
		{"name and area", demo.Entity{ID: "lock.side_gate", Name: "light.porch", Area: "Entrance", State: "locked", Exposed: true},
			map[string]any{"name": "light.porch", "area": "Entrance"}},
		{"camera id", demo.Entity{ID: "lock.side_gate", Name: "camera.garage", Area: "Entrance", State: "locked", Exposed: true},
			map[string]any{"name": "camera.garage"}},
	} {
		t.Run(c.label, func(t *testing.T) {
			r := newRig(t, rigOptions{setup: with(t, c.lock)})
			text, _ := callQuiet(t, r, "turn_off", c.args)
			// Home Assistant takes a name that is an entity's id as that
			// entity, and an alias spelt alike as well: two devices, so it
			// refuses the name as shared. maison says so; with the lock's
			// area it is one device again, and asked about.
			shared := strings.HasPrefix(text, "More than one device is called")
			if !asked(text) && !(shared && c.args["area"] == nil) {
				t.Errorf("turn_off(%v) on an exposed lock did not ask first: %q", c.args, text)
			}
			if st, _, _ := r.house.State(c.lock.ID); st != "locked" {
				t.Errorf("%s is now %s, without any confirmation", c.lock.ID, st)
			}
		})
	}
}

// Promise 3, "by name": anything that could be a garage door, a gate, a door
// or a valve by its name needs a confirmation. An exposed switch or a cover
// of a non-door class named like one is acted on at once.
func TestSensitiveNameOnNonSensitiveKindActsAtOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e    demo.Entity
		tool string
	}{
		{demo.Entity{ID: "switch.garage_door_opener", Name: "Garage Door Opener", Area: "Garage", State: "off", Exposed: true}, "turn_on"},
		{demo.Entity{ID: "switch.gate_buzzer", Name: "Front Gate Buzzer", Area: "Porch", State: "off", Exposed: true}, "turn_on"},
		{demo.Entity{ID: "switch.water_main_valve", Name: "Water Main Valve", Area: "Kitchen", State: "off", Exposed: true}, "turn_on"},
		{demo.Entity{ID: "button.garage_door_open", Name: "Open Garage Door", Area: "Garage", State: "unknown", Exposed: true}, "turn_on"},
		{demo.Entity{ID: "cover.barn_door", Name: "Barn Door", Area: "Garage", State: "closed", Exposed: true, Attributes: map[string]any{"device_class": "shutter"}}, "turn_on"},
		{demo.Entity{ID: "cover.garage_door_2", Name: "Second Garage Door", Area: "Garage", State: "closed", Exposed: true, Attributes: map[string]any{"device_class": "awning"}}, "turn_on"},
	} {
		t.Run(c.e.Name, func(t *testing.T) {
			r := newRig(t, rigOptions{setup: with(t, c.e)})
			text, _ := call(t, r.cs, c.tool, map[string]any{"name": c.e.Name})
			if !asked(text) {
				t.Errorf("%s(%q) acted without asking: %q", c.tool, c.e.Name, text)
			}
			if st, _, _ := r.house.State(c.e.ID); st != c.e.State {
				t.Errorf("%s is now %s, without any confirmation", c.e.ID, st)
			}
		})
	}
}

// Promise 3, fail closed by name when nothing exposed matches: Home
// Assistant's HassTurnOn runs exposed scripts, which its live context never
// lists, so maison can only judge them by their words. Compound words
// (Frontdoor, Backdoor, Smartlock, Padlock, Haustür, Voordeur, Hoftor) and the short stems
// that only count as whole words let a door or lock script run unasked.
func TestCompoundSensitiveNamesReachHomeAssistantUnasked(t *testing.T) {
	t.Parallel()
	names := []string{"Frontdoor", "Open Backdoor", "Smartlock release", "Padlock", "Haustür öffnen", "Voordeur", "Hoftor auf"}
	var es []demo.Entity
	for i, n := range names {
		es = append(es, demo.Entity{ID: "script.s" + string(rune('a'+i)), Name: n, State: "off", Exposed: true})
	}
	r := newRig(t, rigOptions{setup: with(t, es...)})
	for _, n := range names {
		before := countCalls(r.house, "HassTurnOn")
		text, _ := call(t, r.cs, "turn_on", map[string]any{"name": n})
		if !asked(text) || countCalls(r.house, "HassTurnOn") != before {
			t.Errorf("turn_on(%q), a name that reads like a door, lock or gate and matches nothing maison can see, went to Home Assistant unasked: %q", n, text)
		}
	}
}

// Promise 3 and 5: a confirmation is the person's yes to one action. Names
// are cut at 80 runes before they are said, so two exposed locks whose names
// share their first 80 runes get the same proposal: the person cannot tell
// which lock the yes opens (the code is bound to the name the model chose).
func TestTruncatedNamesMakeProposalsAmbiguous(t *testing.T) {
	t.Parallel()
	prefix := "Garden building lock by the old apple tree next to the compost bins and the shed,"
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "lock.a", Name: prefix + " north side", State: "locked", Exposed: true},
		demo.Entity{ID: "lock.b", Name: prefix + " south side, main house back door", State: "locked", Exposed: true},
	)})
	a, _ := callBlocks(t, r.cs, "turn_off", map[string]any{"name": prefix + " north side"})
	b, _ := callBlocks(t, r.cs, "turn_off", map[string]any{"name": prefix + " south side, main house back door"})
	if len(a) == 0 || len(b) == 0 || a[0] == b[0] {
		t.Errorf("the person is asked the same question for two different locks:\n%q\n%q", a, b)
	}
}

// Promise 3: a confirmation works once, for one tool and the same details.
func TestConfirmationReplays(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	propose := func(tool string, args map[string]any) string {
		parts, _ := callBlocks(t, r.cs, tool, args)
		return codeRE.FindString(strings.Join(parts, " "))
	}
	code := propose("turn_off", map[string]any{"name": "Front Door Lock"})
	if code == "" {
		t.Fatal("no proposal")
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"turn_on", map[string]any{"name": "Front Door Lock"}},
		{"turn_off", map[string]any{"name": "front door lock"}},
		{"turn_off", map[string]any{"name": "Front Door Lock "}},
		{"turn_off", map[string]any{"name": "Front Door Lock", "area": "Entrance"}},
		{"turn_off", map[string]any{"name": "Front Door Lock", "domain": []string{"lock"}}},
		{"turn_off", map[string]any{"area": "Entrance"}},
		{"turn_on", map[string]any{"name": "Garage Door"}},
		{"ha_ask", map[string]any{"action": "GetDateTime", "name": "Front Door Lock"}},
	} {
		args := map[string]any{"confirmation": strings.ToUpper(code)}
		for k, v := range c.args {
			args[k] = v
		}
		callBlocks(t, r.cs, c.tool, args)
	}
	for id, want := range map[string]string{"lock.front_door": "locked", "cover.garage_door": "closed"} {
		if st, _, _ := r.house.State(id); st != want {
			t.Errorf("a confirmation made for another call changed %s to %s", id, st)
		}
	}
	// The right call works once.
	ok := map[string]any{"name": "Front Door Lock", "confirmation": code}
	callBlocks(t, r.cs, "turn_off", ok)
	if st, _, _ := r.house.State("lock.front_door"); st != "unlocked" {
		t.Fatalf("the confirmed call did not run: %s", st)
	}
	call(t, r.cs, "turn_on", map[string]any{"name": "Front Door Lock"})
	callBlocks(t, r.cs, "turn_off", ok)
	if st, _, _ := r.house.State("lock.front_door"); st != "locked" {
		t.Errorf("a used confirmation ran again")
	}
}

// Promise 3: domain, device class, area and floor slots in every shape
// (wrong case, strings for arrays, nested arrays, mixed kinds) never open
// the garage door or unlock the front door without a confirmation.
func TestSlotShapesNeverOpenUnasked(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{})
	variants := []struct {
		tool string
		args map[string]any
	}{
		{"turn_on", map[string]any{"name": "Garage Door", "domain": []string{"Cover"}}},
		{"turn_on", map[string]any{"name": "Garage Door", "domain": []string{"cover "}}},
		{"turn_on", map[string]any{"name": "Garage Door", "domain": []string{"light", "cover"}}},
		{"turn_on", map[string]any{"area": "Garage", "device_class": []string{"garage"}}},
		{"turn_on", map[string]any{"area": "garage"}},
		{"turn_on", map[string]any{"area": "Garage", "domain": []string{"cover"}}},
		{"turn_on", map[string]any{"floor": "Ground", "domain": []string{"cover", "light"}}},
		{"turn_on", map[string]any{"name": "GARAGE  DOOR"}},
		{"turn_on", map[string]any{"name": "\tGarage Door\n"}},
		{"turn_on", map[string]any{"name": "cover.garage_door"}},
		{"turn_on", map[string]any{"name": "Garage Door", "area": "Kitchen"}},
		{"turn_off", map[string]any{"name": "Front Door Lock", "domain": []string{"LOCK"}}},
		{"turn_off", map[string]any{"area": "Entrance"}},
		{"turn_off", map[string]any{"area": "entrance", "domain": []string{"lock"}}},
		{"set_light", map[string]any{"name": "Front Door Lock", "brightness": 0}},
		{"set_light", map[string]any{"area": "Garage", "brightness": 100}},
		{"ha_ask", map[string]any{"action": "GetDateTime", "name": "Garage Door", "domain": "cover"}},
		{"ha_ask", map[string]any{"action": "GetDateTime", "name": []any{"Garage Door"}}},
		{"ha_ask", map[string]any{"action": "GetDateTime", "area": map[string]any{"name": "Garage"}}},
		{"ha_ask", map[string]any{"action": "GetDateTime", "domain": []any{[]any{"cover"}}, "area": "Garage"}},
	}
	for _, v := range variants {
		callBlocks(t, r.cs, v.tool, v.args)
		for id, want := range map[string]string{"lock.front_door": "locked", "cover.garage_door": "closed"} {
			if st, _, _ := r.house.State(id); st != want {
				t.Fatalf("%s(%v) changed %s to %s without a confirmation", v.tool, v.args, id, st)
			}
		}
	}
}

// Promise 3: the sensitive check reads the live context, kept for 5 s. A
// lock exposed or renamed inside that window is unknown to it; a name with
// no sensitive word then goes to Home Assistant at once, which unlocks the
// lock. Nothing has to fail: the owner (or an integration renaming its
// entity) only has to act within 5 s of the model's previous question.
func TestLiveCacheWindowUnlocksNewOrRenamedLock(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label  string
		change func(*demo.House) error
		id     string
		name   string
	}{
		{"renamed", func(h *demo.House) error {
			h.SetState("lock.front_door", "locked", map[string]any{"friendly_name": "Main Entrance", "supported_features": 0})
			return nil
		}, "lock.front_door", "Main Entrance"},
		{"newly exposed", func(h *demo.House) error { return h.SetExposed("lock.vault", true) }, "lock.vault", "Strongroom"},
		{"newly added", func(h *demo.House) error {
			return h.Add(demo.Entity{ID: "lock.shed", Name: "Potting Shed", Area: "Shed", State: "locked", Exposed: true})
		}, "lock.shed", "Potting Shed"},
	} {
		t.Run(c.label, func(t *testing.T) {
			r := newRig(t, rigOptions{setup: with(t, demo.Entity{ID: "lock.vault", Name: "Strongroom", Area: "Office", State: "locked"})})
			call(t, r.cs, "describe_house", nil) // the model's previous question
			if err := c.change(r.house); err != nil {
				t.Fatal(err)
			}
			heard(t, r.ha, c.label+" lock", func() bool {
				st, ok := r.ha.State(c.id)
				e, _ := r.ha.Entry(c.id)
				return ok && st.Name() == c.name && e.Exposure == homeassistant.Exposed
			})
			text, _ := call(t, r.cs, "turn_off", map[string]any{"name": c.name})
			// A name changed on the state alone, its registry entry
			// unchanged, is a house maison cannot read for sure: refusing
			// is as safe as asking.
			unsure := c.label == "renamed" && strings.Contains(text, "I cannot tell for sure which devices")
			if st, _, _ := r.house.State(c.id); st != "locked" || !asked(text) && !unsure {
				t.Errorf("turn_off(%q) on the %s lock did not ask: %s is %s; maison said %q", c.name, c.label, c.id, st, text)
			}
		})
	}
}

// scriptTools makes the demo's Assist endpoint offer exposed scripts as
// tools, as Home Assistant's LLM API does (each exposed script is a tool
// named after it, described by its description, with its fields as
// parameters). Calling one runs its effect: here an Assist intent.
func scriptTools(next http.Handler, scripts map[string]struct {
	description string
	intent      string
	args        map[string]any
}) http.Handler {
	w := assistWrap{
		list: func() []extraTool {
			var out []extraTool
			for name, s := range scripts {
				out = append(out, extraTool{name: name, description: s.description, schema: map[string]any{"type": "object", "properties": map[string]any{}}})
			}
			return out
		},
		call: func(name string, _ map[string]any) (json.RawMessage, string, map[string]any) {
			if s, ok := scripts[name]; ok {
				return nil, s.intent, s.args
			}
			return nil, "", nil
		},
	}
	return w.handler(next)
}

// scriptRig is newRig with the house behind scriptTools.
func scriptRig(t *testing.T, wrap func(http.Handler) http.Handler) (*demo.House, *mcp.ClientSession) {
	t.Helper()
	r := demotest.New(t, demotest.Options{Wrap: wrap, LazyFrames: true})
	return r.House, r.Session
}

// Promise 3: anything that could unlock a lock or open a door needs the
// person's yes. An exposed script is offered by Home Assistant as a tool of
// its own, whose effects maison cannot read: maison does not offer it, and
// a client that calls it anyway is refused; turn_on runs the script by its
// name, asking the person first.
func TestExposedScriptToolUnlocksUnasked(t *testing.T) {
	t.Parallel()
	house, cs := scriptRig(t, func(h http.Handler) http.Handler {
		return scriptTools(h, map[string]struct {
			description string
			intent      string
			args        map[string]any
		}{
			"unlock_front_door": {"Unlocks the front door for a guest", "HassTurnOff", map[string]any{"name": "Front Door Lock"}},
			"open_garage":       {"Opens the garage door", "HassTurnOn", map[string]any{"name": "Garage Door"}},
		})
	})
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ script, id, safe string }{
		{"unlock_front_door", "lock.front_door", "locked"},
		{"open_garage", "cover.garage_door", "closed"},
	} {
		for _, tool := range res.Tools {
			if strings.Contains(tool.Name, c.script) || strings.Contains(tool.Description, c.script) {
				t.Errorf("maison offers %s, a script whose effects it cannot read: %s: %s", c.script, tool.Name, tool.Description)
			}
		}
		for _, fold := range []string{"ha_act", "ha_ask"} {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: fold, Arguments: map[string]any{"action": c.script}})
			if err == nil && !res.IsError {
				t.Errorf("%s through %s was run: %q", c.script, fold, demotest.Text(res))
			}
		}
		if st, _, _ := house.State(c.id); st != c.safe {
			t.Errorf("%s ran unasked: %s is now %s", c.script, c.id, st)
		}
	}
}

// The person is asked about what will really open: a garage door renamed
// "Lamp" is asked about as a garage door, a gate with no name of its own by
// the words Home Assistant gives it, and as a gate. Found against the real
// Home Assistant.
func TestProposalSaysWhatWillOpen(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{setup: func(h *demo.House) {
		for _, e := range []demo.Entity{
			{ID: "cover.garage_door", Name: "Lamp", Area: "Garage", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "garage", "current_position": 0, "supported_features": 15}},
			{ID: "cover.side_gate", Name: "", Area: "Driveway", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "gate", "current_position": 0, "supported_features": 15}},
			{ID: "valve.orchard", Name: "Orchard", Area: "Garden", State: "closed", Exposed: true},
		} {
			if err := h.Add(e); err != nil {
				t.Fatal(err)
			}
		}
	}})
	text, _ := callQuiet(t, r, "turn_on", map[string]any{"name": "Lamp"})
	if !asked(text) || !strings.Contains(text, "open the garage door “Lamp” in the “Garage”") {
		t.Errorf("a garage door called Lamp: %q", text)
	}
	text, _ = callQuiet(t, r, "turn_on", map[string]any{"name": "Orchard"})
	if !asked(text) || !strings.Contains(text, "before I open the valve “Orchard” in the “Garden”. Ask") || strings.Contains(text, ",,") {
		t.Errorf("a valve whose name does not say it: %q", text)
	}
	text, _ = callQuiet(t, r, "turn_on", map[string]any{"area": "Driveway"})
	if !asked(text) || strings.Contains(text, "open the.") || !strings.Contains(text, "open the “side gate”") {
		t.Errorf("a gate without a name: %q", text)
	}
	for _, id := range []string{"cover.garage_door", "cover.side_gate"} {
		if st, _, _ := r.house.State(id); st != "closed" {
			t.Errorf("%s is %s without a confirmation", id, st)
		}
	}
}

// A switch whose name displays as a lock's, through a right-to-left
// override or with invisible characters inside its words, is judged as it
// displays: turning it on asks first, and the proposal names it as the
// person sees it.
func TestNameThatDisplaysAsALockAsksFirst(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label, name, seen string
	}{
		{"right-to-left override", "\u202ekcol tnorf", "front lock"},
		{"override inside a word", "Front lo\u202ekc\u202c", "Front lock"},
		{"Hangul filler inside a word", "Front lo\u3164ck", "Front lock"},
		{"variation selector inside a word", "Front lo\U000E0100ck", "Front lock"},
	} {
		t.Run(c.label, func(t *testing.T) {
			e := demo.Entity{ID: "switch.porch_relay", Name: c.name, Area: "Porch", State: "off", Exposed: true}
			r := newRig(t, rigOptions{setup: with(t, e)})
			for _, args := range []map[string]any{{"name": c.name}, {"area": "Porch"}} {
				text, _ := callQuiet(t, r, "turn_on", args)
				if !asked(text) {
					t.Errorf("turn_on(%+q) on a switch that displays as %q acted without asking: %q", args, c.seen, text)
				}
				if !strings.Contains(text, c.seen) {
					t.Errorf("turn_on(%+q): the proposal does not name the switch as it displays, %q: %q", args, c.seen, text)
				}
				if st, _, _ := r.house.State(e.ID); st != "off" {
					t.Fatalf("%s is now %s, without any confirmation", e.ID, st)
				}
			}
		})
	}
}
