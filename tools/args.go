package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/words"
)

// A tool's arguments are declared once, as argSpecs: they give the input
// schema clients see and the reading of each call, so the two never drift.
// Any argument the server cannot use gets an isError sentence in the answer
// language that names it and says what would work, never a decoder's text.

// argKind is the shape an argument takes.
type argKind int

const (
	argText     argKind = iota + 1 // a string
	argTextList                    // a list of strings (a string is read as a list of one)
	argInt                         // a whole number within min and max
	argPart                        // a named part of a picture, or a box of fractions
)

// argSpec declares one argument.
type argSpec struct {
	name     string
	kind     argKind
	required bool
	min, max int    // for argInt
	doc      string // one short sentence, for the schema
	// wants says, after "must be", what the argument takes: "a whole
	// number from 0 to 100".
	wants words.Key
}

// argValues are a call's arguments as read: a string, a []string or an int
// by name; an absent argument (or null, or empty text) is not there.
type argValues map[string]any

func (a argValues) text(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a argValues) list(name string) []string {
	l, _ := a[name].([]string)
	return l
}

func (a argValues) region(name string) camera.Region {
	r, _ := a[name].(camera.Region)
	return r
}

func (a argValues) number(name string) (int, bool) {
	n, ok := a[name].(int)
	return n, ok
}

// schema builds the JSON schema of a tool's input from its specs: no null
// types, no type arrays (a text or a list is anyOf), bounds where they
// exist, no property beyond those declared.
func schema(specs ...argSpec) map[string]any {
	props := map[string]any{}
	var required []string
	for _, a := range specs {
		var p map[string]any
		switch a.kind {
		case argText:
			p = map[string]any{"type": "string"}
		case argTextList:
			// A single text is read as a list of one, though the schema
			// says the list alone: it is shorter, and what models send.
			p = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
		case argInt:
			p = map[string]any{"type": "integer", "minimum": a.min, "maximum": a.max}
		case argPart:
			p = regionSchema()
		}
		p["description"] = a.doc
		props[a.name] = p
		if a.required {
			required = append(required, a.name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// withArgs registers a copy of d's tool whose input schema is computed from
// its arguments and whose input is read by them, notes the scope it needs,
// and returns the copy and its handler. The declared tool, shared by every
// server in the process, is never written.
func (s *server) withArgs(srv *mcp.Server, d toolDef) (*mcp.Tool, mcp.ToolHandler) {
	tool := *d.tool
	specs, handle := d.args, d.handle
	tool.InputSchema = schema(specs...)
	h := mcp.ToolHandler(func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var raw json.RawMessage
		if req != nil && req.Params != nil {
			raw = req.Params.Arguments
		}
		args, bad := s.readArgs(raw, specs)
		if bad != nil {
			return bad, nil
		}
		return handle(ctx, req, args), nil
	})
	s.scopes.add(&tool)
	srv.AddTool(&tool, h)
	return &tool, h
}

// readArgs reads raw arguments by their specs, or says what is wrong.
func (s *server) readArgs(raw json.RawMessage, specs []argSpec) (argValues, *mcp.CallToolResult) {
	out := argValues{}
	var fields map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if err := json.Unmarshal(t, &fields); err != nil {
			return nil, sayError(words.UnreadableArgs(s.deps.Lang))
		}
	}
	names := make([]string, 0, len(specs))
	for _, a := range specs {
		names = append(names, a.name)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(names, k) {
			return nil, s.unknownArg(k, names)
		}
	}
	for _, a := range specs {
		v, present := fields[a.name]
		if !present || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			if a.required {
				return nil, s.wrongArg(a, true)
			}
			continue
		}
		if tooLong(a, v) {
			return nil, s.longArg(a)
		}
		val, ok := readArg(a, v)
		if !ok {
			return nil, s.wrongArg(a, false)
		}
		if val == nil {
			if a.required {
				return nil, s.wrongArg(a, true)
			}
			continue
		}
		out[a.name] = val
	}
	return out, nil
}

// readArg reads one argument; nil means empty (an empty text or list).
func readArg(a argSpec, v json.RawMessage) (any, bool) {
	switch a.kind {
	case argText:
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, false
		}
		if strings.TrimSpace(s) == "" {
			return nil, true
		}
		return s, true
	case argTextList:
		var one string
		if json.Unmarshal(v, &one) == nil {
			if strings.TrimSpace(one) == "" {
				return nil, true
			}
			return []string{one}, true
		}
		var many []string
		if json.Unmarshal(v, &many) != nil {
			return nil, false
		}
		many = slices.DeleteFunc(many, func(s string) bool { return strings.TrimSpace(s) == "" })
		if len(many) == 0 {
			return nil, true
		}
		return many, true
	case argInt:
		var f float64
		if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || f < float64(a.min) || f > float64(a.max) {
			return nil, false
		}
		return int(f), true
	case argPart:
		return readRegion(v)
	}
	return nil, false
}

