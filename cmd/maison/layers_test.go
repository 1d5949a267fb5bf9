package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPackagesKeepTheirLayers: ARCHITECTURE.md's table of layers names
// every package, top to bottom, and says a package imports only packages
// below it. Each import of one of maison's packages, outside tests, is
// held to that order, so the drawing cannot drift from the code.
func TestPackagesKeepTheirLayers(t *testing.T) {
	doc, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## The packages as layers")
	if start < 0 {
		t.Fatal(`ARCHITECTURE.md has no "## The packages as layers" section; say here where the layers are drawn`)
	}
	section := text[start+3:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rank := map[string]int{}
	row := 0
	for _, line := range strings.Split(section, "\n") {
		cols := strings.Split(line, "|")
		if len(cols) < 4 || !strings.Contains(cols[2], "`") {
			continue
		}
		row++
		for _, m := range regexp.MustCompile("`([a-z][a-z0-9/-]*)`").FindAllStringSubmatch(cols[2], -1) {
			rank[m[1]] = row
		}
	}
	if len(rank) < 10 {
		t.Fatalf("read only %d packages from ARCHITECTURE.md's layers table; say here how it is written", len(rank))
	}
	imports := map[string]map[string]bool{} // package → maison packages it imports
	err = eachSource(func(path string) error {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../")))
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "maison/") {
				imports[pkg][strings.TrimPrefix(p, "maison/")] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, deps := range imports {
		r, ok := rank[pkg]
		if !ok {
			t.Errorf("package %s is not in ARCHITECTURE.md's table of layers: add it where it sits", pkg)
			continue
		}
		for dep := range deps {
			if d, ok := rank[dep]; ok && d <= r && dep != pkg {
				t.Errorf("%s imports %s, which ARCHITECTURE.md's table of layers draws at or above it: move one of the two rows, or the import", pkg, dep)
			}
		}
	}
}

// eachSource calls fn with the path of each of maison's Go files that is
// not a test, from this package's directory.
func eachSource(fn func(path string) error) error {
	return filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "../.." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		return fn(path)
	})
}
