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
	"maison/words"
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
func IDProblem(l voice.Lang, id []byte) string {
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
		return words.RPCIDNotExact.In(l)
	}
	return words.RPCIDNotStringOrNumber.In(l)
}

// ParamsProblem says, as the end of a sentence, what is wrong with the
// params of a request for method, or returns "" when the MCP SDK can read
// them: MCP's methods take an object (or none); tools/call and prompts/get
// one naming the tool or prompt by a string "name", with "arguments" an
// object; completion/complete one with a "ref" object. The SDK would
// otherwise answer in its own terms (a Go type, a missing field).
func ParamsProblem(l voice.Lang, method string, params []byte) string {
	params = bytes.TrimSpace(params)
	var named string
	switch method {
	case "tools/call":
		named = words.RPCNamedTool.In(l)
	case "prompts/get":
		named = words.RPCNamedPrompt.In(l)
	}
	if len(params) == 0 || string(params) == "null" {
		switch {
		case named != "":
			return words.RPCMustName(l, named, false)
		case method == "completion/complete":
			return words.RPCNeedsRef.In(l)
		}
		return ""
	}
	var p map[string]json.RawMessage
	if params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return words.RPCParamsNotObject(l, kind(params).In(l))
	}
	switch {
	case named != "":
		var name string
		if json.Unmarshal(p["name"], &name) != nil || name == "" {
			return words.RPCMustName(l, named, true)
		}
		if a := bytes.TrimSpace(p["arguments"]); len(a) > 0 && a[0] != '{' && string(a) != "null" {
			return words.RPCArgumentsNotObject(l, kind(a).In(l))
		}
	case method == "completion/complete":
		if r := bytes.TrimSpace(p["ref"]); len(r) == 0 || r[0] != '{' {
			return words.RPCNeedsRef.In(l)
		}
	}
	return ""
}

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
func SDKWords(l voice.Lang, method string, code int64, msg string) string {
	m := "“" + voice.Visible(method, 81) + "”"
	switch {
	case code == jsonrpc.CodeMethodNotFound:
		return words.RPCMethodNotFound(l, m)
	case code != jsonrpc.CodeInvalidParams:
		return ""
	case msg == "invalid params" && strings.HasSuffix(method, "/list"):
		return words.RPCCursorNotOurs(l, m)
	case strings.HasPrefix(msg, "handling '"), strings.HasPrefix(msg, "invalid params"), !strings.HasSuffix(msg, "."):
		what := ""
		if f := sdkField.FindStringSubmatch(msg); f != nil {
			what = words.RPCFieldMustBe(l, voice.Visible(f[1], 41), jsonKind(f[2]).In(l))
		} else if !strings.Contains(msg, "mcp.") && !strings.Contains(msg, "unmarshal") && !strings.HasPrefix(msg, "invalid params") {
			what = voice.Visible(msg, 161)
		}
		return words.RPCParamsNotTaken(l, m, what)
	}
	return ""
}

// jsonKind names, for a sentence, the JSON value a Go type is read from.
func jsonKind(goType string) words.Key {
	switch t := strings.TrimLeft(goType, "*"); {
	case t == "string":
		return words.JSONString
	case t == "bool":
		return words.JSONBool
	case strings.HasPrefix(t, "[]"):
		return words.JSONArray
	case strings.HasPrefix(t, "map["):
		return words.JSONObject
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return words.JSONNumber
	}
	return words.JSONOther
}

// kind names the kind of a JSON value for a sentence.
func kind(v []byte) words.Key {
	switch v[0] {
	case '[':
		return words.JSONArray
	case '"':
		return words.JSONString
	case 't', 'f':
		return words.JSONBool
	case 'n':
		return words.JSONNull
	}
	return words.JSONNumber
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
