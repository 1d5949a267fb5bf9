package homeassistant

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestErrorForms(t *testing.T) {
	t.Parallel()
	e := &Error{Kind: KindCameraOff, Op: "GET /api/camera_proxy/camera.x", Status: 503}
	if got, want := e.Error(), "homeassistant: GET /api/camera_proxy/camera.x: 503 camera off"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	cause := errors.New("auth_invalid")
	wrapped := fmt.Errorf("connect: %w", &Error{Kind: KindAuth, Op: "websocket auth", Err: cause})
	var he *Error
	if !errors.As(wrapped, &he) || he.Kind != KindAuth || !errors.Is(wrapped, cause) {
		t.Errorf("errors.As/Is through wrapping failed: %v", wrapped)
	}
	for k := KindUnreachable; k <= KindProtocol; k++ {
		e := &Error{Kind: k, Op: "op"}
		if s := e.Error(); !strings.HasPrefix(s, "homeassistant: op: ") {
			t.Errorf("%v: Error() = %q", k, s)
		}
	}
}

func TestClassifyNetErr(t *testing.T) {
	t.Parallel()
	refused := fmt.Errorf("dial: %w", syscall.ECONNREFUSED)
	if k := classifyNetErr("op", refused, false).Kind; k != KindUnreachable {
		t.Errorf("refused before connecting = %v", k)
	}
	if k := classifyNetErr("op", refused, true).Kind; k != KindRestarting {
		t.Errorf("refused after connecting = %v", k)
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	ok := Config{URL: "http://homeassistant.local:8123", Token: "abc"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for name, tc := range map[string]struct {
		cfg  Config
		want string
	}{
		"no url":     {Config{Token: "x"}, "MAISON_HA_URL"},
		"bad scheme": {Config{URL: "ftp://h", Token: "x"}, "MAISON_HA_URL"},
		"no host":    {Config{URL: "http://", Token: "x"}, "MAISON_HA_URL"},
		"no token":   {Config{URL: "http://h:8123"}, "MAISON_HA_TOKEN"},
		"negative":   {Config{URL: "http://h:8123", Token: "x", PingInterval: -1}, "PingInterval"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want mention of %s", name, err, tc.want)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New with empty config: want error")
	}
}

// Callers tell the kind with errors.Is, through any wrapping, and reach the
// code Home Assistant answered a command with through errors.As.
func TestErrorsIsAndAs(t *testing.T) {
	t.Parallel()
	slow := fmt.Errorf("asking the history: %w", classifyNetErr("websocket history", fmt.Errorf("read: %w", context.DeadlineExceeded), true))
	if !errors.Is(slow, KindTimeout) || errors.Is(slow, KindUnreachable) {
		t.Errorf("a deadline: Is(KindTimeout) = %v, Is(KindUnreachable) = %v", errors.Is(slow, KindTimeout), errors.Is(slow, KindUnreachable))
	}
	if !errors.Is(slow, context.DeadlineExceeded) {
		t.Error("the deadline itself is lost")
	}
	missing := fmt.Errorf("camera: %w", resultError("websocket camera/stream", &wsError{Code: "not_found", Message: "Entity not found"}))
	if !errors.Is(missing, KindNotFound) {
		t.Errorf("%v is not KindNotFound", missing)
	}
	var ce *CommandError
	if !errors.As(missing, &ce) || ce.Code != "not_found" || ce.Message != "Entity not found" {
		t.Errorf("the command's code: %#v", ce)
	}
	if errors.Is(errors.New("other"), KindNotFound) || errors.Is(nil, KindNotFound) {
		t.Error("a foreign error has a kind")
	}
	if got := fmt.Sprintf("%v %s", KindAuth, KindAuth); got != "unauthorized unauthorized" {
		t.Errorf("a kind prints as %q", got)
	}
}

// A URL or token a person filled in wrongly is refused with what to do, and
// the refusal never quotes a password or the token.
func TestConfigValidateHostileSettings(t *testing.T) {
	t.Parallel()
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJhYmMifQ.sig-nature_1"
	for name, tc := range map[string]struct {
		cfg    Config
		want   []string
		secret string
	}{
		"credentials, unparsable": {Config{URL: "http://maison:hunter2@ha:8123/ a%zz", Token: jwt}, []string{"MAISON_HA_URL", "…@ha:8123"}, "hunter2"},
		"credentials, ftp":        {Config{URL: "ftp://maison:hunter2@ha", Token: jwt}, []string{"http:// or https://"}, "hunter2"},
		"credentials, no scheme":  {Config{URL: "maison:hunter2@ha:8123", Token: jwt}, []string{"http:// or https://"}, "hunter2"},
		"the Supervisor's proxy":  {Config{URL: "http://supervisor/core", Token: jwt}, []string{"Supervisor's own token", "http://homeassistant:8123"}, ""},
		"the Supervisor, a port":  {Config{URL: "http://Supervisor:80/core/", Token: jwt}, []string{"Supervisor's own token"}, ""},
		"a huge token":            {Config{URL: "http://ha:8123", Token: strings.Repeat(jwt, 600)}, []string{"MAISON_HA_TOKEN", "characters long"}, jwt},
		"quoted token":            {Config{URL: "http://ha:8123", Token: `"` + jwt + `"`}, []string{"MAISON_HA_TOKEN", "quotes"}, jwt},
		"a control character":     {Config{URL: "http://ha:8123", Token: jwt + "\x00"}, []string{"MAISON_HA_TOKEN"}, jwt},
		"a smart quote":           {Config{URL: "http://ha:8123", Token: "“" + jwt + "”"}, []string{"MAISON_HA_TOKEN", "quotes"}, jwt},
	} {
		err := tc.cfg.Validate()
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", name, err, w)
			}
		}
		if tc.secret != "" && strings.Contains(err.Error(), tc.secret) {
			t.Errorf("%s: the refusal quotes the secret: %v", name, err)
		}
	}
	for _, u := range []string{"http://homeassistant:8123/", "https://[fd00::1]:8123", "http://ha.local:8123/proxied/ha", "http://supervisor.example.com:8123"} {
		if err := (Config{URL: u, Token: jwt}).Validate(); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// A URL with a page's path, as copied from the browser's address bar, finds
// no websocket API: the advice says to give Home Assistant's address alone,
// not the model's "check the spelling of the name".
func TestWebsocketNotFoundSaysTheURL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	cfg := Config{URL: srv.URL + "/lovelace/0", Token: "abc"}.withDefaults()
	base, _ := url.Parse(cfg.URL)
	_, _, err := dialSession(context.Background(), &cfg, base, false)
	var he *Error
	if !errors.As(err, &he) || he.Kind != KindNotFound || he.Case() != CaseNotHomeAssistant {
		t.Errorf("a URL with a page's path: %v, want no Home Assistant at the address", err)
	}
}

// A certificate Home Assistant's address does not match (the app's
// https://homeassistant:8123 with a certificate for a public name, or one
// signed by no known authority) is not said to pass by waiting.
func TestCertificateErrorIsNotTransient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	srv.Config.ErrorLog = nil
	cfg := Config{URL: srv.URL, Token: "abc"}.withDefaults()
	base, _ := url.Parse(cfg.URL)
	_, _, err := dialSession(context.Background(), &cfg, base, false)
	var he *Error
	if !errors.As(err, &he) {
		t.Fatalf("%v is not an *Error", err)
	}
	if he.Kind != KindUnreachable || he.Case() != CaseCertificate {
		t.Errorf("a certificate refused: %v (case %v), want a certificate's", err, he.Case())
	}
}

// Something that accepts the connection and never answers is given up
// within HandshakeTimeout, not ConnectTimeout, as unreachable with its own
// words; one that answers the upgrade with a page is no Home Assistant.
func TestHandshakeWithoutHomeAssistant(t *testing.T) {
	t.Parallel()
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer silent.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>router</html>")) }))
	defer page.Close()
	for _, c := range []struct {
		url       string
		handshake time.Duration // the page answers at once: any machine is in time
		kind      Kind
		cas       Case
	}{
		{silent.URL, 100 * time.Millisecond, KindUnreachable, CaseSilent},
		{page.URL, time.Minute, KindNotFound, CaseNotHomeAssistant},
	} {
		cl, err := New(Config{URL: c.url, Token: "t", ConnectTimeout: time.Hour, HandshakeTimeout: c.handshake})
		if err != nil {
			t.Fatal(err)
		}
		err = cl.Connect(t.Context())
		var he *Error
		if !errors.As(err, &he) || he.Kind != c.kind || he.Case() != c.cas {
			t.Errorf("%s: %v, want %v of case %v", c.url, err, c.kind, c.cas)
		}
	}
}
