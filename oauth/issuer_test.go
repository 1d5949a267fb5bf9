package oauth

import (
	"net/url"
	"testing"
)

// Two maisons that share MAISON_SECRET but not MAISON_PUBLIC_URL: what one
// signs for its own resource is refused by the other, with invalid_grant at
// /token and at the bearer check, so a refresh token revoked on one is not
// spent on the other.
func TestAnotherMaisonsGrantsAreRefused(t *testing.T) {
	t.Parallel()
	here, there := newRig(t, nil), newRig(t, nil)
	if here.url == there.url {
		t.Fatal("the two rigs share an issuer")
	}
	client, code, verifier := there.grant(claudeCallback, []string{ScopeRead})
	redeem := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {claudeCallback},
		"code_verifier": {verifier}, "client_id": {client}}
	if status, out := here.token(redeem); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("another maison's code: %d %v, want 400 invalid_grant", status, out["error"])
	}
	status, tok := there.token(redeem)
	if status != 200 {
		t.Fatalf("the code at its own maison: %d %v", status, tok["error_description"])
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {client}}
	if status, out := here.token(refresh); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("another maison's refresh token: %d %v, want 400 invalid_grant", status, out["error"])
	}
	if status := here.mcp(tok["access_token"].(string)); status != 401 {
		t.Errorf("another maison's access token at /mcp: %d, want 401", status)
	}
	if status := there.mcp(tok["access_token"].(string)); status != 200 {
		t.Errorf("the access token at its own maison: %d", status)
	}
	if status, out := there.token(refresh); status != 200 {
		t.Errorf("the refresh token at its own maison: %d %v", status, out["error_description"])
	}
}
