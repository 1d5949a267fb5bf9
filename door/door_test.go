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
	// Once slowed, even the right token waits: a guesser learns nothing more.
	if code := try("192.0.2.1:1002", "right"); code != 429 {
		t.Errorf("the right token from a slowed address: %d, want 429 until the minute is over", code)
	}
	if code := try("198.51.100.7:1000", "guess"); code != 401 {
		t.Errorf("another address: %d, want 401", code)
	}
}

func TestLimiterWindowAndBound(t *testing.T) {
	clock := time.Unix(0, 0)
	l := newLimiter(2, time.Minute, func() time.Time { return clock })
	l.count("a")
	if l.over("a") {
		t.Fatal("one event is under a limit of two")
	}
	l.count("a")
	if !l.over("a") {
		t.Fatal("two events reach a limit of two")
	}
	clock = clock.Add(time.Minute)
	if l.over("a") {
		t.Error("a new window should start afresh")
	}
	for i := range maxTracked + 5 {
		l.count(string(rune(i)))
	}
	if n := len(l.counts); n > maxTracked+1 {
		t.Errorf("the limiter remembers %d addresses, more than its bound", n)
	}
}

// Without a token, only this machine may call: a page that rebinds its own
// name to 127.0.0.1 is refused by its Host or its Origin.
func TestNoAuthAnswersOnlyToLocalhost(t *testing.T) {
	h, err := New(Config{NoAuth: true}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:8765", "", 200},
		{"localhost:8765", "http://localhost:3000", 200},
		{"[::1]:8765", "", 200},
		{"evil.example:8765", "http://evil.example:8765", 403},
		{"evil.example:8765", "", 403},
		{"127.0.0.1:8765", "http://evil.example:8765", 403},
	} {
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.Host = c.host
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("Host %s, Origin %q: %d, want %d", c.host, c.origin, rec.Code, c.want)
		}
	}
}
