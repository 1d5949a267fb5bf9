package door

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestWrongTokensAreSlowedPerAddress(t *testing.T) {
	h, err := New(Config{Token: "right"}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	if err != nil {
		t.Fatal(err)
	}
	try := func(addr, token string) int {
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.RemoteAddr = addr
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range maxFailures {
		if code := try("192.0.2.1:1000", "guess"); code != 401 {
			t.Fatalf("wrong token %d: %d, want 401", i+1, code)
		}
	}
	if code := try("192.0.2.1:1001", "guess"); code != 429 {
		t.Errorf("wrong token %d from the same address: %d, want 429", maxFailures+1, code)
	}
	if code := try("192.0.2.1:1002", "right"); code != 200 {
		t.Errorf("the right token from a slowed address: %d, want 200", code)
	}
	if code := try("198.51.100.7:1000", "guess"); code != 401 {
		t.Errorf("another address: %d, want 401", code)
	}
}

func TestLimiterWindowAndBound(t *testing.T) {
	clock := time.Unix(0, 0)
	l := newLimiter(2, time.Minute, func() time.Time { return clock })
	if !l.allow("a") || !l.allow("a") || l.allow("a") {
		t.Fatal("the third event in a window should be refused")
	}
	clock = clock.Add(time.Minute)
	if !l.allow("a") {
		t.Error("a new window should start afresh")
	}
	for i := range maxTracked + 5 {
		l.allow(string(rune(i)))
	}
	if n := len(l.counts); n > maxTracked+1 {
		t.Errorf("the limiter remembers %d addresses, more than its bound", n)
	}
}
