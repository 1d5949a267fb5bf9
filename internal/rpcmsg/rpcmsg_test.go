package rpcmsg

import (
	"strings"
	"testing"

	"maison/voice"
)

func TestIDProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"", true}, {"null", true}, {`"abc"`, true}, {" 7 ", true}, {"-3", true},
		{"9007199254740992", true}, {"-9007199254740992", true},
		{"1e3", false}, {"-0", false}, {"1.0", false}, {"07", false},
		{"9007199254740993", false}, {"1.5", false}, {"1e300", false},
		{"true", false}, {"{}", false}, {"[1]", false},
	} {
		if got := IDProblem(voice.English, []byte(tc.id)); (got == "") != tc.ok {
			t.Errorf("IDProblem(%q) = %q, want ok=%v", tc.id, got, tc.ok)
		}
	}
}

// TestParamsProblem: params the SDK would refuse in its own terms (a Go
// type, a missing field) are named here, and the ones it reads pass.
func TestParamsProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method, params string
		ok             bool
	}{
		{"tools/list", "", true}, {"tools/list", "{}", true}, {"ping", "null", true},
		{"tools/call", `{"name":"turn_on","arguments":{"name":"x"}}`, true},
		{"tools/call", `{"name":"turn_on"}`, true},
		{"prompts/get", `{"name":"p","arguments":null}`, true},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}`, true},
		{"tools/call", "[1,2]", false}, {"tools/list", "[1,2]", false}, {"tools/call", "7", false},
		{"tools/call", `{"name":1,"arguments":{}}`, false}, {"tools/call", `{"Name":"turn_on"}`, false},
		{"tools/call", `{"name":""}`, false}, {"tools/call", "", false},
		{"tools/call", `{"name":"x","arguments":[1]}`, false},
		{"prompts/get", `{}`, false}, {"completion/complete", `{}`, false},
		{"completion/complete", `{"ref":"p"}`, false},
	} {
		if got := ParamsProblem(voice.English, tc.method, []byte(tc.params)); (got == "") != tc.ok {
			t.Errorf("ParamsProblem(%q, %s) = %q, want ok=%v", tc.method, tc.params, got, tc.ok)
		}
	}
}

func TestTooDeep(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if TooDeep([]byte(deep(MaxDepth))) {
		t.Error("64 levels refused")
	}
	if !TooDeep([]byte(deep(MaxDepth + 1))) {
		t.Error("65 levels taken")
	}
	if TooDeep([]byte(`{"a":"` + strings.Repeat("[", 500) + `\"` + `"}`)) {
		t.Error("brackets inside a string counted as nesting")
	}
}
