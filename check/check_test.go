package check_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"maison/check"
	"maison/demo"
)

func run(t *testing.T, admin, probe bool) (string, bool, *demo.House) {
	t.Helper()
	house := demo.New(demo.Options{})
	srv := httptest.NewServer(house.Handler())
	t.Cleanup(srv.Close)
	token := house.UserToken()
	if admin {
		token = house.AdminToken()
	}
	var out strings.Builder
	ok := check.Run(t.Context(), check.Config{URL: srv.URL, Token: token, ProbeFullAPI: probe}, &out)
	return out.String(), ok, house
}

func TestHealthyHouse(t *testing.T) {
	out, ok, house := run(t, false, false)
	if !ok {
		t.Errorf("a healthy demo house fails the check:\n%s", out)
	}
	for _, want := range []string{
		`ok    signed in as "Maison", not an administrator`,
		"Assist endpoint answers with 5 tools",
		"camera Garage (camera.garage): fetched 1280x720, 78 KB. Repaired: At byte 2, a comment segment announced 4,094 bytes but really spanned 4,958",
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
	if n := house.FailedLogins(); n != 0 {
		t.Errorf("a plain check cost %d failed logins; the full-API probe must be on demand only", n)
	}
}

func TestProbeFullAPIOnDemand(t *testing.T) {
	out, ok, house := run(t, false, true)
	if !ok || !strings.Contains(out, "/api/mcp refuses this user, as it should") {
		t.Errorf("probe:\n%s", out)
	}
	if n := house.FailedLogins(); n != 1 {
		t.Errorf("the probe cost %d failed logins, want exactly 1", n)
	}
}

func TestAdminTokenRefused(t *testing.T) {
	out, ok, _ := run(t, true, false)
	if ok || !strings.HasPrefix(out, "FAIL") || !strings.Contains(out, "Settings › People") || !strings.Contains(out, `"Administrator" off`) {
		t.Errorf("admin token: ok=%v\n%s", ok, out)
	}
}
