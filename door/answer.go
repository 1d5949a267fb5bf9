package door

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"maison/internal/rpcmsg"
	"maison/voice"
	"maison/words"
)

// JSON-RPC error codes the door answers with. The standard ones come from
// the JSON-RPC 2.0 specification; the others are in its range for server
// errors.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	codeUnauthorized   = -32001
	codeTooMany        = -32002
	codeForbidden      = -32003
	codeUnavailable    = -32004
)

// refusal is an answer the door gives instead of the MCP server's.
type refusal struct {
	status int
	code   int
	msg    string // sentences: what happened and what to do
	id     json.RawMessage
	retry  time.Duration // Retry-After, when set
	reason string        // for the log, a few words
	// body, when set, is the whole answer, sent with status: the door
	// answering a call in the MCP server's place (see bodyScope).
	body json.RawMessage
}

// answer writes r as a JSON-RPC error body with its HTTP status: whatever
// goes wrong, a client reads JSON it can parse, never plain text.
func answer(w http.ResponseWriter, r *refusal) {
	if r.body != nil || r.status == http.StatusAccepted {
		h := w.Header()
		if r.body != nil {
			h.Set("Content-Type", "application/json")
			h.Set("Content-Length", strconv.Itoa(len(r.body)+1))
		}
		w.WriteHeader(r.status)
		if r.body != nil {
			w.Write(append(r.body, '\n'))
		}
		return
	}
	if r.retry > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(seconds(r.retry)))
	}
	writeRPCError(w, r.status, r.id, r.code, r.msg, r.retry)
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string, retry time.Duration) {
	body := rpcErrorBody(id, code, msg, retry)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)+1))
	h.Del("X-Content-Type-Options")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// rpcErrorBody is a JSON-RPC error answer to id (null when it has none),
