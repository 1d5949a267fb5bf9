package tools_test

// Attack tests (branch attack-8): each test states a promise of maison and
// tries to break it against the demo Home Assistant. A failing test is a
// reproduced break; see /work/notes/attack-8.md.

import (
	"strings"
	"testing"
	"time"

	"maison/demo"
	"maison/homeassistant"
	"maison/voice"
)

// with adds entities to the demo house before maison connects.
func with(t *testing.T, es ...demo.Entity) func(*demo.House) {
	return func(h *demo.House) {
		for _, e := range es {
			if err := h.Add(e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// asked reports whether an answer is a proposal that asks the person first.
func asked(text string) bool {
	return strings.Contains(text, "Nothing was done yet") && codeRE.FindString(text) != ""
}

// countCalls counts the Assist calls of one tool the house received.
func countCalls(h *demo.House, tool string) int {
	n := 0
	for _, c := range h.AssistCalls() {
		if c == tool || strings.HasSuffix(c, "__"+tool) {
			n++
		}
	}
	return n
}

// callQuiet is call without the speakability check: some attacks make
// answers unspeakable on purpose, and that is reported separately.
func callQuiet(t *testing.T, r rig, tool string, args map[string]any) (string, bool) {
	t.Helper()
	parts, isErr := callBlocks(t, r.cs, tool, args)
	return strings.Join(parts, " "), isErr
}

// Promise 3: an exposed lock whose name is shaped like the entity id of
// another exposed entity. maison looks the name up as an entity id, swaps in
// that other entity's name for its sensitive check, sees only a light, and
// sends the call unchanged: Home Assistant matches the lock by its name and
// unlocks it. No confirmation is ever asked.
func TestAttackEntityIDShapedNameUnlocksWithoutConfirmation(t *testing.T) {
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
			if !asked(text) {
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
func TestAttackSensitiveNameOnNonSensitiveKindActsAtOnce(t *testing.T) {
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
func TestAttackCompoundSensitiveNamesReachHomeAssistantUnasked(t *testing.T) {
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

// Promise 1: an entity without a registry entry is never shown: no state.
// describe_house says its state from the live context.
func TestAttackUnregisteredEntityStateIsShown(t *testing.T) {
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "sensor.strongbox", Name: "Strongbox", State: "code 4471", Exposed: true, Unregistered: true},
		demo.Entity{ID: "lock.yaml_lock", Name: "Cellar Hatch", State: "unlocked", Exposed: true, Unregistered: true},
	)})
	text, _ := call(t, r.cs, "describe_house", nil)
	for _, w := range []string{"4471", "Strongbox", "Cellar Hatch"} {
		if strings.Contains(text, w) {
			t.Errorf("describe_house shows %q of an entity without a registry entry: %q", w, text)
		}
	}
	one, _ := call(t, r.cs, "describe_house", map[string]any{"name": "Strongbox"})
	if strings.Contains(one, "4471") {
		t.Errorf("describe_house by name shows the state of an entity without a registry entry: %q", one)
	}
}

// Promise 5 (names are data, answers are sentences for the ear): a name
// shaped like an entity id makes every answer that says it unspeakable.
func TestAttackEntityIDShapedNameMakesAnswersUnspeakable(t *testing.T) {
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "light.shelf", Name: "switch.shelf_plug", Area: "Office", State: "on", Exposed: true},
	)})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"describe_house", nil}, {"turn_off", map[string]any{"name": "switch.shelf_plug"}}} {
		text, _ := callQuiet(t, r, c.tool, c.args)
		if err := voice.Speakable(text); err != nil {
			t.Errorf("%s: %v", c.tool, err)
		}
	}
}

// Promise 1 and 2: exposure is read from the registry. When a registry
// reload fails once (Home Assistant slow for longer than the client's
// timeout), maison keeps the old registry until the next registry event or
// reconnection, while the live context it reads is fresh. Two cameras that
// share a name swap their exposure: the live context now lists the one just
// exposed, and maison ties its words to the one just hidden, whose picture
// it fetches and shows.
func TestAttackStaleRegistryAfterFailedReloadShowsHiddenCamera(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{
		setup:   with(t, demo.Entity{ID: "camera.garage_2", Name: "Garage", Area: "Garage", State: "idle"}),
		ha:      func(c *homeassistant.Config) { c.ReloadTimeout = 300 * time.Millisecond },
		liveTTL: time.Millisecond,
	})
	if _, isErr := call(t, r.cs, "describe_camera", map[string]any{"camera": "garage"}); isErr {
		t.Fatal("the exposed garage camera is not shown to begin with")
	}
	// Home Assistant is slow for a moment, while the owner swaps which of
	// the two Garage cameras is exposed.
	r.house.SetLatency(time.Second)
	if err := r.house.SetExposed("camera.garage", false); err != nil {
		t.Fatal(err)
	}
	if err := r.house.SetExposed("camera.garage_2", true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(800 * time.Millisecond) // both reloads time out
	r.house.SetLatency(0)
	time.Sleep(3 * time.Second) // the websocket drains its queue; nothing else changes
	before := r.house.CameraFetches("camera.garage")
	text, _ := call(t, r.cs, "camera_snapshot", map[string]any{"camera": "garage"})
	if n := r.house.CameraFetches("camera.garage"); n > before {
		t.Errorf("camera.garage is no longer exposed, yet its picture was fetched %d more times and shown: %q", n-before, text)
	}
}

