package realhouse_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/homeassistant"
	"maison/internal/realha"
)

// sensitiveHouse arranges, through the owner, what the attack found open:
// the demo's locks and valves exposed, a valve on the porch, a scene that
// unlocks the front door, a script that does; all undone at the end. It
// returns the ids whose state may not change unasked, and their states.
func sensitiveHouse(t *testing.T, h realha.House) map[string]string {
	t.Helper()
	s := ownerSession(t, h)
	exposed := []string{"lock.front_door", "lock.kitchen_door", "lock.openable_lock", "valve.orchard", "valve.front_garden"}
	s.must(map[string]any{"type": "homeassistant/expose_entity", "assistants": []string{"conversation"}, "entity_ids": exposed, "should_expose": true})
	t.Cleanup(func() {
		s.do(map[string]any{"type": "homeassistant/expose_entity", "assistants": []string{"conversation"}, "entity_ids": exposed, "should_expose": false})
	})
	var valve struct {
		DeviceID string `json:"device_id"`
	}
	json.Unmarshal(s.must(map[string]any{"type": "config/entity_registry/get", "entity_id": "valve.orchard"}), &valve)
	s.must(map[string]any{"type": "config/device_registry/update", "device_id": valve.DeviceID, "area_id": "porch"})
	t.Cleanup(func() {
		s.do(map[string]any{"type": "config/device_registry/update", "device_id": valve.DeviceID, "area_id": nil})
	})

	for _, c := range []struct{ kind, id, path string }{
		{"scene", "scene.welcome_home", "/api/config/scene/config/realha_welcome"},
		{"script", "script.leave_home", "/api/config/script/config/leave_home"},
	} {
		body := map[string]any{"id": "realha_welcome", "name": "Welcome Home",
			"entities": map[string]any{"lock.front_door": map[string]any{"state": "unlocked"}, "light.kitchen_lights": map[string]any{"state": "on"}}}
		if c.kind == "script" {
			body = map[string]any{"alias": "Leave Home", "sequence": []any{map[string]any{"action": "lock.unlock", "target": map[string]any{"entity_id": "lock.kitchen_door"}}}}
		}
		if code, out := owner(t, h, http.MethodPost, c.path, body); code != http.StatusOK {
			t.Fatalf("saving the %s: %d %s", c.kind, code, out)
		}
		t.Cleanup(func() { owner(t, h, http.MethodDelete, c.path, nil) })
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if code, _ := owner(t, h, http.MethodGet, "/api/states/"+c.id, nil); code == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the %s %s never appeared", c.kind, c.id)
			}
		}
		s.must(map[string]any{"type": "homeassistant/expose_entity", "assistants": []string{"conversation"}, "entity_ids": []string{c.id}, "should_expose": true})
	}
	for _, id := range []string{"lock.front_door", "lock.kitchen_door", "lock.openable_lock"} {
		service(t, h, "lock", "lock", map[string]any{"entity_id": id})
	}
	for _, id := range []string{"valve.orchard", "valve.front_garden"} {
		service(t, h, "valve", "close_valve", map[string]any{"entity_id": id})
	}
	service(t, h, "cover", "close_cover", map[string]any{"entity_id": "cover.garage_door"})
	want := map[string]string{}
	for _, id := range []string{"lock.front_door", "lock.kitchen_door", "lock.openable_lock", "valve.orchard", "valve.front_garden", "cover.garage_door"} {
		want[id] = awaitState(t, h, id, "locked", "closed")
	}
	return want
}

// awaitState waits until an entity settles in one of states (the demo's
// valves and locks take a moment), and returns it.
func awaitState(t *testing.T, h realha.House, id string, states ...string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		st := readState(t, h, id).State
		for _, s := range states {
			if st == s {
				return st
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s stays %q", id, st)
		}
	}
}

// unchanged fails the test for every entity whose state moved.
func unchanged(t *testing.T, h realha.House, want map[string]string, after string) {
	t.Helper()
	for id, st := range want {
		if now := readState(t, h, id).State; now != st {
			t.Errorf("after %s, %s went from %s to %s with nobody's yes", after, id, st, now)
		}
	}
}

