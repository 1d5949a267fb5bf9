package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// settingName is a MAISON_* setting's name as the README and the help write it.
var settingName = regexp.MustCompile(`MAISON_[A-Z0-9_]*[A-Z0-9]`)

// TestEverySettingIsDocumented compares the settings maison reads, learnt
// from the code, with the README's settings table and `maison --help`, both
// ways: a setting read but not documented, or documented but not read, fails.
func TestEverySettingIsDocumented(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)

	table := readmeSection(t, "Settings")
	inTable := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `MAISON_") {
			continue
		}
		first := strings.Split(line, "|")[1] // the variable column
		for _, name := range settingName.FindAllString(first, -1) {
			inTable[name] = true
		}
	}

	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, strings.NewReader(""), &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("maison --help exited %d: %s", code, errOut.String())
	}
	inHelp := map[string]bool{}
	for _, name := range settingName.FindAllString(out.String(), -1) {
		inHelp[name] = true
	}

	for _, doc := range []struct {
		where string
		names map[string]bool
	}{{"README.md's settings table", inTable}, {"maison --help", inHelp}} {
		for name := range known {
			if !doc.names[name] {
				t.Errorf("maison reads %s, but %s does not name it", name, doc.where)
			}
		}
		for name := range doc.names {
			if !known[name] {
				t.Errorf("%s names %s, which maison does not read (it reads %v)", doc.where, name, keys(known))
			}
		}
	}
}