// regionSchema is a part of a picture: its name as text, or a box.
func regionSchema() map[string]any {
	frac := func(doc string) map[string]any {
		return map[string]any{"type": "number", "minimum": 0, "maximum": 1, "description": doc}
	}
	return map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "description": "A part as people say it: left, top right, centre…"},
		map[string]any{"type": "object", "description": "A box in fractions of the picture: x and y from its top left corner, width and height.",
			"properties": map[string]any{
				"x":      frac("Its left edge."),
				"y":      frac("Its top edge."),
				"width":  frac("Its width."),
				"height": frac("Its height."),
			},
			"required":             []string{"x", "y", "width", "height"},
			"additionalProperties": false},
	}}
}

// readRegion reads a named part, or a box (also when a client sent the
// box as text); nil means none was given.
func readRegion(v json.RawMessage) (any, bool) {
	var text string
	if json.Unmarshal(v, &text) == nil {
		text = strings.TrimSpace(text)
		if text == "" {
			return nil, true
		}
		if !strings.HasPrefix(text, "{") {
			r, err := camera.ParseRegion(text)
			return r, err == nil
		}
		v = json.RawMessage(text)
	}
	var box map[string]json.RawMessage
	if json.Unmarshal(v, &box) != nil {
		return nil, false
	}
	var xywh [4]float64
	for i, k := range []string{"x", "y", "width", "height"} {
		raw, ok := box[k]
		if !ok || json.Unmarshal(raw, &xywh[i]) != nil {
			return nil, false
		}
		delete(box, k)
	}
	if len(box) > 0 {
		return nil, false
	}
	r, err := camera.Box(xywh[0], xywh[1], xywh[2], xywh[3])
	return r, err == nil
}

// Names, areas and parts of a picture are said by people: none is longer
// than maxTextRunes, and a list names at most maxListItems. A longer value
// is refused before anything matches it (matching a 900 KB name against
// the house cost seconds of processor time).
const (
	maxTextRunes = 200
	maxListItems = 50
)

// tooLong reports whether a text argument, or one of a list's, is longer
// than anything a person says, or a list names more than maxListItems.
func tooLong(a argSpec, v json.RawMessage) bool {
	if a.kind != argText && a.kind != argTextList && a.kind != argPart {
		return false
	}
	// A value this short in JSON cannot hold a longer text.
	if len(v) <= maxTextRunes+2 {
		return false
	}
	var one string
	if json.Unmarshal(v, &one) == nil {
		return utf8.RuneCountInString(one) > maxTextRunes
	}
	var many []string
	if a.kind == argTextList && json.Unmarshal(v, &many) == nil {
		return len(many) > maxListItems || slices.ContainsFunc(many, func(s string) bool { return utf8.RuneCountInString(s) > maxTextRunes })
	}
	return false
}

// longArg says that an argument is longer than any name.
func (s *server) longArg(a argSpec) *mcp.CallToolResult {
	return sayError(words.LongArg(s.deps.Lang, a.name, maxTextRunes, maxListItems))
}

// wrongArg says which argument cannot be used and what it takes.
func (s *server) wrongArg(a argSpec, missing bool) *mcp.CallToolResult {
	return sayError(words.WrongArg(s.deps.Lang, a.name, a.wants, missing))
}

// unknownArg says that an argument does not exist and names those that do.
func (s *server) unknownArg(name string, known []string) *mcp.CallToolResult {
	return sayError(words.UnknownArg(s.deps.Lang, name, known))
}

// The arguments several tools share.
var (
	argName = argSpec{name: "name", kind: argText,
		doc:   "A device as people name it, such as kitchen light.",
		wants: words.WantsName}
	argArea = argSpec{name: "area", kind: argText,
		doc:   "A room, such as kitchen; alone, every matching device there.",
		wants: words.WantsArea}
	argFloor = argSpec{name: "floor", kind: argText,
		doc:   "A floor, such as upstairs.",
		wants: words.WantsFloor}
	argDomain = argSpec{name: "domain", kind: argTextList,
		doc:   "Only these kinds of device, such as light.",
		wants: words.WantsDomain}
	argDeviceClass = argSpec{name: "device_class", kind: argTextList,
		doc:   "Only these device classes, such as garage.",
		wants: words.WantsDeviceClass}
	argConfirmation = argSpec{name: "confirmation", kind: argText,
		doc:   "To unlock, disarm or open a door, gate or valve: the proposal's code once the person agreed, or its approval reference (a-…) to hear what happened.",
		wants: words.WantsConfirmation}
	argRegion = argSpec{name: "region", kind: argPart,
		doc:   "A part of the picture to show closer: a name such as top right, or a box.",
		wants: words.WantsRegion}
	argAction = argSpec{name: actionArg, kind: argText, required: true,
		doc:   "One of the actions listed above.",
		wants: words.WantsAction}
	argCamera = argSpec{name: "camera", kind: argText, required: true,
		doc:   "The camera as people name it, such as garage, or its entity id.",
		wants: words.WantsCamera}
)

// targetArgs are the arguments that say what an action applies to.
var targetArgs = []argSpec{argName, argArea, argFloor, argDomain, argDeviceClass}

// targetFromArgs reads an Assist target out of read arguments.
func targetFromArgs(a argValues) targetIn {
	return targetIn{Name: a.text("name"), Area: a.text("area"), Floor: a.text("floor"), Domain: a.list("domain"), DeviceClass: a.list("device_class")}
}