// The attack's findings, on the real house, over HTTP and stdio: "all" as
// a name in an area or on a floor, a valve on the porch, a scene and a
// script that unlock, set_position on the garage door. Each is asked
// about, naming what it would do, or refused; nothing changes unasked.
// Then a yes counts for what it was given for: the scene, confirmed, runs.
func TestNoCallUnlocksOrOpensUnasked(t *testing.T) {
	h := realha.Load(t)
	want := sensitiveHouse(t, h)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.start(t, h)
			for _, c := range []struct {
				tool string
				args map[string]any
				says string // what the question or refusal names
			}{
				{"turn_on", map[string]any{"name": "all", "area": "Garage"}, "open the “Garage Door”"},
				{"turn_on", map[string]any{"name": "all", "area": "Porch"}, "“Orchard”"},
				{"turn_on", map[string]any{"name": "all", "floor": "Ground Floor"}, "open the valve “Orchard” in the “Porch”"},
				{"turn_off", map[string]any{"name": "all", "domain": []string{"lock"}}, "unlock the “Front Door”"},
				{"turn_off", map[string]any{"name": "ALL", "domain": []string{"lock"}}, "nothing shared with Assist called “ALL”"},
				{"turn_on", map[string]any{"name": "Welcome Home"}, "run the scene “Welcome Home”"},
				{"turn_on", map[string]any{"name": "Leave Home"}, "run the script “Leave Home”"},
				{"ha_act", map[string]any{"action": "HassSetPosition", "name": "all", "area": "Garage", "position": 100}, "I will not do that through this action"},
				{"ha_act", map[string]any{"action": "HassSetPosition", "name": "Garage Door", "position": 100}, "I will not do that through this action"},
			} {
				_, text := ask(t, cs, c.tool, c.args)
				if !strings.Contains(text, c.says) {
					t.Errorf("%s(%v) does not name what it would do (%q): %q", c.tool, c.args, c.says, text)
				}
				unchanged(t, h, want, fmt.Sprintf("%s(%v)", c.tool, c.args))
			}
			code := regexp.MustCompile(`\bc-[a-z0-9]+\b`)
			_, text := ask(t, cs, "turn_on", map[string]any{"name": "Welcome Home"})
			c := code.FindString(text)
			if c == "" {
				t.Fatalf("no code to confirm the scene with: %q", text)
			}
			ask(t, cs, "turn_on", map[string]any{"name": "Welcome Home", "confirmation": c})
			if st := awaitState(t, h, "lock.front_door", "unlocked", "locked"); st != "unlocked" {
				t.Errorf("the scene, confirmed, did not run: the front door is %s", st)
			}
			service(t, h, "lock", "lock", map[string]any{"entity_id": "lock.front_door"})
			awaitState(t, h, "lock.front_door", "locked")
		})
	}
}

// With the approval page, "all" with a kind is asked on the page, and the
// page names every lock it would unlock, by name, not "all".
func TestApprovalPageNamesEveryDevice(t *testing.T) {
	h := realha.Load(t)
	sensitiveHouse(t, h)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	pw := make([]byte, 24)
	rand.Read(pw)
	cs := serveHTTPWith(t, h, "MAISON_LISTEN="+addr, "MAISON_PUBLIC_URL=http://"+addr,
		"MAISON_OPERATOR_PASSWORD="+hex.EncodeToString(pw), "MAISON_SECRET="+hex.EncodeToString(pw)+"-secret")
	_, text := ask(t, cs, "turn_off", map[string]any{"name": "all", "domain": []string{"lock"}})
	link := regexp.MustCompile(`http://\S+/approve\?r=\S+`).FindString(text)
	if link == "" {
		t.Fatalf("no approval link: %q", text)
	}
	resp, err := http.Get(strings.TrimRight(link, "."))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, name := range []string{"Front Door", "Kitchen Door", "Openable Lock"} {
		if !strings.Contains(string(page), name) {
			t.Errorf("the approval page does not name %q: %s", name, page)
		}
	}
	if strings.Contains(string(page), "“all”") {
		t.Errorf("the approval page names “all”: %s", page)
	}
}

// A token whose user the owner makes an administrator while maison runs
// acts on nothing, and says why; made a user again, it works by itself.
func TestATokenMadeAdministratorOnTheRealHouse(t *testing.T) {
	h := realha.Load(t)
	s := ownerSession(t, h)
	var users []struct {
		ID       string   `json:"id"`
		Name     string   `json:"name"`
		GroupIDs []string `json:"group_ids"`
	}
	json.Unmarshal(s.must(map[string]any{"type": "config/auth/list"}), &users)
	id := ""
	for _, u := range users {
		if u.Name == "Maison" {
			id = u.ID
		}
	}
	if id == "" {
		t.Fatalf("maison's user is not among %v", users)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	b, err := bridge.Start(ctx, bridge.Config{URL: h.URL, Token: h.Token,
		HomeAssistant: func(c *homeassistant.Config) { c.PrivilegeInterval = 500 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := b.Server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "realhouse", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	service(t, h, "light", "turn_off", map[string]any{"entity_id": "light.kitchen_lights"})
	s.must(map[string]any{"type": "config/auth/update", "user_id": id, "group_ids": []string{"system-admin"}})
	t.Cleanup(func() {
		s.do(map[string]any{"type": "config/auth/update", "user_id": id, "group_ids": []string{"system-users"}})
	})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if e := b.HA.Offline(); e != nil && e.Kind == homeassistant.KindAdminToken {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("maison never noticed its user became an administrator")
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"turn_on", map[string]any{"name": "Kitchen Lights"}}, {"describe_house", nil}, {"camera_snapshot", map[string]any{"camera": "patio"}}} {
		res, text := ask(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(text, "administrator") {
			t.Errorf("%s with an administrator's token: %q", c.tool, text)
		}
	}
	if st := readState(t, h, "light.kitchen_lights").State; st != "off" {
		t.Errorf("an administrator's token turned the kitchen lights %s", st)
	}
	s.must(map[string]any{"type": "config/auth/update", "user_id": id, "group_ids": []string{"system-users"}})
	for deadline := time.Now().Add(time.Minute); b.HA.Offline() != nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("maison did not come back once its user was not an administrator: %v", b.HA.Offline())
		}
	}
	if res, text := ask(t, cs, "turn_on", map[string]any{"name": "Kitchen Lights"}); res.IsError {
		t.Errorf("turn_on once the user is not an administrator: %q", text)
	}
}
