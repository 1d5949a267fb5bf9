package rpcmsg

import (
	"strings"
	"testing"
)

func TestIDProblem(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"", true}, {"null", true}, {`"abc"`, true}, {" 7 ", true}, {"-3", true},
		{"9007199254740992", true}, {"1e3", true},
		{"9007199254740993", false}, {"1.5", false}, {"1e300", false},
		{"true", false}, {"{}", false}, {"[1]", false},
	} {
		if got := IDProblem([]byte(tc.id)); (got == "") != tc.ok {
			t.Errorf("IDProblem(%q) = %q, want ok=%v", tc.id, got, tc.ok)
		}
	}
}

func TestTooDeep(t *testing.T) {
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
