package hawire

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// An entity id, a registry id (32 hex digits) or a ULID: a key that is data,
// not a field name.
var dataKey = regexp.MustCompile(`^([a-z0-9_]+\.[a-z0-9_]+|[0-9a-f]{32}|[0-9A-Z]{26})$`)

// opaque names the fields whose keys differ from one entity to the next
// (attributes, capabilities): only their being objects is compared.
var opaque = map[string]bool{"attributes": true, "capabilities": true, "translation_placeholders": true}

// ShapeOf reduces a decoded JSON value to its shape: scalars become their
// type ("string", "number", "bool", "null", joined by "|" when they vary),
// arrays the union of their elements' shapes, objects their keys' shapes
// with "?" after a key some elements lack, and objects keyed by entity or
// registry ids the union of their values under "*".
func ShapeOf(v any) any { return shape("", v) }

func shape(field string, v any) any {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		if len(v) == 0 {
			return []any{}
		}
		var u any
		for i, e := range v {
			s := shape("", e)
			if i == 0 {
				u = s
			} else {
				u = union(u, s)
			}
		}
		return []any{u}
	case map[string]any:
		if opaque[field] || (field == "a" && !allDataKeys(v)) {
			return "object"
		}
		if len(v) > 0 && allDataKeys(v) {
			var u any
			first := true
			for _, e := range v {
				s := shape("", e)
				if first {
					u, first = s, false
				} else {
					u = union(u, s)
				}
			}
			return map[string]any{"*": u}
		}
		out := map[string]any{}
		for k, e := range v {
			out[k] = shape(k, e)
		}
		return out
	}
	return fmt.Sprintf("%T", v)
}

func allDataKeys(m map[string]any) bool {
	for k := range m {
		if !dataKey.MatchString(k) {
			return false
		}
	}
	return len(m) > 0
}

func kind(s any) string {
	switch s := s.(type) {
	case string:
		return s
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "?"
}

func types(s string) []string { return strings.Split(s, "|") }

func joinTypes(a, b []string) string {
	all := slices.Concat(a, b)
	slices.Sort(all)
	return strings.Join(slices.Compact(all), "|")
}

// union is the shape of a value that may have shape a or shape b.
func union(a, b any) any {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		out := map[string]any{}
		keys := map[string]bool{}
		for k := range am {
			keys[strings.TrimSuffix(k, "?")] = true
		}
		for k := range bm {
			keys[strings.TrimSuffix(k, "?")] = true
		}
		for k := range keys {
			av, aHas, aOpt := field(am, k)
			bv, bHas, bOpt := field(bm, k)
			switch {
			case aHas && bHas:
				key := k
				if aOpt || bOpt {
					key += "?"
				}
				out[key] = union(av, bv)
			case aHas:
				out[k+"?"] = av
			default:
				out[k+"?"] = bv
			}
		}
		return out
	}
	aa, aok := a.([]any)
	ba, bok := b.([]any)
	if aok && bok {
		switch {
		case len(aa) == 0:
			return ba
		case len(ba) == 0:
			return aa
		}
		return []any{union(aa[0], ba[0])}
	}
	return joinTypes(types(kind(a)), types(kind(b)))
}

// field finds k in a shape's object, required or optional.
func field(m map[string]any, k string) (v any, has, optional bool) {
	if v, ok := m[k]; ok {
		return v, true, false
	}
	if v, ok := m[k+"?"]; ok {
		return v, true, true
	}
	return nil, false, false
}

// conforms compares demo's shape with real's; holdsOnly leaves out the keys
// and types demo has beyond real's, keeping only what real always holds.
func conforms(path string, demo, real any, holdsOnly bool, diffs *[]string) {
	dm, dok := demo.(map[string]any)
	rm, rok := real.(map[string]any)
	if dok && rok {
		for k, dv := range dm {
			name := strings.TrimSuffix(k, "?")
			rv, has, rOpt := field(rm, name)
			if !has {
				if !holdsOnly {
					*diffs = append(*diffs, fmt.Sprintf("%s.%s: the demo sends it, Home Assistant does not", path, name))
				}
				continue
			}
			if strings.HasSuffix(k, "?") && !rOpt {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: Home Assistant always sends it, the demo sometimes leaves it out", path, name))
			}
			conforms(path+"."+name, dv, rv, holdsOnly, diffs)
		}
		for k := range rm {
			if strings.HasSuffix(k, "?") {
				continue
			}
			if _, has, _ := field(dm, k); !has {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: Home Assistant always sends it, the demo does not", path, k))
			}
		}
		return
	}
	da, dok := demo.([]any)
	ra, rok := real.([]any)
	if dok && rok {
		if len(da) > 0 && len(ra) > 0 {
			conforms(path+"[]", da[0], ra[0], holdsOnly, diffs)
		}
		return
	}
	if holdsOnly {
		return
	}
	allowed := types(kind(real))
	for _, t := range types(kind(demo)) {
		if !slices.Contains(allowed, t) {
			*diffs = append(*diffs, fmt.Sprintf("%s: the demo sends %s, Home Assistant sends %s", path, kind(demo), kind(real)))
			return
		}
	}
}

// LineTemplates reduces a live context text to the templates of its lines:
// the indentation, the list marker and the key stay; a value becomes its
// kind (quoted with ' or ", a number, or bare). The first line is kept whole.
func LineTemplates(text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	set := map[string]bool{}
	for i, l := range lines {
		if i == 0 {
			set[l] = true
			continue
		}
		set[lineTemplate(l)] = true
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

var number = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

func lineTemplate(l string) string {
	body := strings.TrimLeft(l, " ")
	indent := l[:len(l)-len(body)]
	marker := ""
	if strings.HasPrefix(body, "- ") {
		marker, body = "- ", body[2:]
	}
	key, value, ok := strings.Cut(body, ": ")
	if !ok {
		if strings.HasSuffix(body, ":") && !strings.ContainsAny(body, " '\"") {
			return indent + marker + body
		}
		return indent + marker + "<continued>"
	}
	switch {
	case strings.HasPrefix(value, "'"):
		value = "'…'"
	case strings.HasPrefix(value, `"`):
		value = `"…"`
	case number.MatchString(value):
		value = "<number>"
	default:
		value = "<bare>"
	}
	return indent + marker + key + ": " + value
}

// Missing lists the items of demo that are not among real.
func Missing(demo, real []string) []string {
	var out []string
	for _, d := range demo {
		if !slices.Contains(real, d) {
			out = append(out, d)
		}
	}
	return out
}

// SameExact reports whether two Exact values are equal once both are
// decoded from JSON (as a recording is).
func SameExact(a, b any) bool {
	return reflect.DeepEqual(roundTrip(a), roundTrip(b))
}

func roundTrip(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}
