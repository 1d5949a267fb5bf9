package door

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"maison/internal/rpcmsg"
	"maison/voice"
	"maison/words"
)

// maxBody is the largest request body, as the MCP handler allows it.
const maxBody = 1 << 20

// DefaultMaxBatch is how many messages one JSON-RPC batch may hold.
const DefaultMaxBatch = 8

// bodyDeadline bounds how long a body may take to arrive once the token is
// accepted.
const bodyDeadline = 20 * time.Second

// message is what the door reads of one JSON-RPC message.
type message struct {
	ID     json.RawMessage
	Method string
	Name   string // params.name, of tools/call and prompts/get
	params json.RawMessage
	args   json.RawMessage // params.arguments, for the log line
}

// isCall reports whether the message expects an answer.
func (m message) isCall() bool { return m.Method != "" && len(m.ID) > 0 }

// body is a request's body, read and checked.
type body struct {
	raw   []byte
	msgs  []message
	batch bool
}

// calls counts the messages that expect an answer, at least one: every
// request counts against its client's budget.
func (b body) calls() int {
	n := 0
	for _, m := range b.msgs {
		if m.isCall() {
			n++
		}
	}
	return max(n, 1)
}

// opening reports whether every message only opens or keeps a session
// (initialize, server/discover, ping, a notification): a client over its
// budget still gets these through, counted, since an SDK whose opening is
// refused fails the whole session; they cost maison next to nothing.
func (b body) opening() bool {
	for _, m := range b.msgs {
		switch {
		case m.Method == "initialize", m.Method == "server/discover", m.Method == "ping":
		case strings.HasPrefix(m.Method, "notifications/"):
		default:
			return false
		}
	}
	return len(b.msgs) > 0
}

// id is the id to answer a refusal of the whole request with: the single
// message's, or null for a batch.
func (b body) id() json.RawMessage {
	if !b.batch && len(b.msgs) == 1 {
		return b.msgs[0].ID
	}
	return nil
}

// method is the method of a single message, or "" for a batch.
func (b body) method() string {
	if !b.batch && len(b.msgs) == 1 {
		return b.msgs[0].Method
	}
	return ""
}

// contentType refuses a body that does not say it is JSON, before reading it.
func contentType(r *http.Request, lang voice.Lang) *refusal {
	if isJSON(r.Header.Get("Content-Type")) {
		return nil
	}
	return &refusal{status: http.StatusUnsupportedMediaType, code: codeInvalidRequest, reason: "content type not JSON",
		msg: words.DoorNotJSON(lang)}
}

var errTooLarge = errors.New("body too large")

// readBody reads the body within bodyDeadline and maxBody, refusing a
// declared length over the limit without reading anything.
func readBody(w http.ResponseWriter, r *http.Request, lang voice.Lang) ([]byte, *refusal) {
	tooLarge := &refusal{status: http.StatusRequestEntityTooLarge, code: codeInvalidRequest, reason: "body over 1 MiB",
		msg: words.DoorTooLarge(lang)}
	if r.ContentLength > maxBody {
		return nil, tooLarge
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(bodyDeadline))
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body.Close()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &refusal{status: http.StatusRequestTimeout, code: codeInvalidRequest, reason: "body too slow",
			msg: words.DoorBodySlow(lang, int(bodyDeadline/time.Second))}
	case err != nil:
		return nil, &refusal{status: http.StatusBadRequest, code: codeInvalidRequest, reason: "body unreadable",
			msg: words.DoorBodyUnreadable(lang, voice.Visible(err.Error(), detailRunes))}
	case len(b) > maxBody:
		return nil, tooLarge
	}
	// The body is in: a long call must not be cut by a read deadline.
	rc.SetReadDeadline(time.Time{})
	return b, nil
}

