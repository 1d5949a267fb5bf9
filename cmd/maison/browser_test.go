package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"maison/internal/browsertest"
)

// A real browser completes the sign-in page: headless Chromium reads it,
// types the password, approves, and lands on the client's loopback
// callback with a code that buys a working token.
func TestBrowserCompletesTheLogin(t *testing.T) {
	t.Parallel()
	node, env := browsertest.Tools(t)
	issuer, logs := startOAuthDemo(t, nil)
	got := make(chan url.Values, 1)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/callback" {
			select {
			case got <- r.URL.Query():
			default:
			}
		}
		w.Write([]byte("You can close this window."))
	}))
	defer cb.Close()
	c := newConnector(t, issuer)
	_, tokenURL, register := c.discover()
	req, _ := http.NewRequest("POST", register, strings.NewReader(`{"redirect_uris":["http://127.0.0.1/callback"],"client_name":"Claude Code","token_endpoint_auth_method":"none"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, b := c.do(req)
	if resp.StatusCode != 201 {
		t.Fatalf("register: %d %s", resp.StatusCode, b)
	}
	client := string(b[bytes.Index(b, []byte(`"client_id":"`))+13:])
	client = client[:strings.Index(client, `"`)]
	v := make([]byte, 32)
	rand.Read(v)
	verifier := base64.RawURLEncoding.EncodeToString(v)
	sum := sha256.Sum256([]byte(verifier))
	redirect := cb.URL + "/callback"
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect}, "state": {"browser"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}, "resource": {issuer + "/mcp"}}
	for _, action := range []string{"deny", "approve"} {
		cmd := exec.CommandContext(t.Context(), node, filepath.Join("..", "..", "oauth", "testdata", "browser", "login.cjs"), issuer+"/authorize?"+q.Encode())
		cmd.Env = append(env, "MAISON_OPERATOR_PASSWORD="+e2ePassword, "MAISON_LOGIN_ACTION="+action)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the browser (%s): %v\n%s\nmaison's logs:\n%s", action, err, stderr.String(), logs.String())
		}
		t.Logf("%s: %s", action, strings.TrimSpace(stderr.String()))
		params := <-got
		if params.Get("iss") != issuer || params.Get("state") != "browser" || !strings.HasPrefix(string(out), redirect) {
			t.Fatalf("%s: sent back with %v to %s", action, params, out)
		}
		if action == "deny" {
			if params.Get("error") != "access_denied" || params.Get("code") != "" {
				t.Errorf("deny: %v", params)
			}
			continue
		}
		tok := c.token(tokenURL, url.Values{"grant_type": {"authorization_code"}, "code": {params.Get("code")}, "redirect_uri": {redirect},
			"code_verifier": {verifier}, "client_id": {client}, "resource": {issuer + "/mcp"}})
		checkTools(t, connect(t, issuer+"/mcp", tok["access_token"].(string), "2025-11-25"))
	}
}
