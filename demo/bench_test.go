package demo_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"maison/demo"
)

// BenchmarkCameraProxy measures serving the cached 1080p frame over HTTP.
func BenchmarkCameraProxy(b *testing.B) {
	h := demo.New(demo.Options{})
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	h.Frame("camera.front_door") // render once, outside the loop
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/camera_proxy/camera.front_door", nil)
		req.Header.Set("Authorization", "Bearer "+h.UserToken())
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkAssistCall measures one GetLiveContext call on /api/mcp/assist.
func BenchmarkAssistCall(b *testing.B) {
	h := demo.New(demo.Options{})
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"GetLiveContext","arguments":{}}}`
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/mcp/assist", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+h.UserToken())
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkFirstFrame measures rendering and encoding each camera's frame
// once, as the first fetch does.
func BenchmarkFirstFrame(b *testing.B) {
	for _, id := range []string{"camera.front_door", "camera.garage", "camera.backyard"} {
		b.Run(id, func(b *testing.B) {
			for b.Loop() {
				served, _, _ := demo.New(demo.Options{}).Frame(id)
				b.ReportMetric(float64(len(served)), "bytes")
			}
		})
	}
}
