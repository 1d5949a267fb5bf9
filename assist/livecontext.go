// Package assist reads what Home Assistant's Assist API says and hands it
// to words as facts: the live context of exposed entities, and the JSON
// results and MatchFailed errors of its intent tools.
//
// Everything read here is data. Names may carry text that looks like an
// instruction; it is bounded, cleaned and quoted as a name, never obeyed.
package assist

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"maison/words"
)

// Entity is one exposed entity: the words Home Assistant's live context
// gives for it and, when maison could tie those words to exactly one entity
// whose exposure the registry confirms, that entity's id.
type Entity struct {
	// ID is the entity id when the entity is known by identity; "" when only
	// its words are known. Only an entity with an ID may lend a picture or
	// websocket facts to an answer.
	ID string
	// Doubt says why ID is empty (see Resolve); 0 when the entity is known by identity.
	Doubt words.Doubt
	// NamesText is the names as Home Assistant wrote them: the name and the
	// aliases joined with ", ", which a name's own comma makes ambiguous.
	NamesText string
	// Names is NamesText cut at each ", " (the name first, then aliases), or
	// for an entity known by identity its own name and aliases. Use it to
	// say the entity and to match loosely, never to decide identity.
	Names      []string
	Domain     string            // light, lock, camera, ...
	State      string            // as HA says it: "on", "locked", "21.5"
	AreasText  string            // the area's name then its aliases, joined with ", "; "" when none
	Areas      []string          // AreasText cut at each ", ": the area name first
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

// toolEnvelope is the JSON that non-intent tools such as GetLiveContext
// return: up to 2026.10 {"success": true, "result": …} or {"success":
// false, "error": …}; from 2026.11 (helpers/llm.py ToolResult, written by
// mcp_server) success is left out: {"result": …} or {"error": …}.
type toolEnvelope struct {
	Success *bool           `json:"success"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
}

// failed reports whether the tool said it failed, in either era.
func (e toolEnvelope) failed() bool {
	if e.Success != nil {
		return !*e.Success
	}
	return e.Error != "" && len(e.Result) == 0
}

// ErrNoMatch is returned by ParseLiveContext when Home Assistant answered that
// nothing exposed matched the filter, or that nothing is exposed.
var ErrNoMatch = errors.New("assist: no exposed entity matched")

// ParseLiveContext reads the text of a GetLiveContext result: the JSON
// envelope {"success":true,"result":"Live Context: ..."} (from 2026.11
// {"result": …} alone) around the YAML
// Home Assistant writes with PyYAML, or that text alone. It is parsed as
// YAML, so a state or a name holding line breaks, colons or dashes stays
// one value of one entity. The document must be a list of mappings; any
// other shape is refused rather than half read.
func ParseLiveContext(text string) ([]Entity, error) {
	body := text
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		var env toolEnvelope
		if err := json.Unmarshal([]byte(text), &env); err != nil {
			return nil, fmt.Errorf("assist: live context is not the JSON Home Assistant sends: %w", err)
		}
		if env.failed() {
			return nil, fmt.Errorf("%w: %s", ErrNoMatch, env.Error)
		}
		if err := json.Unmarshal(env.Result, &body); err != nil {
			return nil, fmt.Errorf("assist: live context result is not text: %w", err)
		}
	}
	// The first line is Home Assistant's sentence about what follows.
	if !strings.HasPrefix(body, "- ") && !strings.HasPrefix(body, "[") {
		_, rest, ok := strings.Cut(body, "\n")
		if !ok {
			return nil, errors.New("assist: live context holds no list of entities")
		}
		body = rest
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		return nil, fmt.Errorf("assist: live context is not the YAML Home Assistant writes: %w", err)
	}
	if doc.Kind == 0 { // an empty document
		return []Entity{}, nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, errors.New("assist: live context is not a list of entities")
	}
	items := doc.Content[0].Content
	out := make([]Entity, 0, len(items))
	for i, item := range items {
		e, err := entityFrom(item)
		if err != nil {
			return nil, fmt.Errorf("assist: live context entity %d: %w", i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// entityFrom reads one mapping of the live context.
func entityFrom(n *yaml.Node) (Entity, error) {
	if n.Kind != yaml.MappingNode {
		return Entity{}, errors.New("not a mapping")
	}
	e := Entity{Attributes: map[string]string{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return Entity{}, errors.New("a key that is not text")
		}
		if k.Value == "attributes" {
			if err := attributesFrom(v, e.Attributes); err != nil {
				return Entity{}, err
			}
			continue
		}
		var field *string
		switch k.Value {
		case "names":
			field = &e.NamesText
		case "domain":
			field = &e.Domain
		case "state":
			field = &e.State
		case "areas":
			field = &e.AreasText
		default:
			continue // a key a later Home Assistant may add
		}
		s, ok := scalar(v)
		if !ok {
			return Entity{}, fmt.Errorf("%s is not text", k.Value)
		}
		*field = s
	}
	e.Names, e.Areas = SplitNames(e.NamesText), SplitNames(e.AreasText)
	return e, nil
}

func attributesFrom(n *yaml.Node, into map[string]string) error {
	if s, ok := scalar(n); ok && s == "" {
		return nil // an empty value
	}
	if n.Kind != yaml.MappingNode {
		return errors.New("attributes are not a mapping")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return errors.New("an attribute name that is not text")
		}
		if s, ok := scalar(v); ok {
			into[k.Value] = s // a list or mapping value says nothing maison uses
		}
	}
	return nil
}

// scalar returns a scalar's text; a null (written empty by Home Assistant) is "".
func scalar(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.ShortTag() == "!!null" {
		return "", true
	}
	return n.Value, true
}

// SplitNames cuts a live context names or areas text at each ", ". A name
// that holds ", " itself is cut too: the parts are for saying and for loose
// matching, never for deciding which entity is which.
func SplitNames(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ", ") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
