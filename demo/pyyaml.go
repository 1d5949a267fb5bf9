package demo

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Home Assistant writes GetLiveContext with PyYAML's yaml.dump and its
// settings (default_flow_style=False, allow_unicode=True, sort_keys=False,
// the C dumper built on libyaml), then replaces every ": null\n" with ":\n".
// The writer here produces the same bytes for what a live context holds: a
// block sequence of block mappings whose values are strings, floats, None or
// a block mapping of those. It follows libyaml's emitter (width 80, indent 2)
// for the choice of scalar style and for where lines are folded, and
// PyYAML's resolver (YAML 1.1) for which strings must be quoted because they
// would read back as something else.

// yamlValue is a value the writer accepts: string, float64, nil (None), or
// yamlMap.
type yamlValue = any

// yamlMap is an ordered mapping, as a Python dict keeps insertion order.
type yamlMap []yamlPair

type yamlPair struct {
	key   string
	value yamlValue
}

const (
	yamlWidth  = 80 // libyaml's best_width when PyYAML passes none
	yamlIndent = 2  // libyaml's best_indent
)

// pyYAMLDump renders items as yaml.dump does with Home Assistant's settings.
func pyYAMLDump(items []yamlMap) string {
	e := &yamlEmitter{indent: -1, whitespace: true, indention: true}
	if len(items) == 0 {
		e.flowEmpty("[]", true)
	} else {
		e.pushIndent(false, false)
		for _, m := range items {
			e.writeIndent()
			e.indicator("-", true, false, true)
			e.blockMapping(m)
		}
		e.popIndent()
	}
	e.writeIndent() // the implicit document end
	return e.b.String()
}

// haYAMLDump is Home Assistant's yaml_util.dump: PyYAML, then ": null\n" → ":\n".
func haYAMLDump(items []yamlMap) string {
	return strings.ReplaceAll(pyYAMLDump(items), ": null\n", ":\n")
}

// yamlEmitter holds libyaml's emitter state for the parts used here.
type yamlEmitter struct {
	b          strings.Builder
	column     int
	whitespace bool // the last character written is white space
	indention  bool // only indentation has been written on this line
	indent     int
	indents    []int
}

func (e *yamlEmitter) pushIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent < 0 && flow:
		e.indent = yamlIndent
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += yamlIndent
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

func (e *yamlEmitter) lineBreak() {
	e.b.WriteByte('\n')
	e.column = 0
}

func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.lineBreak()
	}
	for e.column < indent {
		e.b.WriteByte(' ')
		e.column++
	}
	e.whitespace, e.indention = true, true
}

func (e *yamlEmitter) indicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.b.WriteByte(' ')
		e.column++
	}
	e.b.WriteString(s)
	e.column += utf8.RuneCountInString(s)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// flowEmpty writes an empty flow collection, "[]" or "{}".
func (e *yamlEmitter) flowEmpty(s string, root bool) {
	if root {
		e.pushIndent(true, false)
	}
	e.indicator(s[:1], true, true, false)
	e.indicator(s[1:], false, false, false)
	if root {
		e.popIndent()
	}
}

// blockMapping writes m as the node after a sequence indicator or a key.
func (e *yamlEmitter) blockMapping(m yamlMap) {
	if len(m) == 0 {
		e.flowEmpty("{}", false)
		return
	}
	e.pushIndent(false, false)
	for _, p := range m {
		e.writeIndent()
		e.scalar(p.key, true)
		e.indicator(":", false, false, false)
		switch v := p.value.(type) {
		case yamlMap:
			e.blockMapping(v)
		default:
			e.scalar(v, false)
		}
	}
	e.popIndent()
}

// scalar writes one scalar as PyYAML represents it: a str as str, a float
// with Python's repr, None as null.
func (e *yamlEmitter) scalar(v yamlValue, simpleKey bool) {
	var text string
	implicit := true // the plain form reads back as the same value
	switch x := v.(type) {
	case nil:
		text = "null"
	case float64:
		text = yamlFloat(x)
	case string:
		text = strings.ToValidUTF8(x, "\uFFFD")
		implicit = !resolvesAsOther(text)
	default:
		text = strings.ToValidUTF8(pyStr(x), "\uFFFD")
		implicit = !resolvesAsOther(text)
	}
	a := analyzeScalar(text)
	style := selectStyle(a, implicit, simpleKey)
	e.pushIndent(true, false)
	switch style {
	case '"':
		e.doubleQuoted(text, !simpleKey)
	case '\'':
		e.singleQuoted(text, !simpleKey)
	default:
		e.plain(text, !simpleKey)
	}
	e.popIndent()
}

