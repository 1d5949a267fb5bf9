package door

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
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
	turnOn := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"turn_on"}}`
	for name, tc := range map[string]struct {
		body    string
		headers map[string]string
		want    int
	}{
		"header names an action":         {`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "turn_on"}, 403},
		"body names an action":           {turnOn, nil, 403},
		"header lies":                    {turnOn, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "list_cameras"}, 403},
		"batch":                          {`[{"jsonrpc":"2.0","id":2,"method":"tools/list"},` + turnOn + `]`, nil, 403},
		"prompt needs read":              {`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"check_the_house"}}`, nil, 200},
		"a tool the door does not know":  {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}`, nil, 200},
		"a read tool":                    {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_cameras"}}`, nil, 200},
		"list":                           {`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil, 200},
		"key in another case is ignored": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"Name":"list_cameras","name":"turn_on"}}`, nil, 403},
	} {
		rec := try("read", tc.body, tc.headers)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d", name, rec.Code, tc.want)
			continue
		}
		if tc.want == 403 {
			c := rec.Header().Get("WWW-Authenticate")
			if !strings.Contains(c, `error="insufficient_scope"`) || !strings.Contains(c, `scope="house.read house.control"`) {
				t.Errorf("%s: challenge %q", name, c)
			}
		}
	}
	if rec := try("read", strings.Repeat(" ", maxBody+1), nil); rec.Code != 413 {
		t.Errorf("an oversize body: %d", rec.Code)
	}
}

// A request without a token is answered at once, however slowly its body
// comes: the door never waits for a body it will not read.
func TestSlowBodyWithoutTokenIsAnsweredAtOnce(t *testing.T) {
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
