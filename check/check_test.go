package check_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
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
		"Not resized or re-encoded: already within client limits.",
		"camera Backyard (camera.backyard): fetched 3840x2160",
		"Fitted to 1429x804",
		"note  camera Porch (camera.porch): turned off",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Repaired:") && strings.Contains(line, "unchanged") {
			t.Errorf("a repaired camera is said to be unchanged, which contradicts the repair: %s", line)
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
	// Home Assistant 2026.10 and later (the demo's default) refuse with 403,
	// which counts no failed login.
	if failed != 0 {
		t.Errorf("the probe cost %d failed logins, want none", failed)
	}
}

func TestAdminTokenRefused(t *testing.T) {
	out, ok, _ := run(t, true, false)
	if ok || !strings.HasPrefix(out, "FAIL") || !strings.Contains(out, "Settings › People") || !strings.Contains(out, `"Administrator" off`) {
		t.Errorf("admin token: ok=%v\n%s", ok, out)
	}
}

func TestCheckFollowsTheSettings(t *testing.T) {
	t.Parallel()
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

// checkAt checks the Home Assistant said to be at url, with a token no
// server here reads, and a first contact bounded by contact.
func checkAt(ctx context.Context, url string, contact time.Duration) (string, bool) {
	var out strings.Builder
	ok := check.Run(ctx, check.Config{Bridge: bridge.Config{URL: url, Token: "not-a-real-token"}, ContactTimeout: contact}, &out)
	return out.String(), ok
}

// listen opens a loopback listener closed when the test ends.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// wants reports every wanted phrase out lacks and every unwanted one it has.
func wants(t *testing.T, out string, want, unwanted []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("check output lacks %q:\n%s", w, out)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(out, u) {
			t.Errorf("check output says %q:\n%s", u, out)
		}
	}
}

// A wrong port or a stuck proxy accepts the connection and never answers:
// check gives up on its first contact within its own bound, not the full
// request timeout, and says to check the address rather than to wait.
func TestSilentAddress(t *testing.T) {
	t.Parallel()
	ln := listen(t)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }() // reads, never answers
		}
	}()
	out, ok := checkAt(t.Context(), "http://"+ln.Addr().String(), 200*time.Millisecond)
	if ok {
		t.Errorf("a silent address passes the check:\n%s", out)
	}
	wants(t, out, []string{
		"FAIL  Home Assistant at http://" + ln.Addr().String(),
		"accepted the connection but did not answer as Home Assistant does",
		"does not fix itself by waiting",
		"host and port in MAISON_HA_URL",
		"http://homeassistant.local:8123",
		"proxy that holds connections",
	}, []string{"took too long", "Try again in a moment", "keeps retrying", "not-a-real-token"})
}

// Something that answers plain HTTP, but not as Home Assistant does, is
// named as what it is: not Home Assistant at this address.
func TestNotHomeAssistant(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		status int
	}{{"a web page on every path", http.StatusOK}, {"404 everywhere", http.StatusNotFound}} {
		t.Run(c.name, func(t *testing.T) {
			ln := listen(t)
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(c.status)
				io.WriteString(w, "<html><body>My router</body></html>")
			})}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
			out, ok := checkAt(t.Context(), "http://"+ln.Addr().String(), 0)
			if ok {
				t.Errorf("another web server passes the check:\n%s", out)
			}
			wants(t, out, []string{
				"No Home Assistant answers at MAISON_HA_URL",
				"host and port",
				"http://homeassistant.local:8123",
			}, []string{"did not expect", "report it", "Try again", "not-a-real-token"})
		})
	}
}

// Nothing listens at the address: check runs once, so it says to run it
// again, not that maison keeps retrying, which only a running maison does.
func TestUnreachableSaysRunCheckAgain(t *testing.T) {
	t.Parallel()
	ln := listen(t)
	url := "http://" + ln.Addr().String()
	ln.Close()
	out, ok := checkAt(t.Context(), url, 0)
	if ok {
		t.Errorf("an address where nothing listens passes the check:\n%s", out)
	}
	wants(t, out, []string{
		"FAIL  Home Assistant at " + url + ": unreachable.",
		"Check that MAISON_HA_URL points at Home Assistant",
		"Run maison check again once it is up.",
	}, []string{"keeps retrying", "reconnects by itself"})
}

// A check stopped before it finished (Ctrl-C) concludes nothing: it says
// so, and never that Home Assistant is fine, whether it was stopped before
// reaching Home Assistant or halfway through.
func TestStoppedCheck(t *testing.T) {
	t.Parallel()
	house := sharedHouse()
	before, cancelBefore := context.WithCancel(t.Context())
	cancelBefore()
	halfway, cancelHalfway := context.WithCancel(t.Context())
	defer cancelHalfway()
	for _, c := range []struct {
		name string
		ctx  context.Context
		cfg  bridge.Config
	}{
		{"before reaching Home Assistant", before, bridge.Config{}},
		// The camera service is built once Home Assistant is reached, before
		// the Assist endpoint is asked.
		{"halfway", halfway, bridge.Config{Camera: func(*camera.Config) { cancelHalfway() }}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.URL, c.cfg.Token = house.URL, house.UserToken()
			var out strings.Builder
			if check.Run(c.ctx, check.Config{Bridge: c.cfg}, &out) {
				t.Errorf("a stopped check passes:\n%s", out.String())
			}
			wants(t, out.String(), []string{
				"the check was stopped before it finished, so it concluded nothing about Home Assistant: run maison check again",
			}, []string{"FAIL", "Nothing is wrong", "canceled", "abandoned"})
		})
	}
}

// A camera Home Assistant says is unavailable answers 500 (as the real
// 2026.11 does): the check notes it, as it does a camera turned off, and
// passes; it is the camera's trouble, not maison's setup.
func TestUnavailableCameraIsANote(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true})
	house.SetState("camera.front_door", "unavailable", nil)
	var out strings.Builder
	ok := check.Run(t.Context(), check.Config{Bridge: bridge.Config{URL: house.URL, Token: house.UserToken()}}, &out)
	if !ok {
		t.Errorf("an unavailable camera fails the check:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "note  camera Front Door (camera.front_door): unavailable in Home Assistant") {
		t.Errorf("the unavailable camera is not noted as such:\n%s", out.String())
	}
}
