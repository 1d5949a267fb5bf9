// Package rpcmsg holds the checks on a JSON-RPC message's text that both
// of maison's front ends (the HTTP door and stdio) make before the MCP SDK
// reads it: how deeply it nests, whether its id can be answered as it was
// sent, and whether its params are what its method takes.
package rpcmsg

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"maison/voice"
)

// MaxDepth bounds how deeply a message may nest arrays and objects (TooDeep).
const MaxDepth = 64

// maxExactID is the largest whole number an id may be: the MCP SDK reads
// a numeric id as a float64, which holds whole numbers exactly up to 2^53.
const maxExactID = 1 << 53

// IDProblem says, as the end of a sentence, what is wrong with a JSON-RPC
// id, or returns "" when its answer will carry that very id: a string,
// null, or a whole number within ±2^53 written in digits alone (or no id
// at all). The MCP SDK reads a number as a float64 and writes it back in
// its own form, so 1.5 would be answered as 1, 1e3 as 1000 and -0 as 0,
// and the client could not match the answer to its call.
func IDProblem(id []byte) string {
	id = bytes.TrimSpace(id)
	var c byte
	if len(id) > 0 {
		c = id[0]
	}
	switch {
	case len(id) == 0, c == '"', string(id) == "null":
		return ""
	case c == '-' || c >= '0' && c <= '9':
		text := string(id)
		if n, err := strconv.ParseInt(text, 10, 64); err == nil && strconv.FormatInt(n, 10) == text && n >= -maxExactID && n <= maxExactID {
			return ""
		}
		return "its id must be a string or a whole number written in digits alone (no fraction, exponent or -0), no larger than 9007199254740992 (2^53); another number would be answered under a different id (1e3 as 1000)."
	}
	return "its id must be a string or a number."
}

// ParamsProblem says, as the end of a sentence, what is wrong with the
// params of a request for method, or returns "" when the MCP SDK can read
// them: MCP's methods take an object (or none); tools/call and prompts/get
// one naming the tool or prompt by a string "name", with "arguments" an
// object; completion/complete one with a "ref" object. The SDK would
// otherwise answer in its own terms (a Go type, a missing field).
func ParamsProblem(method string, params []byte) string {
	params = bytes.TrimSpace(params)
	var named string
	switch method {
	case "tools/call":
		named = `the tool, such as {"name": "describe_house", "arguments": {}}; tools/list gives the names`
	case "prompts/get":
		named = `the prompt, such as {"name": "…", "arguments": {}}; prompts/list gives the names`
	}
	if len(params) == 0 || string(params) == "null" {
		switch {
		case named != "":
			return `its "params" must name ` + named + "."
		case method == "completion/complete":
			return needsRef
		}
		return ""
	}
	var p map[string]json.RawMessage
	if params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return `its "params" must be a JSON object, not ` + kind(params) + `: the method takes named fields.`
	}
	switch {
	case named != "":
		var name string
		if json.Unmarshal(p["name"], &name) != nil || name == "" {
			return `its "params" must name ` + named + ` ("name" is a non-empty string, spelt in lower case).`
		}
		if a := bytes.TrimSpace(p["arguments"]); len(a) > 0 && a[0] != '{' && string(a) != "null" {
			return `its "arguments" must be a JSON object of named arguments, not ` + kind(a) + "."
		}
	case method == "completion/complete":
		if r := bytes.TrimSpace(p["ref"]); len(r) == 0 || r[0] != '{' {
			return needsRef
		}
	}
	return ""
}

// needsRef says what completion/complete's params must hold.
const needsRef = `its "params" must hold a "ref" object naming what to complete, such as {"ref": {"type": "ref/prompt", "name": "…"}, "argument": {"name": "…", "value": "…"}}.`

// sdkField finds, in the SDK's refusal of params it could not read, the
// field and the Go type it wanted.
var sdkField = regexp.MustCompile(`Go struct field \S+?\.([^.\s]+) of type (\S+)`)

// SDKWords puts the MCP SDK's own refusal of a call to method (JSON-RPC
// code, message) into maison's sentences, or returns "" when the message is
// not the SDK's (maison's own words, which end in a full stop, are kept;
// maison never answers "method not found" itself). The SDK names Go types
// (*mcp.ListToolsParams), says a bare "invalid params" for a cursor it did
// not give, and quotes method names with invisible letters; the client
// reads what was wrong, that nothing was done, and what to send instead.
func SDKWords(method string, code int64, msg string) string {
	m := "“" + voice.Visible(method, 81) + "”"
	switch {
	case code == jsonrpc.CodeMethodNotFound:
		return "maison does not offer the method " + m + ", so nothing was done. Call tools/list to see what it offers, and leave this method out."
	case code != jsonrpc.CodeInvalidParams:
		return ""
	case msg == "invalid params" && strings.HasSuffix(method, "/list"):
		return `The "cursor" in the params of ` + m + " is not one maison gave, so nothing was done. Send the nextCursor of maison's last answer as it was, or leave the cursor out to start from the first page."
	case strings.HasPrefix(msg, "handling '"), strings.HasPrefix(msg, "invalid params"), !strings.HasSuffix(msg, "."):
		what := ""
		if f := sdkField.FindStringSubmatch(msg); f != nil {
			what = ` (its "` + voice.Visible(f[1], 41) + `" must be ` + jsonKind(f[2]) + ")"
		} else if !strings.Contains(msg, "mcp.") && !strings.Contains(msg, "unmarshal") && !strings.HasPrefix(msg, "invalid params") {
			what = " (" + voice.Visible(msg, 161) + ")"
		}
		return "The params of " + m + " are not what it takes" + what + ", so nothing was done. Send them again as the MCP specification gives them for " + m + "."
	}
	return ""
}

// jsonKind names, for a sentence, the JSON value a Go type is read from.
func jsonKind(goType string) string {
	switch t := strings.TrimLeft(goType, "*"); {
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map["):
		return "an object"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "a number"
	}
	return "of another kind"
}

// kind names the kind of a JSON value for a sentence.
func kind(v []byte) string {
	switch v[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// TooDeep reports whether JSON text b nests arrays and objects more than
// 64 levels deep, which no MCP message needs; deep nesting costs stack and
// time in every parser it meets.
func TooDeep(b []byte) bool { return depth(b) > MaxDepth }

// depth is how deeply b nests arrays and objects, strings skipped, counted
// up to just past MaxDepth.
func depth(b []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			if most = max(most, d); most > MaxDepth {
				return most
			}
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}