// inspect checks a body as JSON-RPC before the MCP handler parses it: valid
// UTF-8, JSON, not nested too deeply, a message or a batch of at most
// maxBatch messages, each an object of version 2.0 with a string method or
// a result. Keys are matched exactly, as the MCP handler matches them
// (encoding/json's struct decoding would also take "Name" for "name").
func inspect(raw []byte, maxBatch int, lang voice.Lang) (body, *refusal) {
	b := body{raw: raw}
	bad := func(code int, reason, msg string) (body, *refusal) {
		return b, &refusal{status: http.StatusBadRequest, code: code, reason: reason, msg: msg, id: b.id()}
	}
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0:
		return bad(codeInvalidRequest, "empty body", words.DoorEmptyBody(lang))
	case !utf8.Valid(raw):
		return bad(codeParse, "invalid UTF-8", words.DoorNotUTF8(lang))
	case rpcmsg.TooDeep(trimmed):
		return bad(codeInvalidRequest, "nested too deeply", words.DoorTooDeep(lang, rpcmsg.MaxDepth))
	case !json.Valid(trimmed):
		return bad(codeParse, "malformed JSON", words.DoorMalformedJSON(lang))
	}
	var raws []json.RawMessage
	if trimmed[0] == '[' {
		b.batch = true
		json.Unmarshal(trimmed, &raws)
		switch {
		case len(raws) == 0:
			return bad(codeInvalidRequest, "empty batch", words.DoorEmptyBatch(lang))
		case len(raws) > maxBatch:
			return bad(codeInvalidRequest, "batch too large", words.DoorBatchTooLarge(lang, len(raws), maxBatch))
		}
	} else {
		raws = []json.RawMessage{trimmed}
	}
	for i, m := range raws {
		msg, problem := readMessage(m, lang)
		b.msgs = append(b.msgs, msg)
		code, reason, params := codeInvalidRequest, "invalid JSON-RPC", false
		if problem == "" && msg.Method != "" {
			problem = rpcmsg.ParamsProblem(lang, msg.Method, msg.params)
			code, reason, params = codeInvalidParams, "params not what the method takes", true
		}
		if problem != "" {
			nth := 0
			if b.batch {
				nth = i + 1
			}
			_, r := bad(code, reason, words.DoorBadMessage(lang, nth, params, voice.Visible(msg.Method, nameRunes), problem))
			if !b.batch {
				r.id = msg.ID
			}
			return b, r
		}
	}
	return b, nil
}

// readMessage reads one message, or says what is wrong with it.
func readMessage(m json.RawMessage, lang voice.Lang) (message, string) {
	var msg message
	var fields map[string]json.RawMessage
	if json.Unmarshal(m, &fields) != nil {
		return msg, words.DoorNotObject.In(lang)
	}
	if id, ok := fields["id"]; ok {
		if problem := rpcmsg.IDProblem(lang, id); problem != "" {
			return msg, problem
		}
		if string(id) != "null" {
			msg.ID = id
		}
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return msg, words.DoorNotVersion2.In(lang)
	}
	method, hasMethod := fields["method"]
	if !hasMethod {
		_, result := fields["result"]
		_, rpcErr := fields["error"]
		if (result || rpcErr) && len(msg.ID) > 0 {
			return msg, "" // a response to the server: the MCP handler decides
		}
		return msg, words.DoorNoMethod.In(lang)
	}
	if json.Unmarshal(method, &msg.Method) != nil || msg.Method == "" {
		return msg, words.DoorMethodNotString.In(lang)
	}
	if params, ok := fields["params"]; ok {
		msg.params = params
		switch firstByte(params) {
		case '{':
			var p map[string]json.RawMessage
			if json.Unmarshal(params, &p) == nil {
				json.Unmarshal(p["name"], &msg.Name)
				msg.args = p["arguments"]
			}
		case '[':
		default:
			if string(params) != "null" {
				return msg, words.DoorParamsNotObject.In(lang)
			}
		}
	}
	return msg, ""
}

func firstByte(b []byte) byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}