// Promises 1 and 2 under change: renames, removals, re-additions with
// another exposure and registry entry, all inside the live context's 5 s
// cache. No picture of a camera that is not exposed may ever be fetched.
func TestAttackRuntimeChangesNeverShowHiddenCameras(t *testing.T) {
	r := newRig(t, rigOptions{})
	h := r.house
	snap := func(q string) string {
		text, _ := callQuiet(t, r, "camera_snapshot", map[string]any{"camera": q})
		return text
	}
	hidden := map[string]bool{"camera.shed": true}
	check := func(step string) {
		t.Helper()
		for id := range hidden {
			if n := h.CameraFetches(id); n != 0 {
				t.Errorf("%s: the hidden %s was fetched %d times", step, id, n)
			}
		}
	}
	snap("porch")
	// An exposed camera renamed like the hidden one.
	h.SetState("camera.porch", "idle", map[string]any{"friendly_name": "Shed"})
	snap("shed")
	snap("porch")
	check("rename to a hidden camera's name")
	// The hidden camera is renamed like an exposed one, then re-added
	// without a registry entry (its exposure unknown) under that name.
	h.SetState("camera.shed", "idle", map[string]any{"friendly_name": "Backyard"})
	snap("backyard")
	h.Remove("camera.shed")
	if err := h.Add(demo.Entity{ID: "camera.shed", Name: "Backyard", State: "idle", Unregistered: true}); err != nil {
		t.Fatal(err)
	}
	snap("backyard")
	check("hidden camera re-added without a registry entry")
	// An exposed camera removed and re-added hidden, inside the cache.
	snap("front door")
	h.Remove("camera.front_door")
	if err := h.Add(demo.Entity{ID: "camera.front_door", Name: "Front Door", Area: "Entrance", State: "idle"}); err != nil {
		t.Fatal(err)
	}
	hidden["camera.front_door"] = true
	heard(t, r.ha, "the front door camera re-added, not exposed", func() bool {
		e, _ := r.ha.Entry("camera.front_door")
		_, ok := r.ha.State("camera.front_door")
		return ok && e.Exposure != homeassistant.Exposed
	})
	before := h.CameraFetches("camera.front_door")
	if parts, isErr := callBlocks(t, r.cs, "camera_snapshot", map[string]any{"camera": "front door"}); !isErr || h.CameraFetches("camera.front_door") != before {
		t.Errorf("camera.front_door, re-added hidden, was shown: %q", parts)
	}
	// Exposure flips back and forth faster than the cache. Each flip is
	// asked about once maison has heard of it (the registry event), however
	// slow the machine: before that, nothing can know.
	for i := range 6 {
		if err := h.SetExposed("camera.garage", i%2 == 1); err != nil {
			t.Fatal(err)
		}
		heard(t, r.ha, "the garage camera's exposure", func() bool {
			e, _ := r.ha.Entry("camera.garage")
			return (e.Exposure == homeassistant.Exposed) == (i%2 == 1)
		})
		before := h.CameraFetches("camera.garage")
		text := snap("garage")
		if i%2 == 0 && h.CameraFetches("camera.garage") != before {
			t.Errorf("flip %d: camera.garage is hidden, yet fetched: %q", i, text)
		}
	}
}

