package demo

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Home Assistant is written in Python, and some of its answers are Python
// text: tool results are json.dumps output (", " and ": " separators, non-ASCII
// escaped), errors are reprs, and GetLiveContext is PyYAML. The helpers here
// reproduce those forms for the values the house uses.

// kv is one key of an ordered object; obj keeps insertion order as a Python
// dict does.
type kv struct {
	k string
	v any
}

type obj []kv

// pyDumps renders v as Python's json.dumps with default arguments would.
func pyDumps(v any) string {
	var b strings.Builder
	pyDump(&b, v)
	return b.String()
}

func pyDump(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		pyString(b, t)
	case int:
		b.WriteString(strconv.Itoa(t))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case float64:
		b.WriteString(pyFloat(t))
	case obj:
		b.WriteByte('{')
		for i, e := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			pyString(b, e.k)
			b.WriteString(": ")
			pyDump(b, e.v)
		}
		b.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o := make(obj, 0, len(t))
		for _, k := range keys {
			o = append(o, kv{k, t[k]})
		}
		pyDump(b, o)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			pyDump(b, e)
		}
		b.WriteByte(']')
	case []obj:
		items := make([]any, len(t))
		for i := range t {
			items[i] = t[i]
		}
		pyDump(b, items)
	case []string:
		items := make([]any, len(t))
		for i := range t {
			items[i] = t[i]
		}
		pyDump(b, items)
	default:
		pyString(b, fmt.Sprint(t))
	}
}

// pyString writes a JSON string with ensure_ascii: everything outside
// printable ASCII becomes \uXXXX (surrogate pairs above the BMP).
func pyString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r >= 0x20 && r <= 0x7e {
				b.WriteRune(r)
				continue
			}
			if r == utf8.RuneError {
				r = 0xFFFD
			}
			units := []rune{r}
			if r > 0xFFFF {
				r -= 0x10000
				units = []rune{0xD800 + (r >> 10), 0xDC00 + (r & 0x3FF)}
			}
			for _, u := range units {
				b.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					b.WriteByte(hex[(u>>shift)&0xF])
				}
			}
		}
	}
	b.WriteByte('"')
}

// pyFloat is Python's float repr for ordinary magnitudes: 21.5, 180.0.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if math.Abs(f) < 1e16 && (math.Abs(f) >= 1e-4 || f == 0) {
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	if !strings.ContainsAny(s, ".eEIN") {
		s += ".0"
	}
	return s
}

// pyRepr is Python's repr() of a str.
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
