package door

import (
	"bytes"
	"regexp"
	"strconv"

	"maison/voice"
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
		msg = lang.Pick(
			"The request's headers are larger than maison reads (64 KB), so it read nothing of it. Nothing was done. Send shorter headers (an MCP client sends well under 1 KB of them); this connection is closed.",
			"Les en-têtes de la requête dépassent ce que maison lit (64 Ko), alors elle n'en a rien lu. Rien n'a été fait. Envoyez des en-têtes plus courts (un client MCP en envoie bien moins de 1 Ko); cette connexion est fermée.")
	case 501:
		msg = lang.Pick(
			"The request's body uses a transfer encoding maison does not read, so it read nothing of it. Nothing was done. Send the body with Content-Length, or chunked; this connection is closed.",
			"Le corps de la requête utilise un encodage de transfert que maison ne lit pas, alors elle n'en a rien lu. Rien n'a été fait. Envoyez le corps avec Content-Length, ou en morceaux (chunked); cette connexion est fermée.")
	case 505:
		msg = versionWords(lang)
	case 400:
		if string(detail) == "missing required Host header" {
			msg = noHostWords(lang)
			break
		}
		fallthrough
	default:
		why := ""
		if len(detail) > 0 {
			why = " (" + clipText(string(detail)) + ")"
		}
		msg = lang.Pick(
			"The request is not well-formed HTTP"+why+", so maison read nothing of it. Nothing was done. Check the client or proxy that sent it; this connection is closed.",
			"La requête n'est pas du HTTP bien formé"+why+", alors maison n'en a rien lu. Rien n'a été fait. Vérifiez le client ou le mandataire qui l'a envoyée; cette connexion est fermée.")
	}
	out := rpcErrorBody(nil, codeInvalidRequest, msg, 0)
	out = append(out, '\n')
	head := "HTTP/1.1 " + string(m[1]) + " " + string(status) +
		"\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(out)) + "\r\n\r\n"
	return append([]byte(head), out...)
}

// versionWords says maison does not speak the request's HTTP version: Go's
// server answers most such requests itself, and lets HTTP/2's opening line
// (an h2c client with prior knowledge) through to the door.
func versionWords(lang voice.Lang) string {
	return lang.Pick(
		"This HTTP version is not one maison speaks, so it read nothing of the request. Nothing was done. Send HTTP/1.1; this connection is closed.",
		"Cette version de HTTP n'est pas une que maison parle, alors elle n'a rien lu de la requête. Rien n'a été fait. Envoyez du HTTP/1.1; cette connexion est fermée.")
}