// saying when to retry when retry is set.
func rpcErrorBody(id json.RawMessage, code int, msg string, retry time.Duration) json.RawMessage {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	e := map[string]any{"code": code, "message": msg}
	if retry > 0 {
		e["data"] = map[string]any{"retryAfterSeconds": seconds(retry)}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	return b
}

// seconds rounds d up to whole seconds, at least one.
func seconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// recorder stands between the MCP handler and the client: it counts what
// is written for the request's log line, turns a plain-text error from the
// MCP handler (the SDK answers some bad requests in plain text) into a
// JSON-RPC error body with the same status, and holds back the JSON answer
// to a single request so that the SDK's own refusal in it is put in words
// (rpcmsg.SDKWords).
type recorder struct {
	http.ResponseWriter
	id     json.RawMessage // of a single request, for a rewritten error
	method string          // of a single request, for a reworded refusal
	lang   voice.Lang      // of the words of a rewritten error
	status int
	bytes  int
	plain  bool         // a plain-text error is being held back
	json   bool         // a JSON answer is being held back
	held   bytes.Buffer // its text, bounded
	wrote  bool
	// draining, once true, closes the connection after the answer: the
	// client keeps none to a server stopping (Door.Drain).
	draining *atomic.Bool
}

// maxHeldJSON bounds the JSON answer held back to be read: an SDK refusal
// is far shorter, so a longer answer is passed on as it comes.
const maxHeldJSON = 64 << 10

func (rw *recorder) WriteHeader(status int) {
	if rw.wrote {
		return
	}
	rw.wrote, rw.status = true, status
	if rw.draining != nil && rw.draining.Load() {
		rw.Header().Set("Connection", "close")
	}
	switch json := isJSON(rw.Header().Get("Content-Type")); {
	case status >= 400 && !json:
		rw.plain = true
		return
	case json && rw.method != "":
		rw.json = true
		return
	}
	rw.ResponseWriter.WriteHeader(status)
}

func (rw *recorder) Write(b []byte) (int, error) {
	if !rw.wrote {
		rw.WriteHeader(http.StatusOK)
	}
	switch {
	case rw.plain:
		if room := 512 - rw.held.Len(); room > 0 {
			rw.held.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	case rw.json && rw.held.Len()+len(b) <= maxHeldJSON:
		return rw.held.Write(b)
	case rw.json:
		rw.release(rw.held.Bytes())
	}
	n, err := rw.ResponseWriter.Write(b)
	rw.bytes += n
	return n, err
}

// release sends the held-back JSON answer's status and body, now body.
func (rw *recorder) release(body []byte) {
	rw.json = false
	rw.ResponseWriter.WriteHeader(rw.status)
	n, _ := rw.ResponseWriter.Write(body)
	rw.bytes += n
	rw.held.Reset()
}

// Unwrap lets http.ResponseController reach the connection.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// Flush passes a flush on, unless an answer is being held back.
func (rw *recorder) Flush() {
	if !rw.plain && !rw.json {
		http.NewResponseController(rw.ResponseWriter).Flush()
	}
}

// finish writes the held-back plain-text error as JSON-RPC, and the held
// JSON answer with the SDK's refusal in it put in words.
func (rw *recorder) finish() {
	if rw.json {
		body := rw.held.Bytes()
		if b := rw.reword(body); b != nil {
			body = b
			rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		rw.release(body)
		return
	}
	if !rw.plain {
		return
	}
	text := strings.TrimSpace(rw.held.String())
	code, msg := explainSDK(rw.status, rw.method, text, rw.lang)
	rw.Header().Del("Content-Type")
	c := &counter{ResponseWriter: rw.ResponseWriter}
	writeRPCError(c, rw.status, rw.id, code, msg, 0)
	rw.bytes += c.n
	rw.plain = false
}

// reword is the JSON-RPC error answer body with the SDK's refusal put in
// maison's words, or nil when body is not such an answer.
func (rw *recorder) reword(body []byte) []byte {
	var a struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	// Most answers are results: only one that holds an error is decoded.
	if !bytes.Contains(body, []byte(`"error"`)) || json.Unmarshal(body, &a) != nil || a.Error == nil {
		return nil
	}
	words := rpcmsg.SDKWords(rw.lang, rw.method, a.Error.Code, a.Error.Message)
	if words == "" {
		return nil
	}
	return append(rpcErrorBody(a.ID, int(a.Error.Code), words, 0), '\n')
}

type counter struct {
	http.ResponseWriter
	n int
}

func (c *counter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += n
	return n, err
}

// explainSDK puts the MCP handler's terse plain-text refusal of a call to
// method ("" in a batch) into sentences in lang.
func explainSDK(status int, method, text string, lang voice.Lang) (int, string) {
	low := strings.ToLower(text)
	switch {
	case strings.Contains(low, "unsupported") && strings.Contains(low, "protocol version"):
		return codeInvalidRequest, words.DoorProtocolVersion(lang, voice.Visible(text, detailRunes))
	case strings.Contains(low, "unsupported") && method != "":
		return codeMethodNotFound, rpcmsg.SDKWords(lang, method, codeMethodNotFound, text)
	case strings.Contains(low, "unsupported"):
		return codeMethodNotFound, words.DoorBatchMethodUnknown(lang)
	case strings.Contains(low, "accept must contain"):
		return codeInvalidRequest, words.DoorAccept(lang)
	case strings.Contains(low, "batching is not supported"):
		return codeInvalidRequest, words.DoorNoBatches(lang, voice.Visible(text, detailRunes))
	case strings.Contains(low, "duplicate"):
		return codeInvalidRequest, words.DoorDuplicateID(lang, voice.Visible(text, detailRunes))
	case status == http.StatusRequestEntityTooLarge:
		return codeInvalidRequest, words.DoorHandlerTooLarge(lang)
	case status == http.StatusUnsupportedMediaType:
		return codeInvalidRequest, words.DoorHandlerMediaType(lang)
	case status >= 500:
		return codeInternal, words.DoorInternal(lang, voice.Visible(text, detailRunes))
	}
	return codeInvalidRequest, words.DoorHandlerRefused(lang, voice.Visible(text, detailRunes))
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}
