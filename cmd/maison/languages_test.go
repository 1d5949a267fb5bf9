package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"maison/voice"
)

// TestALanguageIsItsFiles: what a language maison speaks needs is its
// files in words and voice (its sentences; its numbers, units, times and
// lists) and its line in their registries, nothing elsewhere. Outside
// words and voice no code names a language but English (the language of
// maison's own command line and logs), chooses between languages with
// Pick, or holds a sentence in several languages.
func TestALanguageIsItsFiles(t *testing.T) {
	t.Parallel()
	// The constants voice names its languages by, read from its source.
	consts := map[string]voice.Lang{}
	f, err := parser.ParseFile(token.NewFileSet(), "../../voice/voice.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) == 1 {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Lang" {
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
					consts[vs.Names[0].Name] = voice.Lang(strings.Trim(lit.Value, `"`))
				}
			}
		}
		return true
	})
	for _, l := range voice.Langs() {
		if !slices.Contains(slices.Collect(maps.Values(consts)), l) {
			t.Fatalf("voice speaks %s, but voice/voice.go names no constant for it", l)
		}
	}
	files := map[voice.Lang][]string{} // each language's files
	err = eachSource(func(path string) error {
		rel, _ := filepath.Rel("../..", path)
		rel = filepath.ToSlash(rel)
		pkg := filepath.ToSlash(filepath.Dir(rel))
		inside := pkg == "words" || pkg == "voice"
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		said := map[voice.Lang]bool{}
		for _, l := range consts {
			if strings.TrimSuffix(filepath.Base(rel), ".go") == string(l) {
				said[l] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "voice" {
					if l, ok := consts[n.Sel.Name]; ok {
						said[l] = true
					}
				}
				switch {
				case n.Sel.Name == "Pick":
					t.Errorf("%s: chooses between languages with Pick; say a keyed sentence of words instead", rel)
				case n.Sel.Name == "Pair":
					t.Errorf("%s: holds a sentence in several languages (%s.Pair); its texts belong in words' tables", rel, n.X)
				}
			case *ast.Ident:
				if !inside {
					break
				}
				for name, l := range consts {
					if n.Name == name || n.Name == strings.ToLower(name) {
						said[l] = true
					}
				}
			}
			return true
		})
		for l := range said {
			files[l] = append(files[l], rel)
			if !inside && l != voice.English {
				t.Errorf("%s names %s: what a language needs lives in words and voice", rel, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tagged := regexp.MustCompile(`^(words|voice)/`)
	for _, l := range voice.Langs() {
		var own []string
		for _, f := range files[l] {
			if tagged.MatchString(f) {
				own = append(own, f)
			}
		}
		slices.Sort(own)
		t.Logf("%s needs %s", l, strings.Join(own, ", "))
		for _, want := range []string{"words/" + string(l) + ".go", "voice/" + string(l) + ".go"} {
			if !slices.Contains(own, want) {
				t.Errorf("%s has no %s", l, want)
			}
		}
	}
}