// scalarAnalysis is libyaml's yaml_emitter_analyze_scalar result.
type scalarAnalysis struct {
	empty, multiline                      bool
	blockPlain, singleQuoted, blockScalar bool
}

func isBreakRune(r rune) bool {
	return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isBlankZRune(r rune) bool { return r == ' ' || r == '\t' || r == 0 || isBreakRune(r) }

// printable is libyaml's IS_PRINTABLE: note that it excludes every
// character outside the Basic Multilingual Plane, so an emoji forces double
// quotes and is written as an escape.
func printable(r rune) bool {
	switch {
	case r == '\n', r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	}
	return false
}

func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{empty: true, blockPlain: true, singleQuoted: true}
	}
	var (
		blockIndicators, lineBreaks, special          bool
		leadingSpace, leadingBreak, trailingSpace     bool
		trailingBreak, breakSpace, spaceBreak         bool
		previousSpace, previousBreak, precededByBlank = false, false, true
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	runes := []rune(s)
	followedByBlank := len(runes) == 1 || isBlankZRune(runes[1])
	for i, r := range runes {
		if i == 0 {
			switch {
			case strings.ContainsRune("#,[]{}&*!|>'\"%@`", r):
				blockIndicators = true
			case r == '?' || r == ':':
				if followedByBlank {
					blockIndicators = true
				}
			case r == '-' && followedByBlank:
				blockIndicators = true
			}
		} else {
			if r == ':' && followedByBlank {
				blockIndicators = true
			}
			if r == '#' && precededByBlank {
				blockIndicators = true
			}
		}
		if !printable(r) {
			special = true
		}
		if isBreakRune(r) {
			lineBreaks = true
		}
		switch {
		case r == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i == len(runes)-1 {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreakRune(r):
			if i == 0 {
				leadingBreak = true
			}
			if i == len(runes)-1 {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByBlank = isBlankZRune(r)
		if i+1 < len(runes) {
			followedByBlank = i+2 >= len(runes) || isBlankZRune(runes[i+2])
		}
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, blockScalar: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlain = false
	}
	if trailingSpace {
		a.blockScalar = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.blockPlain, a.singleQuoted, a.blockScalar = false, false, false
	}
	if lineBreaks || blockIndicators {
		a.blockPlain = false
	}
	return a
}

// selectStyle is libyaml's yaml_emitter_select_scalar_style for a scalar
// PyYAML hands over without a style: plain where allowed and where it reads
// back as the same value, else single quotes, else double quotes.
func selectStyle(a scalarAnalysis, implicit, simpleKey bool) byte {
	if simpleKey && a.multiline {
		return '"'
	}
	style := byte(0)
	if !a.blockPlain || (a.empty && simpleKey) || !implicit {
		style = '\''
	}
	if style == '\'' && !a.singleQuoted {
		style = '"'
	}
	return style
}

// writeRune copies one character; every character counts as one column.
func (e *yamlEmitter) writeRune(r rune) {
	e.b.WriteRune(r)
	e.column++
}

// writeBreak writes a line break found in the text.
func (e *yamlEmitter) writeBreak(r rune) {
	if r == '\n' {
		e.lineBreak()
		return
	}
	e.b.WriteRune(r)
	e.column = 0
}

// plain writes a plain scalar; singleQuoted writes it between single quotes,
// each quote inside doubled. Both fold long lines at a single space and
// write a line break of the text as libyaml does.
func (e *yamlEmitter) plain(s string, allowBreaks bool) {
	if !e.whitespace && s != "" {
		e.writeRune(' ')
	}
	e.folded(s, allowBreaks, false)
	e.whitespace, e.indention = false, false
}

func (e *yamlEmitter) singleQuoted(s string, allowBreaks bool) {
	e.indicator("'", true, false, false)
	if e.folded(s, allowBreaks, true) {
		e.writeIndent()
	}
	e.indicator("'", false, false, false)
	e.whitespace, e.indention = false, false
}

// folded writes the text of a plain or single-quoted scalar and reports
// whether it ended on a line break.
func (e *yamlEmitter) folded(s string, allowBreaks, quoted bool) bool {
	runes := []rune(s)
	spaces, breaks := false, false
	for i, r := range runes {
		switch {
		case r == ' ':
			if allowBreaks && !spaces && e.column > yamlWidth && i != 0 && i != len(runes)-1 && runes[i+1] != ' ' {
				e.writeIndent()
			} else {
				e.writeRune(r)
			}
			spaces = true
		case isBreakRune(r):
			if !breaks && r == '\n' {
				e.lineBreak()
			}
			e.writeBreak(r)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if quoted && r == '\'' {
				e.writeRune('\'')
			}
			e.writeRune(r)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	return breaks
}

// yamlEscapes are the short escapes libyaml writes in double quotes.
var yamlEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r', 0x1B: 'e',
	'"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

func (e *yamlEmitter) doubleQuoted(s string, allowBreaks bool) {
	e.indicator("\"", true, false, false)
	runes := []rune(s)
	spaces := false
	for i, r := range runes {
		switch {
		case !printable(r) || r == 0xFEFF || isBreakRune(r) || r == '"' || r == '\\':
			e.writeRune('\\')
			if c, ok := yamlEscapes[r]; ok {
				e.writeRune(rune(c))
			} else {
				var hex string
				switch {
				case r <= 0xFF:
					hex = "x" + strings.ToUpper(leftPad(strconv.FormatInt(int64(r), 16), 2))
				case r <= 0xFFFF:
					hex = "u" + strings.ToUpper(leftPad(strconv.FormatInt(int64(r), 16), 4))
				default:
					hex = "U" + strings.ToUpper(leftPad(strconv.FormatInt(int64(r), 16), 8))
				}
				for _, c := range hex {
					e.writeRune(c)
				}
			}
			spaces = false
		case r == ' ':
			if allowBreaks && !spaces && e.column > yamlWidth && i != 0 && i != len(runes)-1 {
				e.writeIndent()
				if runes[i+1] == ' ' {
					e.writeRune('\\')
				}
			} else {
				e.writeRune(r)
			}
			spaces = true
		default:
			e.writeRune(r)
			spaces = false
		}
	}
	e.indicator("\"", false, false, false)
	e.whitespace, e.indention = false, false
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// PyYAML's implicit resolvers (YAML 1.1), by the first character they may
// start with. A str that one of them would read as another type cannot be
// written plain.
var (
	yamlBoolRE  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	yamlFloatRE = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlIntRE   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yamlMergeRE = regexp.MustCompile(`^(?:<<)$`)
	yamlNullRE  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	yamlTimeRE  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	yamlValueRE = regexp.MustCompile(`^(?:=)$`)
	yamlYAMLRE  = regexp.MustCompile(`^(?:!|&|\*)$`)
)

// resolvesAsOther reports whether PyYAML's resolver would give the plain
// scalar s a tag other than str. Python's $ also matches before a final
// newline, which the second try reproduces.
func resolvesAsOther(s string) bool {
	if resolvesAs(s) {
		return true
	}
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return resolvesAs(t)
	}
	return false
}

func resolvesAs(s string) bool {
	var first byte
	if s != "" {
		first = s[0]
	}
	var res []*regexp.Regexp
	switch {
	case s == "":
		res = []*regexp.Regexp{yamlNullRE}
	case strings.IndexByte("yYnNtTfFoO", first) >= 0:
		res = []*regexp.Regexp{yamlBoolRE}
		if first == 'n' || first == 'N' {
			res = append(res, yamlNullRE)
		}
	case strings.IndexByte("0123456789", first) >= 0:
		res = []*regexp.Regexp{yamlFloatRE, yamlIntRE, yamlTimeRE}
	case first == '-' || first == '+':
		res = []*regexp.Regexp{yamlFloatRE, yamlIntRE}
	case first == '.':
		res = []*regexp.Regexp{yamlFloatRE}
	case first == '<':
		res = []*regexp.Regexp{yamlMergeRE}
	case first == '~':
		res = []*regexp.Regexp{yamlNullRE}
	case first == '=':
		res = []*regexp.Regexp{yamlValueRE}
	case first == '!' || first == '&' || first == '*':
		res = []*regexp.Regexp{yamlYAMLRE}
	}
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// yamlFloat is PyYAML's represent_float: Python's repr, lowercased, with
// ".0" put before the exponent when repr wrote none, and .nan, .inf, -.inf.
func yamlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := pyFloatRepr(f)
	if !strings.Contains(s, ".") && strings.Contains(s, "e") {
		s = strings.Replace(s, "e", ".0e", 1)
	}
	return s
}

// pyFloatRepr is Python's repr of a finite float: the shortest digits that
// read back, in positional form when the decimal exponent is between -4 and
// 16, else in scientific form with a signed exponent of at least two digits.
func pyFloatRepr(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	decpt := x + 1 // digits before the decimal point
	if decpt > -4 && decpt <= 16 {
		var s string
		switch {
		case decpt <= 0:
			s = "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			s = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			s = digits[:decpt] + "." + digits[decpt:]
		}
		return sign + s
	}
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	es := "+"
	if x < 0 {
		es, x = "-", -x
	}
	return sign + m + "e" + es + leftPad(strconv.Itoa(x), 2)
}
