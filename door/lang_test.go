package door

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"maison/voice"
)

// langDoor is a door in lang with a static token "right", a verifier that
// knows a token "read" granted only house.read, a tool "turn_on" that needs
// house.control and a rate of two requests a minute; handler answers what
// passes.
func langDoor(t *testing.T, lang voice.Lang, handler http.Handler) *Door {
	t.Helper()
	d, err := New(Config{
		Token: "right", Scopes: []string{"house.read", "house.control"}, Lang: lang,
		RateLimit: 2, RatePeriod: time.Minute,
		Verify: func(tok string) (*auth.TokenInfo, error) {
			if tok == "read" {
				return &auth.TokenInfo{Scopes: []string{"house.read"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "c1"}}, nil
			}
			return nil, errors.New("no")
		},
		ToolScope: func(name string) (string, bool) {
			s, ok := map[string]string{"list_cameras": "house.read", "turn_on": "house.control"}[name]
			return s, ok
		},
	}, handler)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Every refusal of the door is in the configured language: French with
// MAISON_LANG=fr, German with MAISON_LANG=de, English otherwise, and no two
// are the same.
func TestRefusalsSpeakTheDoorsLanguage(t *testing.T) {
	okHandler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
	acceptHandler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Accept must contain both 'application/json' and 'text/event-stream'", http.StatusBadRequest)
	})
	turnOn := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"turn_on"}}`
	// to sends method to url with the right token, whatever its host.
	to := func(d *Door, method, url string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, url, strings.NewReader(listBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer right")
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, req)
		return rec
	}
	cases := []struct {
		name    string
		status  int
		handler http.Handler
		send    func(d *Door) *httptest.ResponseRecorder
		result  bool // the answer is a tool result in words, not a JSON-RPC error
	}{
		{"no token", 401, okHandler, func(d *Door) *httptest.ResponseRecorder { return post(d, "192.0.2.1:1", "", listBody) }, false},
		{"wrong token", 401, okHandler, func(d *Door) *httptest.ResponseRecorder { return post(d, "192.0.2.1:1", "wrong", listBody) }, false},
		{"beyond the scope", 200, okHandler, func(d *Door) *httptest.ResponseRecorder { return post(d, "192.0.2.1:1", "read", turnOn) }, true},
		{"batch beyond the scope", 200, okHandler, func(d *Door) *httptest.ResponseRecorder {
			rec := post(d, "192.0.2.1:1", "read", `[`+listBody+`,`+turnOn+`]`)
			// The answer to the call that was allowed, the first, is the
			// one in question here; the other is "beyond the scope".
			var answers []json.RawMessage
			if err := json.Unmarshal(rec.Body.Bytes(), &answers); err != nil || len(answers) != 2 {
				t.Errorf("batch beyond the scope: not two answers: %s", rec.Body.String())
				return rec
			}
			rec.Body.Reset()
			rec.Body.Write(answers[0])
			return rec
		}, false},
		{"too many requests", 200, okHandler, func(d *Door) *httptest.ResponseRecorder {
			post(d, "192.0.2.1:1", "right", listBody)
			post(d, "192.0.2.1:1", "right", listBody)
			return post(d, "192.0.2.1:1", "right", listBody)
		}, false},
		{"too many wrong tokens", 429, okHandler, func(d *Door) *httptest.ResponseRecorder {
			for range maxFailures {
				post(d, "192.0.2.2:1", "wrong", listBody)
			}
			return post(d, "192.0.2.2:1", "wrong", listBody)
		}, false},
		{"GET", 405, okHandler, func(d *Door) *httptest.ResponseRecorder { return to(d, "GET", "http://127.0.0.1:8765/mcp") }, false},
		{"malformed JSON", 400, okHandler, func(d *Door) *httptest.ResponseRecorder { return post(d, "192.0.2.1:1", "right", `{"jsonrpc":`) }, false},
		{"not JSON-RPC 2.0", 400, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`)
		}, false},
		{"a message of a batch", 400, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", `[`+listBody+`,{"jsonrpc":"2.0","id":2}]`)
		}, false},
		{"empty body", 400, okHandler, func(d *Door) *httptest.ResponseRecorder { return post(d, "192.0.2.1:1", "right", " ") }, false},
		{"batch too large", 400, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", "["+strings.TrimSuffix(strings.Repeat(listBody+",", 9), ",")+"]")
		}, false},
		{"not JSON", 415, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", listBody, "Content-Type", "text/plain")
		}, false},
		{"too large", 413, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", strings.Repeat(" ", maxBody+1))
		}, false},
		{"foreign Host", 403, okHandler, func(d *Door) *httptest.ResponseRecorder { return to(d, "POST", "http://evil.example.com/mcp") }, false},
		{"malformed Host", 400, okHandler, func(d *Door) *httptest.ResponseRecorder { return to(d, "POST", "http://127.0.0.1:99999/mcp") }, false},
		{"foreign Origin", 403, okHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", listBody, "Origin", "https://evil.example.com")
		}, false},
		{"draining", 503, okHandler, func(d *Door) *httptest.ResponseRecorder {
			d.Drain()
			return post(d, "192.0.2.1:1", "right", listBody)
		}, false},
		{"the handler's plain-text refusal", 400, acceptHandler, func(d *Door) *httptest.ResponseRecorder {
			return post(d, "192.0.2.1:1", "right", listBody)
		}, false},
	}
	for _, c := range cases {
		said := map[voice.Lang]string{}
		for _, lang := range voice.Langs() {
			rec := c.send(langDoor(t, lang, c.handler))
			if rec.Code != c.status {
				t.Errorf("%s in %s: %d, want %d: %s", c.name, lang, rec.Code, c.status, rec.Body.String())
				continue
			}
			msg := ""
			if c.result {
				msg, _ = toolError(rec.Body.Bytes())
			} else {
				_, msg, _ = rpcError(t, c.name, rec)
			}
			if got, ok := voice.Language(msg); !ok || got != lang {
				t.Errorf("%s: not in %s: %q", c.name, lang, msg)
			}
			said[lang] = msg
		}
		for _, l := range voice.Langs() {
			if l != voice.English && said[voice.English] != "" && said[voice.English] == said[l] {
				t.Errorf("%s: the same words in English and %s: %q", c.name, l, said[voice.English])
			}
		}
	}
}

// A message of a batch is named in French as "Le message 2 du lot", and
// the English words of a refusal keep their wording.
func TestRefusalNamesTheMessageInFrench(t *testing.T) {
	body := `[` + listBody + `,{"jsonrpc":"2.0","id":2}]`
	for lang, want := range map[voice.Lang]string{
		voice.English: `Message 2 of the batch is not a valid JSON-RPC 2.0 request: it has no "method". Nothing was done.`,
		voice.French:  `Le message 2 du lot n'est pas une requête JSON-RPC 2.0 valide : il n'a pas de "method". Rien n'a été fait.`,
		voice.German:  `Nachricht 2 des Stapels ist keine gültige JSON-RPC-2.0-Anfrage: Sie hat kein "method". Es wurde nichts ausgeführt.`,
	} {
		rec := post(langDoor(t, lang, http.NotFoundHandler()), "192.0.2.1:1", "right", body)
		if _, msg, _ := rpcError(t, string(lang), rec); msg != want {
			t.Errorf("%s: %q, want %q", lang, msg, want)
		}
	}
}
