package door

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maison/accesslog"
	"maison/internal/testkit"
	"maison/voice"
)

const listBody = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`

// okDoor is a door with the token "right" in front of a handler that
// answers 200 with a JSON-RPC result.
func okDoor(t *testing.T, cfg Config) *Door {
	t.Helper()
	if cfg.Token == "" && !cfg.NoAuth {
		cfg.Token = "right"
	}
	d, err := New(cfg, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func post(h http.Handler, addr, token, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(body))
	req.RemoteAddr = addr
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// rpcError reads a JSON-RPC error body, failing the test when the body is
// anything else.
func rpcError(t *testing.T, what string, rec *httptest.ResponseRecorder) (code int, msg string, id json.RawMessage) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q, want application/json; body %q", what, ct, rec.Body.String())
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Error.Message == "" {
		t.Errorf("%s: not a JSON-RPC error body: %q", what, rec.Body.String())
		return 0, "", nil
	}
	return r.Error.Code, r.Error.Message, r.ID
}

// Wrong tokens from one address are slowed, but a right token from that
// very address is never refused: behind a tunnel every client shares one
// address, and a stranger must not be able to lock the owner out.
func TestRightTokenNeverRefused(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{})
	for i := range maxFailures {
		if rec := post(d, "192.0.2.1:1000", "guess", listBody); rec.Code != 401 {
			t.Fatalf("wrong token %d: %d, want 401", i+1, rec.Code)
		}
	}
	rec := post(d, "192.0.2.1:1001", "guess", listBody)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("wrong token %d from the same address: %d, Retry-After %q; want 429 with Retry-After", maxFailures+1, rec.Code, rec.Header().Get("Retry-After"))
	}
	rpcError(t, "429 for wrong tokens", rec)
	if rec := post(d, "192.0.2.1:1002", "right", listBody); rec.Code != 200 {
		t.Errorf("the right token from the slowed address: %d, want 200", rec.Code)
	}
	if rec := post(d, "198.51.100.7:1000", "guess", listBody); rec.Code != 401 {
		t.Errorf("another address: %d, want 401", rec.Code)
	}
}

// A flood of wrong tokens from more addresses than the table holds grows
// no memory and refuses no right token from a newcomer.
func TestTablesBoundedWithoutRefusingTheRightToken(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{})
	for i := range maxTracked + 500 {
		addr := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}).String() + ":1"
		post(d, addr, "guess", "")
	}
	if n := d.failures.tracked(); n > maxTracked {
		t.Errorf("the failure table holds %d addresses, more than its bound %d", n, maxTracked)
	}
	if rec := post(d, "203.0.113.50:1", "right", listBody); rec.Code != 200 {
		t.Errorf("a newcomer with the right token after the flood: %d, want 200", rec.Code)
	}
	// The first addresses were forgotten, which only makes them freer.
	if rec := post(d, "10.0.0.0:1", "guess", listBody); rec.Code != 401 {
		t.Errorf("a forgotten address: %d, want 401", rec.Code)
	}
}

func TestLimiterRefillsAndBounds(t *testing.T) {
	t.Parallel()
	clock := time.Unix(0, 0)
	l := newLimiter(2, time.Minute, func() time.Time { return clock })
	l.max = 3
	if ok, _ := l.take("a", 1); !ok {
		t.Fatal("a full bucket refused one")
	}
	if ok, _ := l.take("a", 2); ok {
		t.Fatal("a bucket with one left gave two")
	}
	l.take("a", 1)
	over, wait := l.over("a")
	if !over || wait != 30*time.Second {
		t.Fatalf("an empty bucket: over %v, wait %v; want true, 30s", over, wait)
	}
	clock = clock.Add(30 * time.Second)
	if over, _ := l.over("a"); over {
		t.Error("after half the period one event should be back")
	}
	if ok, wait := l.take("b", 5); ok || wait != 0 {
		t.Errorf("more than the burst on a full bucket: %v, wait %v; want refused with no wait to speak of", ok, wait)
	}
	for _, k := range []string{"c", "d", "e", "f"} {
		l.take(k, 1)
	}
	if n := l.tracked(); n != 3 {
		t.Errorf("tracked %d keys, want the bound 3", n)
	}
}

func TestClientAddress(t *testing.T) {
	t.Parallel()
	if _, err := ClientAddress("X-Forwarded-For", nil); err == nil {
		t.Error("X-Forwarded-For accepted as a trusted header")
	}
	sock, _ := ClientAddress("", nil)
	cf, err := ClientAddress("cf-connecting-ip", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		remote  string
		headers map[string][]string
		sock    string
		cf      string
	}{
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"198.51.100.4"}}, "127.0.0.1", "198.51.100.4"},
		{"10.1.2.3:5000", map[string][]string{"Cf-Connecting-Ip": {" 198.51.100.4 "}}, "10.1.2.3", "198.51.100.4"},
		// From the internet directly, the header is whatever the client wrote.
		{"203.0.113.9:5000", map[string][]string{"Cf-Connecting-Ip": {"198.51.100.4"}}, "203.0.113.9", "203.0.113.9"},
		{"127.0.0.1:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.4, 10.0.0.1"}}, "127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"1.2.3.4", "5.6.7.8"}}, "127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"not an address"}}, "127.0.0.1", "127.0.0.1"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"2001:db8:1:2:3:4:5:6"}}, "127.0.0.1", "2001:db8:1:2::/64"},
		{"[2001:db8::9]:5000", nil, "2001:db8::/64", "2001:db8::/64"},
		// Zones name an interface, not a client: one key whatever the zone.
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"::1%eth0"}}, "127.0.0.1", "::1"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"::1%1"}}, "127.0.0.1", "::1"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"fe80::1%eth0"}}, "127.0.0.1", "fe80::/64"},
		{"127.0.0.1:5000", map[string][]string{"Cf-Connecting-Ip": {"::ffff:198.51.100.4"}}, "127.0.0.1", "198.51.100.4"},
		{"[::ffff:127.0.0.1]:5000", map[string][]string{"Cf-Connecting-Ip": {"198.51.100.4"}}, "127.0.0.1", "198.51.100.4"},
		{"[::ffff:203.0.113.9]:5000", map[string][]string{"Cf-Connecting-Ip": {"198.51.100.4"}}, "203.0.113.9", "203.0.113.9"},
	} {
		r := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", nil)
		r.RemoteAddr = c.remote
		r.Header = c.headers
		if got := sock(r); got != c.sock {
			t.Errorf("%s %v, socket: %q, want %q", c.remote, c.headers, got, c.sock)
		}
		if got := cf(r); got != c.cf {
			t.Errorf("%s %v, CF-Connecting-IP trusted: %q, want %q", c.remote, c.headers, got, c.cf)
		}
	}
	p, err := ParsePrefixes("10.0.0.0/8, 192.0.2.7")
	if err != nil || len(p) != 2 || !p[1].Contains(netip.MustParseAddr("192.0.2.7")) {
		t.Errorf("ParsePrefixes: %v %v", p, err)
	}
	if _, err := ParsePrefixes("10.0.0.0/8,nope"); err == nil {
		t.Error("ParsePrefixes accepted nope")
	}
}

// Accepted requests have their own limit per client, every call counted.
// Over it the client is answered as the SDKs survive, HTTP 200: a tool
// call with a tool result in words that says when to try again, any other
// call with a JSON-RPC error saying so, the wait in its data, each with its
// own id; opening a session passes, counted. An HTTP 429 ends an
// official SDK's whole session (the Python SDK raises it, and the session
// is gone after a burst of calls an agent makes in seconds).
func TestRateLimitPerClient(t *testing.T) {
	t.Parallel()
	clock := time.Unix(1000, 0)
	d := okDoor(t, Config{Now: func() time.Time { return clock }, RateLimit: 5, RatePeriod: 10 * time.Second})
	for i := range 5 {
		if rec := post(d, "192.0.2.1:1", "right", listBody); rec.Code != 200 {
			t.Fatalf("request %d: %d", i+1, rec.Code)
		}
	}
	rec := post(d, "192.0.2.1:1", "right", `{"jsonrpc":"2.0","id":"seven","method":"tools/list"}`)
	if rec.Code != 200 {
		t.Fatalf("over the limit: %d, want 200 with a JSON-RPC answer", rec.Code)
	}
	code, msg, id := rpcError(t, "over the limit", rec)
	if code != codeTooMany || string(id) != `"seven"` || !strings.Contains(msg, "Try again in") {
		t.Errorf("over the limit: code %d, id %s, %q", code, id, msg)
	}
	if wait := retryAfter(t, rec.Body.Bytes()); wait != 2 {
		t.Errorf("the error's data says to wait %d seconds, want 2: %s", wait, rec.Body)
	}
	call := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"turn_on","arguments":{"name":"lamp"}}}`
	rec = post(d, "192.0.2.1:1", "right", call)
	var res struct {
		ID     int `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); rec.Code != 200 || err != nil || res.ID != 8 || !res.Result.IsError || len(res.Result.Content) != 1 || !strings.Contains(res.Result.Content[0].Text, "Try again in") {
		t.Errorf("a tool call over the limit: %d %s, want 200 with a tool result in words", rec.Code, rec.Body)
	}
	// Opening a session is never refused: an SDK whose opening fails loses
	// the whole session, and these cost next to nothing.
	for _, open := range []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}`, `{"jsonrpc":"2.0","id":10,"method":"ping"}`} {
		if rec := post(d, "192.0.2.1:1", "right", open); rec.Code != 200 || strings.Contains(rec.Body.String(), "error") {
			t.Errorf("%s over the limit: %d %q, want it passed on", open, rec.Code, rec.Body)
		}
	}
	clock = clock.Add(4 * time.Second) // two calls earned back
	batch := `[` + listBody + `,{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`
	rec = post(d, "192.0.2.1:1", "right", batch)
	var answers []struct {
		ID    int             `json:"id"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answers); rec.Code != 200 || err != nil || len(answers) != 3 || answers[2].ID != 3 || answers[2].Error == nil {
		t.Errorf("a batch of three calls with two left: %d %s, want an answer to each", rec.Code, rec.Body)
	}
	if rec := post(d, "192.0.2.1:1", "right", listBody); rec.Code != 200 || strings.Contains(rec.Body.String(), "error") {
		t.Errorf("one call with two left: %d %s, want its result", rec.Code, rec.Body)
	}
	// Malformed requests count too: the last call left is spent by one.
	post(d, "192.0.2.1:1", "right", `{"jsonrpc":"2.0",`)
	if rec := post(d, "192.0.2.1:1", "right", listBody); !strings.Contains(rec.Body.String(), "Try again in") {
		t.Errorf("after a malformed request spent the last call: %d %s, want told to wait", rec.Code, rec.Body)
	}
}

// retryAfter is the seconds a JSON-RPC error's data says to wait.
func retryAfter(t *testing.T, body []byte) int {
	t.Helper()
	var r struct {
		Error struct {
			Data struct {
				RetryAfter int `json:"retryAfterSeconds"`
			} `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Errorf("not JSON: %s", body)
	}
	return r.Error.Data.RetryAfter
}

