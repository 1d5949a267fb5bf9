// Package stdio carries MCP over standard input and output as
// newline-delimited JSON-RPC, and holds on where the SDK's own transport
// gives up: a malformed line is answered with a JSON-RPC error and the
// session goes on, and at the end of input every call already read is
// answered before the session ends. A client that closes standard output
// ends the session with [ErrClientGone].
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/internal/rpcmsg"
	"maison/voice"
	"maison/words"
)

// MaxLine is the longest line read; a longer one is answered with an error
// and skipped.
const MaxLine = 4 << 20

// Transport is an mcp.Transport over a reader and a writer.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// Drain bounds how long, at the end of input, calls already read may
	// take to be answered. Zero means 30s.
	Drain time.Duration
	// Lang is the language of maison's refusals. Zero means English.
	Lang voice.Lang
}

var _ mcp.Transport = (*Transport)(nil)

// Connect starts reading lines.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	drain := t.Drain
	if drain == 0 {
		drain = 30 * time.Second
	}
	c := &conn{out: t.Out, drain: drain, lang: t.Lang, lines: make(chan line), closed: make(chan struct{}), pending: map[jsonrpc.ID]string{}, idle: make(chan struct{}, 1)}
	go c.read(t.In)
	return c, nil
}

type line struct {
	b   []byte
	err error
}

type conn struct {
	out   io.Writer
	drain time.Duration
	lang  voice.Lang
	lines chan line

	wmu sync.Mutex // writes

	mu          sync.Mutex
	pending     map[jsonrpc.ID]string // the method of each call read and not yet answered
	idle        chan struct{}         // signalled when pending empties
	initialized bool                  // an initialize call has been answered with a result

	closeOnce sync.Once
	closed    chan struct{}
}

// read sends each line of in, then the error that ended it.
func (c *conn) read(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		b, err := readLine(r)
		if len(b) > 0 || errors.Is(err, errLineTooLong) {
			select {
			case c.lines <- line{b: b, err: errorIf(errors.Is(err, errLineTooLong), err)}:
			case <-c.closed:
				return
			}
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			select {
			case c.lines <- line{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

func errorIf(cond bool, err error) error {
	if cond {
		return err
	}
	return nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, bounded by MaxLine.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			// Skip the rest of the line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return bytes.TrimSpace(buf), err
		}
		return bytes.TrimSpace(buf), nil
	}
}

// Read returns the next message, answering malformed lines on the way. At
// the end of input it waits until every call read has been answered.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l := <-c.lines:
			if l.err != nil && !errors.Is(l.err, errLineTooLong) {
				c.awaitAnswers(ctx)
				return nil, l.err
			}
			if msg := c.accept(l); msg != nil {
				return msg, nil
			}
		}
	}
}

// accept checks one line and returns its message, or answers it with an
// error and returns nil.
func (c *conn) accept(l line) jsonrpc.Message {
	if l.err != nil {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, words.StdioLineTooLong(c.lang, MaxLine>>20))
		return nil
	}
	b := l.b
	switch {
	case !utf8.Valid(b):
		c.refuse(nil, jsonrpc.CodeParseError, words.StdioNotUTF8.In(c.lang))
		return nil
	case rpcmsg.TooDeep(b):
		c.refuse(nil, jsonrpc.CodeInvalidRequest, words.StdioTooDeep(c.lang, rpcmsg.MaxDepth))
		return nil
	case !json.Valid(b):
		c.refuse(nil, jsonrpc.CodeParseError, words.StdioMalformedJSON.In(c.lang))
		return nil
	case b[0] == '[':
		c.refuse(nil, jsonrpc.CodeInvalidRequest, words.StdioNoBatches.In(c.lang))
		return nil
	}
	// The line's top level is read once, here, for the checks the SDK does
	// not make; the SDK decodes it again as its message.
	var fields map[string]json.RawMessage
	json.Unmarshal(b, &fields) // valid JSON: fields is nil unless an object
	if problem := rpcmsg.IDProblem(c.lang, fields["id"]); problem != "" {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, words.StdioNotJSONRPC(c.lang, problem))
		return nil
	}
	if method := methodOf(fields); method != "" {
		if problem := rpcmsg.ParamsProblem(c.lang, method, fields["params"]); problem != "" {
			c.refuse(answerableID(fields), jsonrpc.CodeInvalidParams, words.StdioParamsProblem(c.lang, voice.Visible(method, detailRunes), problem))
			return nil
		}
	}
	msg, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		c.refuse(answerableID(fields), jsonrpc.CodeInvalidRequest, words.StdioUndecodable(c.lang, voice.Visible(err.Error(), detailRunes)))
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		_, reused := c.pending[req.ID]
		c.pending[req.ID] = req.Method
		c.mu.Unlock()
		if reused {
			// The SDK drops a call whose id is in use without a word.
			c.refuse(nil, jsonrpc.CodeInvalidRequest, words.StdioIDInUse.In(c.lang))
			return nil
		}
	}
	return msg
}

