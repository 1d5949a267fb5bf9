package main

import (
	"testing"

	"maison/demotest"
	"maison/internal/sdktest"
)

// burstCalls is how many calls an agent makes in one burst, in the test:
// more than listing and inspecting a house takes.
const burstCalls = 200

// TestOfficialSDKsFinishABurst: the official TypeScript and Python SDK
// clients, each in one session, call a tool 200 times as fast as they are
// answered. With the default limit every call gets its result; with no
// limit too; with a limit far below the burst, every call still gets an
// answer, the later ones in words saying when to try again, and the
// session lives on (an HTTP 429 ended the Python SDK's session after 28).
func TestOfficialSDKsFinishABurst(t *testing.T) {
	t.Parallel()
	clients := []struct {
		name string
		get  func(testing.TB) sdktest.Client // or a skip naming what to install
	}{{"TypeScript SDK", sdktest.TypeScript}, {"Python SDK", sdktest.Python}}
	house := demotest.NewHouse(t, demotest.Options{LazyFrames: true}) // no frame is fetched
	for _, c := range []struct {
		name, limit string
		limited     bool
	}{
		{"the default limit", "", false},
		{"no limit", "off", false},
		{"a limit of 20 a minute", "20/1m", true},
	} {
		env := map[string]string{"MAISON_TOKEN": e2eToken}
		if c.limit != "" {
			env["MAISON_RATE_LIMIT"] = c.limit
		}
		for _, client := range clients {
			t.Run(client.name+", "+c.name, func(t *testing.T) {
				t.Parallel()
				sdk := client.get(t)
				url, _, _ := startServe(t, house, env) // each its own budget, as each agent has its own token
				b := sdk.Burst(t.Context(), t, url, e2eToken, "list_cameras", burstCalls)
				t.Logf("%v", b)
				if b.Failed > 0 || b.OK+b.Limited != burstCalls {
					t.Errorf("%v; first failure: %s", b, b.FirstError)
				}
				if limited := b.Limited > 0; limited != c.limited {
					t.Errorf("%d calls told to wait", b.Limited)
				}
			})
		}
	}
}
