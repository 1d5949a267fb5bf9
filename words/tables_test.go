package words

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"maison/voice"
)

// placeholder is a {name} or {name|filter} in a text.
var placeholder = regexp.MustCompile(`\{([a-z][a-z0-9_]*)(?:\|([a-z]+))?\}`)

// placeholders are the names of a text's placeholders.
func placeholders(s string) map[string]bool {
	m := map[string]bool{}
	for _, p := range placeholder.FindAllStringSubmatch(s, -1) {
		m[p[1]] = true
	}
	return m
}

// forms are the plural forms a language's rule gives, for the counts a
// sentence says.
func forms(t *table) []string {
	seen := map[string]bool{}
	for n := range 1001 {
		seen[t.plural(n)] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// Every language maison speaks has a table, and every table a language.
func TestEveryLanguageHasItsWords(t *testing.T) {
	t.Parallel()
	for _, l := range voice.Langs() {
		if _, ok := tables[l]; !ok {
			t.Errorf("%s: no table of words (words/%s.go)", l, l)
		}
	}
	for l := range tables {
		if !slices.Contains(voice.Langs(), l) {
			t.Errorf("words has a table for %s, which voice does not speak", l)
		}
	}
}

// Every language's table holds every key, with the plural forms its own
// rule needs, the same placeholders as English, no empty text, and only
// the filters it defines.
func TestEveryKeyInEveryLanguage(t *testing.T) {
	t.Parallel()
	base := func(k Key) Key { b, _, _ := strings.Cut(string(k), "#"); return Key(b) }
	// names holds each key's placeholders in English, over its forms.
	names := map[Key]map[string]bool{}
	for k, s := range english.texts {
		if names[base(k)] == nil {
			names[base(k)] = map[string]bool{}
		}
		maps.Copy(names[base(k)], placeholders(s))
	}
	for l, tab := range tables {
		counted := forms(tab)
		got := map[Key]map[string]bool{}
		for k, s := range tab.texts {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s %s: empty text", l, k)
			}
			b, form, plural := strings.Cut(string(k), "#")
			if plural && !slices.Contains(counted, form) {
				t.Errorf("%s %s: %s's plural rule never gives the form %q", l, k, l, form)
			}
			if _, ok := names[Key(b)]; !ok {
				t.Errorf("%s %s: no such key in English", l, k)
				continue
			}
			if got[Key(b)] == nil {
				got[Key(b)] = map[string]bool{}
			}
			maps.Copy(got[Key(b)], placeholders(s))
			for _, p := range placeholder.FindAllStringSubmatch(s, -1) {
				if p[2] != "" && tab.filters[p[2]] == nil {
					t.Errorf("%s %s: no filter %q in %s", l, k, p[2], l)
				}
			}
		}
		for k, want := range names {
			have, ok := got[k]
			if !ok {
				t.Errorf("%s: no text for %s", l, k)
				continue
			}
			if !maps.Equal(have, want) {
				t.Errorf("%s %s: placeholders %v, English has %v", l, k, slices.Sorted(maps.Keys(have)), slices.Sorted(maps.Keys(want)))
			}
			_, plural := tab.texts[k+"#"+Key(counted[0])]
			_, englishPlural := english.texts[k+"#one"]
			if plural != englishPlural {
				t.Errorf("%s %s: counted in one language and not in the other", l, k)
				continue
			}
			for _, f := range counted {
				if _, ok := tab.texts[k+"#"+Key(f)]; plural && !ok {
					t.Errorf("%s %s: no form %q", l, k, f)
				}
			}
		}
	}
}

// keyLike is a string of the package's code that names a key, or the
// beginning of the keys of a family (ending with a dot).
var keyLike = regexp.MustCompile(`^[a-z][a-z_]*(\.[a-z0-9_]+)*\.?$`)

// Every key the code names has its text, every text a key the code
// names (as itself or in a family it builds), and every sentence said
// with a key written out is given the values its placeholders name.
func TestKeysAreSaidAndTextsUsed(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{} // literals that are keys, or families of keys
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || isTable(f) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && strings.Contains(s, ".") && keyLike.MatchString(s) {
					named[s] = true
				}
			case *ast.CallExpr:
				checkCall(t, fset, n)
			}
			return true
		})
	}
	for s := range named {
		if strings.HasSuffix(s, ".") {
			continue
		}
		if _, ok := english.texts[Key(s)]; !ok {
			if _, ok := english.texts[Key(s+"#one")]; !ok && !family(named, s) {
				t.Errorf("the code says %q, which no table holds", s)
			}
		}
	}
	for k := range english.texts {
		b, _, _ := strings.Cut(string(k), "#")
		if !named[b] && !family(named, b) {
			t.Errorf("%s: a text no code says", k)
		}
	}
}

// family reports whether k is of a family of keys the code builds: a
// literal ending with a dot begins it, or k is a family's beginning.
func family(named map[string]bool, k string) bool {
	for s := range named {
		if strings.HasSuffix(s, ".") && strings.HasPrefix(k, s) || strings.HasPrefix(s, k+".") && !named[k] {
			return true
		}
	}
	return false
}

func isTable(file string) bool {
	for l := range tables {
		if file == string(l)+".go" {
			return true
		}
	}
	return false
}

// checkCall checks a call of say or sayN whose key is written out: the
// names of the values it gives are the placeholders of the key's texts.
func checkCall(t *testing.T, fset *token.FileSet, c *ast.CallExpr) {
	t.Helper()
	fn, ok := c.Fun.(*ast.Ident)
	if !ok || (fn.Name != "say" && fn.Name != "sayN") || len(c.Args) < 2 {
		return
	}
	lit, ok := c.Args[1].(*ast.BasicLit)
	if !ok {
		return // a key chosen at run time: its texts are checked against each other
	}
	k, _ := strconv.Unquote(lit.Value)
	args := c.Args[2:]
	if fn.Name == "sayN" {
		args = args[1:]
	}
	given := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		name, ok := args[i].(*ast.BasicLit)
		if !ok {
			t.Errorf("%s: a value's name is not written out", fset.Position(c.Pos()))
			return
		}
		s, _ := strconv.Unquote(name.Value)
		given[s] = true
	}
	want := map[string]bool{}
	for key, s := range english.texts {
		if b, _, _ := strings.Cut(string(key), "#"); b == k {
			maps.Copy(want, placeholders(s))
		}
	}
	if !maps.Equal(given, want) {
		t.Errorf("%s: %s is given %v, its texts hold %v", fset.Position(c.Pos()), k, slices.Sorted(maps.Keys(given)), slices.Sorted(maps.Keys(want)))
	}
}