// awaitAnswers waits, within the drain bound, until every call read has
// been answered.
func (c *conn) awaitAnswers(ctx context.Context) {
	deadline := time.NewTimer(c.drain)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.idle:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		}
	}
}

// methodOf is a message's method as written, keys matched exactly as the
// SDK matches them, or "".
func methodOf(fields map[string]json.RawMessage) string {
	var method string
	if json.Unmarshal(fields["method"], &method) != nil {
		return ""
	}
	return method
}

// answerableID is the id of a message that did not decode, if it has one
// that can be answered as written.
func answerableID(fields map[string]json.RawMessage) json.RawMessage {
	switch id := bytes.TrimSpace(fields["id"]); {
	case len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9'):
		return id
	}
	return nil
}

// refuse writes a JSON-RPC error response of maison's own.
func (c *conn) refuse(id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	c.writeLine(b)
}

// Write sends a message, and counts a response as an answered call.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	resp, _ := msg.(*jsonrpc.Response)
	if resp != nil {
		c.mu.Lock()
		method, initialized := c.pending[resp.ID], c.initialized
		c.initialized = initialized || method == "initialize" && resp.Error == nil
		c.mu.Unlock()
		msg = ownWords(c.lang, resp, method, initialized)
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if err := c.writeLine(b); err != nil {
		return err
	}
	if resp != nil {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		if len(c.pending) == 0 {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
		c.mu.Unlock()
	}
	return nil
}

// ownWords answers, in maison's words and with a JSON-RPC code, a call the
// SDK refused in its own words with code 0: before initialize, an invalid
// request; later, an internal error that names the SDK's reason. The SDK's
// own refusals with a code (params it cannot read, a cursor it did not
// give, a method maison does not offer) are said in words
// (rpcmsg.SDKWords), and no SDK error repeats an invisible character.
func ownWords(lang voice.Lang, resp *jsonrpc.Response, method string, initialized bool) *jsonrpc.Response {
	var wire *jsonrpc.Error
	switch {
	case resp.Error == nil:
		return resp
	case errors.As(resp.Error, &wire):
		if said := rpcmsg.SDKWords(lang, method, wire.Code, resp.Error.Error()); said != "" {
			return &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: wire.Code, Message: said + words.StdioSessionGoesOn.In(lang)}}
		}
		if !strings.ContainsFunc(wire.Message, voice.Invisible) {
			return resp
		}
		// The SDK's own words repeat a name as sent (%q leaves some
		// invisible letters): keep only what a person sees of them.
		return &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: wire.Code, Message: voice.Visible(wire.Message, 0), Data: wire.Data}}
	}
	e := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: words.StdioCallFailed(lang, strconv.Quote(method), voice.Visible(resp.Error.Error(), detailRunes))}
	if !initialized && method != "initialize" {
		e = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: words.StdioNotInitialized(lang, strconv.Quote(method))}
	}
	return &jsonrpc.Response{ID: resp.ID, Error: e}
}

// ErrClientGone ends a session whose client closed its end of standard
// output: no answer can reach it any more.
var ErrClientGone = errors.New("stdio: the client closed its end of standard output")

// writeLine writes one message. A broken pipe is the client gone: the
// session ends (Read returns), and the error says so.
func (c *conn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) {
		c.Close()
		return fmt.Errorf("%w: %w", ErrClientGone, err)
	}
	return err
}

// Close ends the session; a Read waiting for input returns.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *conn) SessionID() string { return "" }

// detailRunes bounds a text from outside quoted in an answer, in runes
// with "…" included, of what a person sees of it (voice.Visible).
const detailRunes = 161
