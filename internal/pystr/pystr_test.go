package pystr

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/text/cases"
)

// What Home Assistant's names must compare as: Python's rules, which Go's
// own differ from on these.
func TestNormalizeIsPythons(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"  Kitchen Lights ", "kitchen lights"},
		{"Straße", "strasse"},
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},
		{"ꭰꭱ", "ᎠᎡ"}, // Cherokee small letters fold to the capitals
		{"Ꭰ", "Ꭰ"},
		{"\x1cgate\x1f", "gate"}, // Python's isspace holds the separators U+001C to U+001F
		{"\u200bgate", "\u200bgate"},
		{"İ", "i̇"},
		{"ﬁre", "fire"},
	} {
		got, ok := Normalize(c.in)
		if !ok || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	// Go's folding and trimming say otherwise on these: the reason for the tables.
	if cases.Fold().String("ꭰ") == "Ꭰ" && strings.TrimSpace("\x1cgate") == "gate" {
		t.Error("Go now folds and trims as Python does: the tables may be dropped")
	}
}

func TestNormalizeRefusesWhatUnicode16DoesNotAssign(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"lock\U000E0080", "\U0010FFFE", "a\xffb"} {
		if _, ok := Normalize(s); ok {
			t.Errorf("Normalize(%q) claims to know how Python folds it", s)
		}
	}
	if _, ok := Normalize("ok \U0001F600"); !ok {
		t.Error("an emoji is assigned: it folds as itself")
	}
}

// Every code point Unicode assigned by the host's Python edition folds and
// counts as space here as that Python says: Unicode keeps the folding of an
// assigned code point from one edition to the next.
func TestTablesAgreeWithThisMachinesPython(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3 (Debian python3) to compare the tables with")
	}
	out, err := exec.Command(py, "-c", `
import json, sys, unicodedata
res = {"version": unicodedata.unidata_version, "folds": {}, "spaces": [], "assigned": []}
for cp in range(0x110000):
    c = chr(cp)
    if unicodedata.category(c) == "Cn" or 0xD800 <= cp <= 0xDFFF:
        continue
    res["assigned"].append(cp)
    if c.casefold() != c:
        res["folds"][cp] = c.casefold()
    if c.isspace():
        res["spaces"].append(cp)
json.dump(res, sys.stdout)
`).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var ref struct {
		Version  string
		Folds    map[rune]string
		Spaces   []rune
		Assigned []rune
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	space := map[rune]bool{}
	for _, r := range ref.Spaces {
		space[r] = true
	}
	checked := 0
	for _, r := range ref.Assigned {
		if !Assigned(r) {
			t.Errorf("U+%04X is assigned in Unicode %s but not in the tables' %s", r, ref.Version, UnicodeVersion)
			continue
		}
		want, folds := ref.Folds[r]
		if !folds {
			want = string(r)
		}
		if got := CaseFold(string(r)); got != want {
			t.Errorf("casefold U+%04X: %q, Python %s says %q", r, got, ref.Version, want)
		}
		if IsSpace(r) != space[r] {
			t.Errorf("isspace U+%04X: %v, Python says %v", r, IsSpace(r), space[r])
		}
		checked++
	}
	t.Logf("%d code points of Unicode %s agree with the tables of Unicode %s", checked, ref.Version, UnicodeVersion)
}
