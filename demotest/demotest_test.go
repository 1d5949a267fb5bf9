package demotest_test

import (
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demotest"
)

// A rig is ready: its session lists maison's tools, its HTTP door serves
// them to a client sending a bearer token, and Close stops the house.
func TestRig(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{LazyFrames: true})
	res, err := r.Session.ListTools(t.Context(), nil)
	if err != nil || len(res.Tools) < 9 {
		t.Fatalf("tools/list in memory: %v %v", res, err)
	}
	const token = "a-token-the-gate-below-asks-for"
	url := r.ServeHTTP(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.Header.Get("Authorization") != "Bearer "+token {
				http.Error(w, "no token", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, req)
		})
	})
	cs := demotest.Connect(t, url, token, "2025-11-25")
	if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_cameras"}); err != nil || res.IsError {
		t.Errorf("list_cameras over HTTP: %v %v", res, err)
	}
	r.Close()
	if resp, err := http.Get(r.URL + "/api/"); err == nil {
		resp.Body.Close()
		t.Errorf("the house answers after Close: %d", resp.StatusCode)
	}
}
