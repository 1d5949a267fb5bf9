package door

import (
	"bytes"
	"regexp"
	"strconv"

	"maison/voice"
	"maison/words"
)

// Go's HTTP server answers some requests before any handler runs, when it
// cannot read them as HTTP: headers over MaxHeaderBytes (431), two
// different Content-Length headers, a missing or malformed Host, a
// malformed request line or header (400), an unknown transfer encoding
// (501), an HTTP version other than 1.x (505). It writes each such answer
// in plain text, in one write on the connection, and closes it. The
// connections LimitConns hands out put those answers into JSON-RPC in
// words, as every other answer of the door is, keeping the status.

// earlyAnswer matches exactly what Go's server writes for such a request:
// a status line, its two fixed headers, no Date (every handler's answer
// has one), and a body that repeats the status line or names the transfer
// encoding.
var earlyAnswer = regexp.MustCompile(`\AHTTP/1\.1 ([45][0-9]{2}) ([^\r\n]*)\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n([^\r\n]*)\z`)

// rewriteEarly returns the JSON-RPC answer for a write that is one of Go's
// own early answers, or nil when b is anything else.
func rewriteEarly(b []byte, lang voice.Lang) []byte {
	m := earlyAnswer.FindSubmatch(b)
	if m == nil {
		return nil
	}
	code, _ := strconv.Atoi(string(m[1]))
	line, body := m[2], m[3]
	if string(body) != string(m[1])+" "+string(line) && !(code == 501 && string(body) == "Unsupported transfer encoding") {
		return nil
	}
	status, detail, _ := bytes.Cut(line, []byte(": "))
	var msg string
	switch code {
	case 431:
		msg = words.DoorHeadersTooLarge(lang)
	case 501:
		msg = words.DoorTransferEncoding(lang)
	case 505:
		msg = words.DoorHTTPVersion(lang)
	case 400:
		if string(detail) == "missing required Host header" {
			msg = words.DoorNoHost(lang)
			break
		}
		fallthrough
	default:
		why := ""
		if len(detail) > 0 {
			why = voice.Visible(string(detail), detailRunes)
		}
		msg = words.DoorMalformedHTTP(lang, why)
	}
	out := rpcErrorBody(nil, codeInvalidRequest, msg, 0)
	out = append(out, '\n')
	head := "HTTP/1.1 " + string(m[1]) + " " + string(status) +
		"\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(out)) + "\r\n\r\n"
	return append([]byte(head), out...)
}
