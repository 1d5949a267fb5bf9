package main

import (
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
	"maison/demotest"
	"maison/internal/redistest"
)

// BenchmarkStateStores measures, for each state store, camera_snapshot
// (which needs no store) and a confirmation's round trip (a proposal, then
// its code redeemed: one claim in the store), through maison serve over
// HTTP on loopback against a demo house, with 8 clients at once.
//
//	go test ./cmd/maison -run '^$' -bench StateStores -benchtime 3s
func BenchmarkStateStores(b *testing.B) {
	house := demo.New(demo.Options{})
	ha := httptest.NewServer(house.Handler())
	b.Cleanup(ha.Close)
	stores := []struct{ name, key, value string }{
		{"memory", "", ""},
		{"file", "MAISON_STATE_DIR", b.TempDir()},
		{"redis", "MAISON_STATE_URL", ""},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			env := map[string]string{
				"MAISON_LISTEN": "127.0.0.1:0", "MAISON_HA_URL": ha.URL, "MAISON_HA_TOKEN": house.UserToken(),
				"MAISON_TOKEN": e2eToken, "MAISON_CONFIRM_KEY": e2eConfirmKey, "MAISON_RATE_LIMIT": "off",
				"MAISON_LOG_LEVEL": "error",
			}
			switch st.name {
			case "file":
				env[st.key] = st.value
			case "redis":
				env[st.key] = redistest.Start(b).URL
			}
			u, _ := runMaison(b, "serve", env)
			sessions := make(chan *mcp.ClientSession, 8)
			for range 8 {
				sessions <- connect(b, u, e2eToken, "")
			}
			b.Run("camera_snapshot", func(b *testing.B) {
				b.SetParallelism(4) // 8 clients on 2 cores
				b.RunParallel(func(pb *testing.PB) {
					cs := <-sessions
					defer func() { sessions <- cs }()
					for pb.Next() {
						if res := demotest.Call(b, cs, "camera_snapshot", map[string]any{"camera": "garage"}); res.IsError {
							b.Fatal(demotest.Text(res))
						}
					}
				})
			})
			b.Run("confirmation", func(b *testing.B) {
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					cs := <-sessions
					defer func() { sessions <- cs }()
					lock := map[string]any{"name": "Front Door Lock"}
					for pb.Next() {
						c := codeRE.FindString(demotest.Text(demotest.Call(b, cs, "turn_off", lock)))
						res := demotest.Call(b, cs, "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": c})
						if c == "" || res.IsError {
							b.Fatal(demotest.Text(res))
						}
					}
				})
			})
		})
	}
}
