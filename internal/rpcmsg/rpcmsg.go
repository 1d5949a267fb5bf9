// Package rpcmsg holds the checks on a JSON-RPC message's text that both
// of maison's front ends (the HTTP door and stdio) make before the MCP SDK
// reads it: how deeply it nests, and whether its id can be answered under
// the same number.
package rpcmsg

import (
	"bytes"
	"math"
	"strconv"
)

// MaxDepth bounds how deeply a message may nest arrays and objects (TooDeep).
const MaxDepth = 64

// maxExactID is the largest whole number an id may be: the MCP SDK reads
// a numeric id as a float64, which holds whole numbers exactly up to 2^53.
const maxExactID = 1 << 53

// IDProblem says, as the end of a sentence, what is wrong with a JSON-RPC
// id, or returns "" when its answer will carry that very id: a string,
// null, or a whole number within ±2^53 (or no id at all). A fraction or a larger number
// would be answered under another number (1.5 as 1), and the client could
// not match the answer to its call.
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
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			if n >= -maxExactID && n <= maxExactID {
				return ""
			}
		} else if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < maxExactID {
			return ""
		}
		return "its id must be a string or a whole number no larger than 9007199254740992 (2^53); another number would be answered under a different id."
	}
	return "its id must be a string or a number."
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