// Bad input gets the right status and a JSON-RPC error body, never plain
// text, and the door keeps serving.
func TestBadInputAnsweredInJSONRPC(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{RateLimit: 100})
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	nine := "[" + strings.TrimSuffix(strings.Repeat(listBody+",", 9), ",") + "]"
	for _, c := range []struct {
		name, body, ctype string
		status, code      int
		id                string
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":`, "", 400, codeParse, "null"},
		{"not JSON", "hello", "", 400, codeParse, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\xfe\"}}", "", 400, codeParse, "null"},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, "", 400, codeInvalidRequest, "4"},
		{"no version", `{"id":4,"method":"tools/list"}`, "", 400, codeInvalidRequest, "4"},
		{"no method", `{"jsonrpc":"2.0","id":4}`, "", 400, codeInvalidRequest, "4"},
		{"method not a string", `{"jsonrpc":"2.0","id":4,"method":7}`, "", 400, codeInvalidRequest, "4"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"id past exact integers", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"id one past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"id with an exponent", `{"jsonrpc":"2.0","id":1e3,"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"id minus zero", `{"jsonrpc":"2.0","id":-0,"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"params an array", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1,2]}`, "", 400, codeInvalidParams, "4"},
		{"tool name a number", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":1,"arguments":{}}}`, "", 400, codeInvalidParams, "4"},
		{"tool name capitalised", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"Name":"turn_on"}}`, "", 400, codeInvalidParams, "4"},
		{"completion without ref", `{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{}}`, "", 400, codeInvalidParams, "4"},
		{"batch with bad params", `[` + listBody + `,{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}]`, "", 400, codeInvalidParams, "null"},
		{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, "", 400, codeInvalidRequest, "null"},
		{"params a string", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":"x"}`, "", 400, codeInvalidRequest, "4"},
		{"a bare number", `42`, "", 400, codeInvalidRequest, "null"},
		{"deeply nested params", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"a":` + deep + `}}}`, "", 400, codeInvalidRequest, "null"},
		{"empty body", ``, "", 400, codeInvalidRequest, "null"},
		{"empty batch", `[]`, "", 400, codeInvalidRequest, "null"},
		{"batch over the cap", nine, "", 400, codeInvalidRequest, "null"},
		{"batch with a bad message", `[` + listBody + `,{"jsonrpc":"2.0","id":2}]`, "", 400, codeInvalidRequest, "null"},
		{"wrong content type", listBody, "text/plain", 415, codeInvalidRequest, "null"},
		{"form content type", listBody, "application/x-www-form-urlencoded", 415, codeInvalidRequest, "null"},
		{"over 1 MiB", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":"` + strings.Repeat("a", maxBody) + `"}}`, "", 413, codeInvalidRequest, "null"},
	} {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(c.body))
		req.RemoteAddr = "192.0.2.1:1"
		req.Header.Set("Authorization", "Bearer right")
		ct := c.ctype
		if ct == "" {
			ct = "application/json; charset=utf-8"
		}
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Errorf("%s: %d, want %d (%s)", c.name, rec.Code, c.status, rec.Body.String())
			continue
		}
		code, msg, id := rpcError(t, c.name, rec)
		if code != c.code || string(id) != c.id {
			t.Errorf("%s: code %d id %s, want %d %s (%q)", c.name, code, id, c.code, c.id, msg)
		}
		if strings.Contains(msg, "\n") || !strings.HasSuffix(strings.TrimSpace(msg), ".") {
			t.Errorf("%s: the message is not sentences on one line: %q", c.name, msg)
		}
	}
	eight := "[" + strings.TrimSuffix(strings.Repeat(listBody+",", 8), ",") + "]"
	if rec := post(d, "192.0.2.1:1", "right", eight); rec.Code != 200 {
		t.Errorf("a batch at the cap: %d", rec.Code)
	}
	if rec := post(d, "192.0.2.1:1", "right", listBody); rec.Code != 200 {
		t.Errorf("a good request after all that: %d", rec.Code)
	}
	get := httptest.NewRequest("GET", "http://127.0.0.1:8765/mcp", nil)
	rec := httptest.NewRecorder()
	d.ServeHTTP(rec, get)
	if rec.Code != 405 || rec.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d Allow %q", rec.Code, rec.Header().Get("Allow"))
	}
	rpcError(t, "GET", rec)
}