// Promise 3, in the demo: a hidden sensitive device's name and an absent
// one get the same words, error flag, number of blocks and number of calls
// to Home Assistant, in every tool and with every extra slot, confirmed or
// not.
func TestAttackHiddenAndAbsentAlikeInEveryToolAndSlot(t *testing.T) {
	pairs := [][2]string{{"Vault Lock", "Attic Lock"}, {"Cellar Valve", "Pool Valve"}, {"Paddock Gate", "Orchard Gate"}, {"lock.vault", "lock.attic"}}
	r := newRig(t, rigOptions{setup: with(t,
		demo.Entity{ID: "lock.vault", Name: "Vault Lock", Area: "Office", State: "unlocked"},
		demo.Entity{ID: "valve.cellar", Name: "Cellar Valve", Area: "Kitchen", State: "closed"},
		demo.Entity{ID: "cover.paddock_gate", Name: "Paddock Gate", Area: "Garage", State: "closed", Attributes: map[string]any{"device_class": "gate"}},
	)})
	type shape struct {
		text         string
		isErr        bool
		blocks, hits int
	}
	// Calls that act or answer, not the live context maison keeps for 5 s.
	acts := func() int {
		n := 0
		for _, c := range r.house.AssistCalls() {
			if !strings.HasSuffix(c, "GetLiveContext") {
				n++
			}
		}
		return n
	}
	run := func(tool string, args map[string]any, name string) shape {
		before := acts()
		parts, isErr := callBlocks(t, r.cs, tool, args)
		text := codeRE.ReplaceAllString(strings.Join(parts, " "), "CODE")
		text = strings.ReplaceAll(strings.ReplaceAll(text, name, "NAME"), strings.ToLower(name), "NAME")
		// Quoted data says an entity-id-shaped name without its dot.
		text = strings.ReplaceAll(text, strings.Replace(name, ".", " ", 1), "NAME")
		return shape{text, isErr, len(parts), acts() - before}
	}
	slots := []map[string]any{
		{},
		{"area": "Kitchen"},
		{"area": "Office"},
		{"floor": "Upstairs"},
		{"domain": []string{"light"}},
		{"domain": []string{"lock", "valve", "cover"}},
		{"device_class": []string{"gate"}},
	}
	for _, p := range pairs {
		for _, tool := range []string{"turn_on", "turn_off", "set_light", "ha_get_date_time"} {
			for _, extra := range slots {
				args := func(n string) map[string]any {
					m := map[string]any{"name": n}
					for k, v := range extra {
						m[k] = v
					}
					if tool == "set_light" {
						m["brightness"] = 40
					}
					return m
				}
				a, b := run(tool, args(p[0]), p[0]), run(tool, args(p[1]), p[1])
				if a != b {
					t.Errorf("%s %v: %q and %q told apart:\n%+v\n%+v", tool, extra, p[0], p[1], a, b)
					continue
				}
				if code := codeRE.FindString(strings.Join(func() []string { x, _ := callBlocks(t, r.cs, tool, args(p[0])); return x }(), " ")); code != "" {
					ca, cb := args(p[0]), args(p[1])
					ca["confirmation"] = code
					// The absent name needs its own code.
					xb, _ := callBlocks(t, r.cs, tool, args(p[1]))
					cb["confirmation"] = codeRE.FindString(strings.Join(xb, " "))
					a, b = run(tool, ca, p[0]), run(tool, cb, p[1])
					if a != b {
						t.Errorf("%s %v confirmed: %q and %q told apart:\n%+v\n%+v", tool, extra, p[0], p[1], a, b)
					}
				}
			}
		}
	}
	for id, want := range map[string]string{"lock.vault": "unlocked", "valve.cellar": "closed", "cover.paddock_gate": "closed"} {
		if st, _, _ := r.house.State(id); st != want {
			t.Errorf("hidden %s changed to %s", id, st)
		}
	}
}

// Promise 3 and 5: a confirmation is the person's yes to one action. Names
// are cut at 80 runes before they are said, so two exposed locks whose names
// share their first 80 runes get the same proposal: the person cannot tell
// which lock the yes opens (the code is bound to the name the model chose).
func TestAttackTruncatedNamesMakeProposalsAmbiguous(t *testing.T) {
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
func TestAttackConfirmationReplays(t *testing.T) {
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
		{"ha_get_date_time", map[string]any{"name": "Front Door Lock"}},
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
func TestAttackSlotShapesNeverOpenUnasked(t *testing.T) {
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
		{"ha_get_date_time", map[string]any{"name": "Garage Door", "domain": "cover"}},
		{"ha_get_date_time", map[string]any{"name": []any{"Garage Door"}}},
		{"ha_get_date_time", map[string]any{"area": map[string]any{"name": "Garage"}}},
		{"ha_get_date_time", map[string]any{"domain": []any{[]any{"cover"}}, "area": "Garage"}},
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
func TestAttackLiveCacheWindowUnlocksNewOrRenamedLock(t *testing.T) {
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
			if st, _, _ := r.house.State(c.id); st != "locked" || !asked(text) {
				t.Errorf("turn_off(%q) on the %s lock did not ask: %s is %s; maison said %q", c.name, c.label, c.id, st, text)
			}
		})
	}
}
