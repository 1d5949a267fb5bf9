package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// With a public URL and a password, maison demo serves the approval page:
// a link without a reference is answered with a page that says what to do,
// framed by no one.
func TestDemoServesTheApprovalPage(t *testing.T) {
	issuer, _ := startOAuthDemo(t, nil)
	resp, err := http.Get(issuer + "/approve")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "Nothing was done") || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("/approve: %d %v %s", resp.StatusCode, resp.Header, body)
	}
}

// MAISON_CONFIRM=approval where no page can be served is refused at start,
// saying what is missing.
func TestApprovalWithoutAPageIsRefused(t *testing.T) {
	for _, env := range []map[string]string{
		{"MAISON_CONFIRM": "approval"},
		{"MAISON_CONFIRM": "both", "MAISON_PUBLIC_URL": "https://maison.example.com"},
	} {
		c, err := loadConfig("demo", nil, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.approvalOrigin(true); err == nil || !strings.Contains(err.Error(), "MAISON_OPERATOR_PASSWORD") {
			t.Errorf("%v: %v", env, err)
		}
	}
	c, _ := loadConfig("stdio", []string{"--demo"}, func(k string) string {
		return map[string]string{"MAISON_CONFIRM": "approval", "MAISON_PUBLIC_URL": "https://maison.example.com", "MAISON_OPERATOR_PASSWORD": e2ePassword}[k]
	})
	if _, err := c.approvalOrigin(false); err == nil {
		t.Error("stdio accepted MAISON_CONFIRM=approval")
	}
	if _, err := loadConfig("demo", nil, func(k string) string { return map[string]string{"MAISON_CONFIRM": "maybe"}[k] }); err == nil {
		t.Error("MAISON_CONFIRM=maybe accepted")
	}
}
