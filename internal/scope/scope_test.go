package scope

import (
	"slices"
	"testing"
)

// TestEveryToolNeedsOneOfTheScopesOffered: a tool's scope is one a token
// can be granted, read-only tools read and every other tool acts.
func TestEveryToolNeedsOneOfTheScopesOffered(t *testing.T) {
	t.Parallel()
	if got := Tool(true); got != Read {
		t.Errorf("a read-only tool needs %q, want %q", got, Read)
	}
	if got := Tool(false); got != Control {
		t.Errorf("a tool that may act needs %q, want %q", got, Control)
	}
	if Prompt != Read {
		t.Errorf("a prompt needs %q, want %q", Prompt, Read)
	}
	for _, s := range []string{Tool(true), Tool(false), Prompt} {
		if !slices.Contains(All(), s) {
			t.Errorf("%q is needed but never offered (All: %v)", s, All())
		}
	}
	a := All()
	a[0] = "changed"
	if All()[0] != Read {
		t.Error("All handed out a list its callers can change for everyone")
	}
}
