package check_test

import (
	"strings"
	"sync"
	"testing"

	"maison/bridge"
	"maison/check"
	"maison/demotest"
)

// sharedHouse is one demo house for the package's tests, so its frames are
// rendered once; it lives as long as the test binary.
var sharedHouse = sync.OnceValue(func() *demotest.House { return demotest.StartHouse(demotest.Options{}) })

// run checks the shared demo house and returns the output, the verdict and
// how many failed logins the check cost Home Assistant.
func run(t *testing.T, admin, probe bool) (string, bool, int) {
	t.Helper()
	house := sharedHouse()
	before := house.FailedLogins()
	token := house.UserToken()
	if admin {
		token = house.AdminToken()
	}
	var out strings.Builder
	ok := check.Run(t.Context(), check.Config{Bridge: bridge.Config{URL: house.URL, Token: token}, ProbeFullAPI: probe}, &out)
	return out.String(), ok, house.FailedLogins() - before
}

func TestHealthyHouse(t *testing.T) {
	out, ok, failed := run(t, false, false)
	if !ok {
		t.Errorf("a healthy demo house fails the check:\n%s", out)
	}
	for _, want := range []string{
		`ok    signed in as "Maison", not an administrator`,
		"Assist endpoint answers with 6 tools",
		"camera Garage (camera.garage): fetched 1280x720, ",
		"Repaired: At byte 2, a comment segment announced 4,094 bytes but really spanned 4,958",
		"camera Backyard (camera.backyard): fetched 3840x2160",
		"Fitted to 1429x804",
		"note  camera Porch (camera.porch): turned off",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Shed") {
		t.Errorf("check names the unexposed shed camera:\n%s", out)
	}
	if failed != 0 {
		t.Errorf("a plain check cost %d failed logins; the full-API probe must be on demand only", failed)
	}
}

func TestProbeFullAPIOnDemand(t *testing.T) {
	out, ok, failed := run(t, false, true)
	if !ok || !strings.Contains(out, "/api/mcp refuses this user, as it should") {
		t.Errorf("probe:\n%s", out)
	}
	if failed != 1 {
		t.Errorf("the probe cost %d failed logins, want exactly 1", failed)
	}
}

func TestAdminTokenRefused(t *testing.T) {
	out, ok, _ := run(t, true, false)
	if ok || !strings.HasPrefix(out, "FAIL") || !strings.Contains(out, "Settings › People") || !strings.Contains(out, `"Administrator" off`) {
		t.Errorf("admin token: ok=%v\n%s", ok, out)
	}
}

func TestCheckFollowsTheSettings(t *testing.T) {
	house := sharedHouse()
	for _, c := range []struct {
		cfg  bridge.Config
		want string
		ok   bool
	}{
		{bridge.Config{AITask: "off"}, "AI descriptions are off", true},
		{bridge.Config{AITask: "ai_task.nope"}, "FAIL  MAISON_AI_TASK is ai_task.nope", false},
		{bridge.Config{Cameras: []string{"camera.garage", "camera.attic"}}, "FAIL  MAISON_CAMERAS lists camera.attic", false},
	} {
		c.cfg.URL, c.cfg.Token = house.URL, house.UserToken()
		var out strings.Builder
		ok := check.Run(t.Context(), check.Config{Bridge: c.cfg}, &out)
		if ok != c.ok || !strings.Contains(out.String(), c.want) {
			t.Errorf("%+v: ok=%v\n%s", c.cfg, ok, out.String())
		}
	}
}
