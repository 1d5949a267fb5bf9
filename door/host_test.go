package door

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A page that rebinds its own name to maison's address reaches it with
// that name as Host and its own origin as Origin: maison refuses both, on
// /mcp in JSON-RPC and on the sign-in paths in a page, and still answers
// to its own names, to IP addresses (a person on the LAN) and to a tunnel
// that brings the public name to loopback.
func TestHostAndOriginAgainstRebinding(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{Hosts: []string{"maison.example.com", "nas.lan"},
		OAuth: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("sign-in page")) }), OAuthPaths: []string{"/authorize", "/token", "/register", "/.well-known/oauth-authorization-server"}})
	for _, c := range []struct {
		path, host, origin string
		want               int
	}{
		{"/mcp", "evil.example.com", "http://evil.example.com", 403},
		{"/mcp", "evil.example.com:8765", "", 403},
		{"/mcp", "127.0.0.1:8765", "http://evil.example.com", 403},
		{"/mcp", "127.0.0.1:8765", "null", 403},
		{"/mcp", "192.168.1.20:8765", "http://192.168.1.7:3000", 403}, // another device's page
		{"/mcp", "localhost:8765", "http://localhost:6274", 200},      // the Inspector's page
		{"/mcp", "127.0.0.1:8765", "", 200},
		{"/mcp", "[::1]:8765", "", 200},
		{"/mcp", "maison.example.com", "https://maison.example.com", 200}, // through the tunnel
		{"/mcp", "NAS.lan.:8765", "", 200},
		{"/mcp", "192.168.1.20:8765", "", 200},                         // the LAN address
		{"/mcp", "192.168.1.20:8765", "http://192.168.1.20:8765", 200}, // a page maison served itself
		{"/mcp", "[fd00::20]:8765", "", 200},
		{"/authorize", "evil.example.com", "", 403},
		{"/authorize", "127.0.0.1:8765", "http://evil.example.com", 403},
		{"/token", "evil.example.com", "http://evil.example.com", 403},
		{"/register", "evil.example.com", "", 403},
		{"/.well-known/oauth-authorization-server", "evil.example.com", "", 403},
		{"/nowhere", "evil.example.com", "", 403},
		{"/authorize", "maison.example.com", "https://maison.example.com", 200},
		{"/authorize", "192.168.1.20:8765", "http://192.168.1.20:8765", 200},
		{"/healthz", "evil.example.com", "", 200}, // a probe reveals nothing
	} {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765"+c.path, strings.NewReader(listBody))
		req.Host = c.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer right")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.path == "/healthz" {
			req.Method = "GET"
		}
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, req)
		what := c.path + " Host " + c.host + " Origin " + c.origin
		if rec.Code != c.want {
			t.Errorf("%s: %d, want %d: %s", what, rec.Code, c.want, rec.Body.String())
			continue
		}
		if c.want != 403 {
			continue
		}
		var msg string
		if c.path == "/mcp" {
			_, msg, _ = rpcError(t, what, rec)
		} else {
			msg = rec.Body.String()
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("%s: Content-Type %q, want a plain page", what, ct)
			}
		}
		if !strings.Contains(msg, "Nothing was done") || !strings.Contains(msg, "MAISON_ALLOWED_HOSTS") {
			t.Errorf("%s: the words do not say what happened and what to do: %q", what, msg)
		}
	}
}

// Every Origin header is checked: a foreign one refuses the request
// whether it comes first or after maison's own. A port that is no port
// makes an Origin foreign too.
func TestEveryOriginChecked(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{})
	for _, origins := range [][]string{
		{"http://127.0.0.1:8765", "http://evil.example.com"},
		{"http://evil.example.com", "http://127.0.0.1:8765"},
		{"http://localhost:99999"},
	} {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(listBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer right")
		for _, o := range origins {
			req.Header.Add("Origin", o)
		}
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, req)
		if code, msg, _ := rpcError(t, "Origin", rec); rec.Code != 403 || code != codeForbidden {
			t.Errorf("Origins %q: %d %q, want 403", origins, rec.Code, msg)
		}
	}
}

// The refusal speaks the configured language.
func TestHostRefusedInFrench(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{Lang: "fr"})
	rec := post(d, "192.0.2.1:1", "right", listBody, "Origin", "http://evil.example.com")
	if _, msg, _ := rpcError(t, "French", rec); rec.Code != 403 || !strings.Contains(msg, "Rien n'a été fait") {
		t.Errorf("%d %q", rec.Code, msg)
	}
}

func TestParseHosts(t *testing.T) {
	t.Parallel()
	got, err := ParseHosts(" Maison.LAN , nas.local:8765,,[fd00::1]:1 ")
	if err != nil || strings.Join(got, ",") != "maison.lan,nas.local,fd00::1" {
		t.Errorf("%q %v", got, err)
	}
	for _, bad := range []string{"http://maison.lan", "maison.lan/mcp", "*.lan", "a b"} {
		if _, err := ParseHosts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