// A plain-text refusal from the MCP handler reaches the client as a
// JSON-RPC error with the same status.
func TestPlainTextFromTheHandlerBecomesJSONRPC(t *testing.T) {
	t.Parallel()
	d, err := New(Config{Token: "right"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// As the SDK words it: %q leaves a Hangul filler (a letter) as is.
		http.Error(w, "jsonrpc2: method not handled: \"nope\u3164/nope\\u202e\" unsupported", http.StatusBadRequest)
	}))
	if err != nil {
		t.Fatal(err)
	}
	rec := post(d, "192.0.2.1:1", "right", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"nope\u3164/nope\u202e\"}")
	code, msg, id := rpcError(t, "unknown method", rec)
	if rec.Code != 400 || code != codeMethodNotFound || string(id) != "9" || !strings.Contains(msg, "tools/list") {
		t.Errorf("unknown method: %d code %d id %s %q", rec.Code, code, id, msg)
	}
	if strings.ContainsFunc(msg, voice.Invisible) {
		t.Errorf("the answer repeats an invisible character: %+q", msg)
	}
}

// Shutting down, the door refuses new requests cleanly while those inside
// finish, and /readyz says so.
func TestDrain(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{})
	d, err := New(Config{Token: "right"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var inside *httptest.ResponseRecorder
	wg.Go(func() { inside = post(d, "192.0.2.1:1", "right", listBody) })
	<-entered
	d.Drain()
	rec := post(d, "192.0.2.1:1", "right", listBody)
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a new request while draining: %d", rec.Code)
	}
	rpcError(t, "draining", rec)
	ready := httptest.NewRecorder()
	d.ServeHTTP(ready, httptest.NewRequest("GET", "http://127.0.0.1:8765/readyz", nil))
	if ready.Code != 503 {
		t.Errorf("/readyz while draining: %d", ready.Code)
	}
	if d.InFlight() != 1 {
		t.Errorf("in flight: %d, want 1", d.InFlight())
	}
	close(release)
	if err := d.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if inside.Code != 200 {
		t.Errorf("the request inside: %d, want 200", inside.Code)
	}
}

