package oauth

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// A wrong password says, before the lockout, how many tries are left; the
// approval page's proof counts in the same memory as the sign-in page's.
func TestTriesLeftAreSaidBeforeTheLockout(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	client := r.register(claudeCallback)
	_, challenge := pkce()
	p := r.open(r.authorizeURL(authz{client: client, redirect: claudeCallback, challenge: challenge}), nil)
	_, _, body := r.submit(p, "guess 1", "approve", []string{ScopeRead}, nil)
	if !strings.Contains(string(body), "4 tries left") {
		t.Errorf("the first wrong password: %s", body)
	}
	for i := 2; i <= 3; i++ {
		r.submit(p, "guess "+itoa(i), "approve", []string{ScopeRead}, nil)
	}
	// The fourth wrong one, on the approval page, from the same address.
	req := httptest.NewRequest("POST", "/approve", nil)
	req.RemoteAddr = "127.0.0.1:5555" // the rig's browser, as the server sees it
	if proof := r.as.ProveOperator(req, "guess 4"); !proof.WrongPassword || proof.Left != 1 {
		t.Errorf("the approval page's fourth wrong password: %+v", proof)
	}
	_, _, body = r.submit(p, "guess 5", "approve", []string{ScopeRead}, nil)
	if !strings.Contains(string(body), "Wrong password.") || !strings.Contains(string(body), "Try again in 30 minutes") || strings.Contains(string(body), `type="password"`) {
		t.Errorf("the fifth wrong password: %s", body)
	}
	if proof := r.as.ProveOperator(req, testPassword); proof.Wait == 0 || proof.By != "" {
		t.Errorf("the right password on the approval page from a locked-out address: %+v", proof)
	}
}
