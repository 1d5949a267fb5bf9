package door

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"maison/internal/testkit"
)

// oauthDoor is a door with a verifier that knows two tokens, a read-only
// and a full one, in front of a handler that reports who called.
func oauthDoor(t *testing.T) http.Handler {
	t.Helper()
	h, err := New(Config{
		Token: "static", Scopes: []string{"house.read", "house.control"},
		ResourceMetadataURL: "https://maison.example.com/.well-known/oauth-protected-resource/mcp",
		Verify: func(tok string) (*auth.TokenInfo, error) {
			switch tok {
			case "read":
				return &auth.TokenInfo{Scopes: []string{"house.read"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "c1"}}, nil
			case "control":
				return &auth.TokenInfo{Scopes: []string{"house.control"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "c2"}}, nil
			}
			return nil, errors.New("no")
		},
		ToolScope: func(name string) (string, bool) {
			s, ok := map[string]string{"list_cameras": "house.read", "turn_on": "house.control"}[name]
			return s, ok
		},
	}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil {
			w.WriteHeader(500)
			return
		}
		w.Write([]byte(strings.Join(ti.Scopes, " ")))
	}))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestChallengesAndScopes(t *testing.T) {
	t.Parallel()
	h := oauthDoor(t)
	try := func(token, body string, headers map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765/mcp", strings.NewReader(body))
		req.RemoteAddr = "192.0.2.9:1"
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec := try("", "{}", nil)
	if c := rec.Header().Get("WWW-Authenticate"); rec.Code != 401 || !strings.Contains(c, `resource_metadata="https://maison.example.com/.well-known/oauth-protected-resource/mcp"`) || strings.Contains(c, "error=") {
		t.Errorf("no token: %d %q", rec.Code, c)
	}
	if c := try("wrong", "{}", nil).Header().Get("WWW-Authenticate"); !strings.Contains(c, `error="invalid_token"`) {
		t.Errorf("a wrong token's challenge: %q", c)
	}
	if rec := try("static", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"turn_on"}}`, nil); rec.Code != 200 || rec.Body.String() != "house.read house.control" {
		t.Errorf("the static token: %d %q", rec.Code, rec.Body.String())
	}
	// A call the grant does not allow is answered, HTTP 200, in words: a
	// 403 insufficient_scope makes the clients that exist reopen the
	// sign-in page, and the call never gets its answer.
	turnOn := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"turn_on"}}`
	for name, tc := range map[string]struct {
		body    string
		headers map[string]string
		want    string // "result" (isError, in words), "error" (in words), "through" (to the MCP server)
	}{
		"header names an action, body lists": {`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "turn_on"}, "through"},
		"body names an action":               {turnOn, nil, "result"},
		"header lies":                        {turnOn, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "list_cameras"}, "result"},
		"batch":                              {`[{"jsonrpc":"2.0","id":2,"method":"tools/list"},` + turnOn + `]`, nil, "batch"},
		"prompt needs read":                  {`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"check_the_house"}}`, nil, "through"},
		"a tool the door does not know":      {`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}`, nil, "through"},
		"a read tool":                        {`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_cameras"}}`, nil, "through"},
		"list":                               {`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil, "through"},
		"key in another case is ignored":     {`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"Name":"list_cameras","name":"turn_on"}}`, nil, "result"},
	} {
		rec := try("read", tc.body, tc.headers)
		if rec.Code != 200 || rec.Header().Get("WWW-Authenticate") != "" {
			t.Errorf("%s: %d %q, want 200 without a challenge", name, rec.Code, rec.Header().Get("WWW-Authenticate"))
			continue
		}
		if tc.want == "through" {
			if rec.Body.String() != "house.read" {
				t.Errorf("%s: did not reach the MCP server: %q", name, rec.Body.String())
			}
			continue
		}
		answers := []json.RawMessage{rec.Body.Bytes()}
		if tc.want == "batch" {
			if err := json.Unmarshal(rec.Body.Bytes(), &answers); err != nil || len(answers) != 2 {
				t.Errorf("%s: not two answers: %q", name, rec.Body.String())
				continue
			}
			if _, msg, id := rpcErrorOf(answers[0]); string(id) != "2" || !strings.Contains(msg, "Not run") {
				t.Errorf("%s: the allowed call's answer: %s", name, answers[0])
			}
			answers = answers[1:]
		}
		if text, id := toolError(answers[0]); string(id) != "3" || !strings.Contains(text, "Nothing was done") || !strings.Contains(text, "turn_on") ||
			!strings.Contains(text, "remove the maison connector") || !strings.Contains(text, "Act in the house") {
			t.Errorf("%s: not a tool result in words for id 3: %s", name, answers[0])
		}
	}
	// A token that may act but not look is told the other way round.
	if rec := try("control", `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"check_the_house"}}`, nil); rec.Code != 200 {
		t.Errorf("a prompt without house.read: %d", rec.Code)
	} else if _, msg, id := rpcErrorOf(rec.Body.Bytes()); string(id) != "4" || !strings.Contains(msg, "See the house") {
		t.Errorf("a prompt without house.read: %s", rec.Body.String())
	}
	if rec := try("read", strings.Repeat(" ", maxBody+1), nil); rec.Code != 413 {
		t.Errorf("an oversize body: %d", rec.Code)
	}
}

// toolError reads a tool result that reports an error, returning its text
// and the id it answers; "" when the answer is anything else.
func toolError(b []byte) (string, json.RawMessage) {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			Content []struct{ Type, Text string }
			IsError bool `json:"isError"`
		}
	}
	if json.Unmarshal(b, &r) != nil || !r.Result.IsError || len(r.Result.Content) != 1 || r.Result.Content[0].Type != "text" {
		return "", nil
	}
	return r.Result.Content[0].Text, r.ID
}

// rpcErrorOf reads a JSON-RPC error answer.
func rpcErrorOf(b []byte) (int, string, json.RawMessage) {
	var r struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	json.Unmarshal(b, &r)
	return r.Error.Code, r.Error.Message, r.ID
}

// A request without a token is answered at once, however slowly its body
// comes: the door never waits for a body it will not read.
func TestSlowBodyWithoutTokenIsAnsweredAtOnce(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(oauthDoor(t))
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"))
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body trickles: %v", err)
	}
	if resp.StatusCode != 401 {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
	// And the connection is closed, not held while Go's server would read
	// the rest of a body that only trickles.
	io.Copy(io.Discard, resp.Body)
	conn.Write([]byte(" "))
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the connection is still open after the refusal: %v", err)
	}
}

// A request refused for want of a right token closes its connection even
// when it has no body: otherwise a stranger keeps connections open for
// free, one refused request a minute each, until maison has none left for
// the owner (MAISON_MAX_CONNECTIONS).
func TestRefusedWithoutTokenClosesEvenWithoutBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(okDoor(t, Config{}))
	defer srv.Close()
	for _, c := range []struct{ name, request string }{
		{"no token, empty body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n"},
		{"wrong token, no body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\n\r\n"},
		{"GET without token", "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"},
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(c.request))
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		io.Copy(io.Discard, resp.Body)
		if !resp.Close {
			t.Errorf("%s: %d without Connection: close", c.name, resp.StatusCode)
		}
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		if _, err := br.ReadByte(); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("%s: the connection is still open after the refusal: %v", c.name, err)
		}
		conn.Close()
	}
	// A client with the right token keeps its connection.
	rec := post(okDoor(t, Config{}), "192.0.2.1:1", "right", listBody)
	if rec.Code != 200 || rec.Header().Get("Connection") == "close" {
		t.Errorf("right token: %d, Connection %q", rec.Code, rec.Header().Get("Connection"))
	}
}

// A call the token's scopes do not allow is on its request's log line as
// any call is: the client's name, the tool and what it was aimed at, so an
// owner can find refused attempts by who made them.
func TestScopeRefusalLoggedLikeACall(t *testing.T) {
	t.Parallel()
	var buf testkit.Buffer
	d, err := New(Config{
		Token: "static", Scopes: []string{"house.read", "house.control"},
		Verify: func(string) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{Scopes: []string{"house.read"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "maison-token-x", "client_name": "reader"}}, nil
		},
		ToolScope: func(name string) (string, bool) { return "house.control", name == "turn_on" },
		Logger:    slog.New(slog.NewTextHandler(&buf, nil)),
	}, http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	rec := post(d, "192.0.2.1:1", "reader-token", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"turn_on","arguments":{"name":"Kitchen Light","confirmation":"123456"}}}`)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	line := buf.String()
	for _, want := range []string{"client=maison-token-x", "client_name=reader", "tool=turn_on", `name="Kitchen Light"`, "outcome=\"refused: insufficient scope"} {
		if !strings.Contains(line, want) {
			t.Errorf("the line lacks %s: %s", want, line)
		}
	}
	if strings.Contains(line, "123456") {
		t.Errorf("a confirmation code reached the log: %s", line)
	}
}
