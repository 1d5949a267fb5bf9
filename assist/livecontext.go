// Package assist reads what Home Assistant's Assist API says and turns it into
// words: the live context of exposed entities, and the JSON results and
// MatchFailed errors of its intent tools.
//
// Everything read here is data. Names may carry text that looks like an
// instruction; it is bounded, cleaned and quoted as a name, never obeyed.
package assist

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Entity is one exposed entity as GetLiveContext describes it. Live context
// carries no entity ids: an entity is known by its names.
type Entity struct {
	Names      []string          // the name first, then aliases
	Domain     string            // light, lock, camera, ...
	State      string            // as HA says it: "on", "locked", "21.5"
	Areas      []string          // area names
	Attributes map[string]string // brightness, temperature, unit_of_measurement, ...
}

// Name is the entity's first name.
func (e Entity) Name() string {
	if len(e.Names) == 0 {
		return ""
	}
	return e.Names[0]
}

// Area is the entity's first area, or "".
func (e Entity) Area() string {
	if len(e.Areas) == 0 {
		return ""
	}
	return e.Areas[0]
}

// toolEnvelope is the JSON that non-intent tools such as GetLiveContext return.
type toolEnvelope struct {
	Success *bool           `json:"success"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
}

// ErrNoMatch is returned by ParseLiveContext when Home Assistant answered that
// nothing exposed matched the filter.
var ErrNoMatch = errors.New("assist: no exposed entity matched")

// ParseLiveContext reads the text of a GetLiveContext result: the JSON
// envelope {"success":true,"result":"Live Context: ..."} around a YAML-like
// list, or the bare list.
func ParseLiveContext(text string) ([]Entity, error) {
	body := text
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		var env toolEnvelope
		if err := json.Unmarshal([]byte(text), &env); err != nil {
			return nil, fmt.Errorf("assist: live context is not the JSON Home Assistant sends: %w", err)
		}
		if env.Success != nil && !*env.Success {
			return nil, fmt.Errorf("%w: %s", ErrNoMatch, env.Error)
		}
		if err := json.Unmarshal(env.Result, &body); err != nil {
			return nil, fmt.Errorf("assist: live context result is not text: %w", err)
		}
	}
	var (
		out     []Entity
		cur     *Entity
		inAttrs bool
	)
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case strings.HasPrefix(trimmed, "- ") && indent == 0:
			out = append(out, Entity{Attributes: map[string]string{}})
			cur = &out[len(out)-1]
			inAttrs = false
			trimmed = strings.TrimPrefix(trimmed, "- ")
		case cur == nil:
			continue // the "Live Context: ..." preamble
		}
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), unquote(strings.TrimSpace(val))
		if inAttrs && indent >= 4 {
			cur.Attributes[key] = val
			continue
		}
		inAttrs = false
		switch key {
		case "names":
			cur.Names = splitList(val)
		case "domain":
			cur.Domain = val
		case "state":
			cur.State = val
		case "areas":
			cur.Areas = splitList(val)
		case "attributes":
			inAttrs = true
		}
	}
	return out, nil
}

// unquote undoes YAML's single and double quoting of a scalar.
func unquote(s string) string {
	if len(s) >= 2 {
		switch {
		case s[0] == '\'' && s[len(s)-1] == '\'':
			return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
		case s[0] == '"' && s[len(s)-1] == '"':
			var v string
			if json.Unmarshal([]byte(s), &v) == nil {
				return v
			}
			return s[1 : len(s)-1]
		}
	}
	return s
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