// When more calls are wanted than the work budget holds, a request waits,
// then is told to retry.
func TestBusy(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	d, err := New(Config{Token: "right", MaxInFlight: 2, QueueWait: 50 * time.Millisecond}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	}))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		post(d, "192.0.2.1:1", "right", "["+listBody+","+strings.Replace(listBody, `"id":1`, `"id":2`, 1)+"]")
	})
	<-entered
	rec := post(d, "192.0.2.1:1", "right", listBody)
	if rec.Code != 503 {
		t.Errorf("a request beyond the budget: %d, want 503", rec.Code)
	}
	rpcError(t, "busy", rec)
	close(release)
	wg.Wait()
	go func() {
		for range entered {
		}
	}()
	if rec := post(d, "192.0.2.1:1", "right", listBody); rec.Code != 200 {
		t.Errorf("after the budget freed: %d", rec.Code)
	}
	close(entered)
}

// One line per served request, with who, what, how it ended, how long and
// how many bytes; refusals repeated are summarised; no token is written.
func TestLogLines(t *testing.T) {
	t.Parallel()
	var buf testkit.Buffer
	d := okDoor(t, Config{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	d.refused = accesslog.NewRefusals(d.log, time.Hour) // the window ends when the test says
	post(d, "192.0.2.1:1", "right", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_cameras"}}`)
	for range 50 {
		post(d, "192.0.2.2:1", "wrong-token-do-not-log", listBody)
	}
	d.refused.Flush()
	out := buf.String()
	if strings.Contains(out, "wrong-token-do-not-log") || strings.Contains(out, "right") && strings.Contains(out, "Bearer") {
		t.Errorf("a token reached the log:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want one request line, and for each of two reasons one refusal and one summary, got %d lines:\n%s", len(lines), out)
	}
	for _, want := range []string{"client=bearer-token", "method=tools/call", "status=200", "took=", "in=", "out=", "remote=192.0.2.1"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the request line lacks %s: %s", want, lines[0])
		}
	}
	if !strings.Contains(out, "more=9 ") || !strings.Contains(out, "more=39 ") {
		t.Errorf("the summaries do not count the 49 refusals after the first of each kind:\n%s", out)
	}
}

// Without a token, only this machine may call: a page that rebinds its own
// name to 127.0.0.1 is refused by its Host or its Origin.
func TestNoAuthAnswersOnlyToLocalhost(t *testing.T) {
	t.Parallel()
	h := okDoor(t, Config{NoAuth: true})
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
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(listBody))
		req.Header.Set("Content-Type", "application/json")
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

// A batch larger than the whole rate budget could never pass: it is
// refused as too large, saying the cap, not told to retry in vain.
func TestBatchOverTheRateBudgetIsTooLarge(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{RateLimit: 3})
	four := "[" + strings.TrimSuffix(strings.Repeat(listBody+",", 4), ",") + "]"
	rec := post(d, "192.0.2.1:1", "right", four)
	_, msg, _ := rpcError(t, "a batch of four with a budget of three", rec)
	if rec.Code != 400 || !strings.Contains(msg, "at most 3") {
		t.Errorf("a batch of four calls with a budget of three: %d %q, want 400 naming the cap", rec.Code, msg)
	}
	three := "[" + strings.TrimSuffix(strings.Repeat(listBody+",", 3), ",") + "]"
	if rec := post(okDoor(t, Config{RateLimit: 3}), "192.0.2.1:1", "right", three); rec.Code != 200 {
		t.Errorf("a batch of three: %d", rec.Code)
	}
}

// Waiting for the requests inside while new ones keep coming (refused, the
// door draining) neither panics nor returns before they are answered.
func TestWaitDuringAFlood(t *testing.T) {
	t.Parallel()
	for range 20 {
		d := okDoor(t, Config{})
		var stop atomic.Bool
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for !stop.Load() {
					post(d, "192.0.2.1:1", "right", listBody)
				}
			})
		}
		time.Sleep(time.Millisecond)
		d.Drain()
		for range 5 {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if err := d.Wait(ctx); err != nil {
				t.Fatalf("Wait while refused requests come and go: %v", err)
			}
			cancel()
		}
		stop.Store(true)
		wg.Wait()
	}
}

// Every request a client makes counts against its budget, refused ones
// too: a client cannot send requests without end by sending them wrong.
func TestRefusedRequestsCountToo(t *testing.T) {
	t.Parallel()
	d := okDoor(t, Config{RateLimit: 3})
	var last *httptest.ResponseRecorder
	req := func(ctype, body string) int {
		r := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(body))
		r.RemoteAddr = "192.0.2.1:1"
		r.Header.Set("Authorization", "Bearer right")
		r.Header.Set("Content-Type", ctype)
		last = httptest.NewRecorder()
		d.ServeHTTP(last, r)
		return last.Code
	}
	if code := req("text/plain", listBody); code != 415 {
		t.Fatalf("text/plain: %d", code)
	}
	if code := req("application/json", strings.Repeat(" ", maxBody+1)); code != 413 {
		t.Fatalf("too large: %d", code)
	}
	if code := req("application/json", listBody); code != 200 {
		t.Fatalf("the third request: %d", code)
	}
	if req("application/json", listBody); !strings.Contains(last.Body.String(), "Try again in") {
		t.Errorf("a fourth request after a wrong type and an oversize body: %d %s, want told to wait", last.Code, last.Body)
	}
}
