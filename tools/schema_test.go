package tools_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"maison/voice"
)

// TestToolSchemasAreStrict compiles every tool's input schema with the JSON
// Schema library the MCP SDK itself uses, and holds it to what every client
// reads cleanly: no null type, no type array, no open object, no unknown
// keyword, a description on every property, bounds on every number.
func TestToolSchemasAreStrict(t *testing.T) {
	t.Parallel()
	_, cs := session(t, voice.English, 0)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Errorf("%s: not a JSON schema: %v", tool.Name, err)
			continue
		}
		if _, err := s.Resolve(nil); err != nil {
			t.Errorf("%s: the schema does not compile: %v", tool.Name, err)
		}
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		if m["type"] != "object" {
			t.Errorf("%s: the input is not an object", tool.Name)
		}
		for _, problem := range strictProblems(m, "inputSchema", !strings.HasPrefix(tool.Name, "ha_")) {
			t.Errorf("%s: %s", tool.Name, problem)
		}
	}
}

// strictProblems walks a schema and lists what a strict reader refuses.
func strictProblems(s map[string]any, path string, ours bool) []string {
	var out []string
	known := map[string]bool{"type": true, "properties": true, "additionalProperties": true, "required": true,
		"description": true, "items": true, "anyOf": true, "minimum": true, "maximum": true, "enum": true}
	for k := range s {
		if !known[k] {
			out = append(out, fmt.Sprintf("%s: keyword %q is not one a strict reader knows", path, k))
		}
	}
	switch typ := s["type"].(type) {
	case nil:
		if _, ok := s["anyOf"]; !ok {
			out = append(out, path+": no type")
		}
	case string:
		switch typ {
		case "null":
			out = append(out, path+": a null type")
		case "object":
			if s["additionalProperties"] != false {
				out = append(out, path+": an object open to properties it does not declare")
			}
			props, _ := s["properties"].(map[string]any)
			for name, p := range props {
				pm, _ := p.(map[string]any)
				if d, _ := pm["description"].(string); d == "" || !endsSentence(d) {
					out = append(out, fmt.Sprintf("%s.properties.%s: its description is not a sentence: %q", path, name, d))
				}
				out = append(out, strictProblems(pm, path+".properties."+name, ours)...)
			}
		case "integer", "number":
			if !ours {
				break // bounds where Home Assistant gives them
			}
			if _, ok := s["minimum"]; !ok {
				out = append(out, path+": a number without a minimum")
			}
			if _, ok := s["maximum"]; !ok {
				out = append(out, path+": a number without a maximum")
			}
		case "array":
			if items, ok := s["items"].(map[string]any); ok {
				out = append(out, strictProblems(items, path+".items", ours)...)
			}
		}
	default:
		out = append(out, fmt.Sprintf("%s: a type array %v", path, typ))
	}
	if branches, ok := s["anyOf"].([]any); ok {
		for i, b := range branches {
			bm, _ := b.(map[string]any)
			out = append(out, strictProblems(bm, fmt.Sprintf("%s.anyOf[%d]", path, i), ours)...)
		}
	}
	return out
}

func endsSentence(s string) bool {
	return len(s) > 1 && (s[len(s)-1] == '.' || s[len(s)-1] == '?')
}
