package tools_test

import (
	"strings"
	"testing"
	"time"

	"maison/homeassistant"
)

// A token whose user is made an administrator while maison runs acts on
// nothing: within the privilege check's interval every call is refused in
// words that say why and what to do, the light stays as it was, and no
// request reaches Home Assistant with that token; once the user is not an
// administrator again, maison works by itself.
func TestATokenMadeAdministratorActsOnNothing(t *testing.T) {
	t.Parallel()
	r := newRig(t, rigOptions{ha: func(c *homeassistant.Config) { c.PrivilegeInterval = 50 * time.Millisecond }})
	if text, isErr := call(t, r.cs, "turn_on", map[string]any{"name": "Porch Light"}); isErr {
		t.Fatalf("turn_on before: %q", text)
	}
	r.house.SetState("light.porch", "off", nil)
	r.house.SetUserAdmin(true)
	heard(t, r.ha, "the user made an administrator", func() bool {
		e := r.ha.Offline()
		return e != nil && e.Kind == homeassistant.KindAdminToken
	})
	before := countCalls(r.house, "HassTurnOn")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"turn_on", map[string]any{"name": "Porch Light"}},
		{"describe_house", nil},
		{"camera_snapshot", map[string]any{"camera": "garage"}},
		{"list_cameras", nil},
	} {
		text, isErr := call(t, r.cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, "administrator") {
			t.Errorf("%s with an administrator's token: error %v, %q", c.tool, isErr, text)
		}
	}
	if st, _, _ := r.house.State("light.porch"); st != "off" || countCalls(r.house, "HassTurnOn") != before {
		t.Errorf("an administrator's token acted: the light is %s", st)
	}
	r.house.SetUserAdmin(false)
	heard(t, r.ha, "the user an administrator no more", func() bool { return r.ha.Offline() == nil })
	if text, isErr := call(t, r.cs, "turn_on", map[string]any{"name": "Porch Light"}); isErr {
		t.Errorf("turn_on once the user is not an administrator: %q", text)
	}
}
