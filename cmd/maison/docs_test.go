package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"maison/internal/longtest"
)

// TestDocsNameTheBundleAsReleased: every bundle file name the documents
// give is the one scripts/release writes, maison-<version>.mcpb.
func TestDocsNameTheBundleAsReleased(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("../../scripts/release")
	if err != nil {
		t.Fatal(err)
	}
	made := regexp.MustCompile(`\$out/(maison-\$version\.mcpb)`).FindSubmatch(script)
	if made == nil {
		t.Fatal("scripts/release no longer writes $out/maison-$version.mcpb; say here what it writes")
	}
	want := strings.ReplaceAll(string(made[1]), "$version", "<version>")
	docs := []string{"../../README.md", "../../ARCHITECTURE.md"}
	app, err := filepath.Glob("../../homeassistant-app/*.md")
	if err != nil || len(app) == 0 {
		t.Fatalf("no document of the Home Assistant app found (%v)", err)
	}
	named := 0
	for _, doc := range append(docs, app...) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range regexp.MustCompile("[^\\s`(]*\\.mcpb\\b").FindAllString(string(b), -1) {
			named++
			if name != want {
				t.Errorf("%s names the bundle %s; the release writes %s", filepath.Base(doc), name, want)
			}
		}
	}
	if named == 0 {
		t.Error("no document names the bundle; the README's Install section should")
	}
}

// TestCIInstallsOnlyToolsTestsUse: each tool .ci/run installs for the
// tests is run by some test, so neither .ci/run nor the README asks a
// newcomer for a tool nothing uses.
func TestCIInstallsOnlyToolsTestsUse(t *testing.T) {
	t.Parallel()
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	loop := regexp.MustCompile(`(?m)^for tool in ([^;]+); do`).FindSubmatch(ci)
	if loop == nil {
		t.Fatal(".ci/run no longer installs the tests' tools in a `for tool in name:package ...` loop; say here how it does")
	}
	var tests strings.Builder
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			tests.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range strings.Fields(string(loop[1])) {
		tool, _, _ := strings.Cut(pair, ":")
		if !strings.Contains(tests.String(), `"`+tool+`"`) {
			t.Errorf(".ci/run installs %s for the tests, but no test runs it; remove it from .ci/run and the README", tool)
		}
	}
}

// TestCIRunsTheReadmesTestCommandWithTheLongTests: the README's test
// command is the one .ci/run runs, and .ci/run turns the long scenario
// tests on, so that CI, which fails on any skip, still runs them all.
func TestCIRunsTheReadmesTestCommandWithTheLongTests(t *testing.T) {
	t.Parallel()
	section := readmeSection(t, "Test it")
	block := regexp.MustCompile("(?s)```sh\n(.*?)\n```").FindStringSubmatch(section)
	if block == nil {
		t.Fatal("README.md's Test it section shows no command")
	}
	command := strings.TrimSpace(block[1])
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), command+" ") {
		t.Errorf(".ci/run does not run the README's test command %q", command)
	}
	if !regexp.MustCompile(`(?m)^export ` + longtest.Switch + `=1$`).Match(ci) {
		t.Errorf(".ci/run does not export %s=1: the long scenario tests would skip, and CI fails on any skip", longtest.Switch)
	}
}

// readmeSection is the text of the README's section of that title, up to
// the next section.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("README.md has no %s section", title)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// TestReadmeSaysWhichGo: the README names the Go that go.mod asks for,
// before its first command, and how long the first build and the tests take.
func TestReadmeSaysWhichGo(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod names no go version")
	}
	try := readmeSection(t, "Try it")
	want := "Go " + string(m[1]) + " or later"
	if i := strings.Index(try, want); i < 0 || i > strings.Index(try, "```") {
		t.Errorf("README's Try it section does not say %q before its first command:\n%s", want, try)
	}
	if !strings.Contains(try, "The first run") {
		t.Errorf("README's Try it section does not say how long the first build takes:\n%s", try)
	}
	if !strings.Contains(readmeSection(t, "Test it"), "minutes on two cores") {
		t.Error("README's Test it section does not say how long the tests take")
	}
}

// sharedBlock is a passage the README and the Home Assistant app's DOCS.md
// both hold: <!-- shared: NAME --> … <!-- /shared -->.
var sharedBlock = regexp.MustCompile(`(?s)<!-- shared: ([a-z0-9-]+) -->\n(.*?)<!-- /shared -->`)

// TestAppDocsAgreeWithTheReadme: what the app's DOCS.md and the README
// both say is written once, in passages marked shared, that must read the
// same in both (white space aside); where to put Cloudflare Access and
// how Home Assistant's voice assistant gets its client id and secret are
// among them.
func TestAppDocsAgreeWithTheReadme(t *testing.T) {
	t.Parallel()
	blocks := func(path string) map[string]string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range sharedBlock.FindAllStringSubmatch(string(b), -1) {
			if _, twice := out[m[1]]; twice {
				t.Errorf("%s marks %q shared twice", filepath.Base(path), m[1])
			}
			out[m[1]] = strings.Join(strings.Fields(m[2]), " ")
		}
		return out
	}
	readme, app := blocks("../../README.md"), blocks("../../homeassistant-app/DOCS.md")
	for _, name := range []string{"cloudflare-access", "voice-oauth"} {
		if readme[name] == "" || app[name] == "" {
			t.Errorf("the passage %q is not marked shared in both the README and DOCS.md", name)
		}
	}
	for name, text := range readme {
		if other, ok := app[name]; !ok {
			t.Errorf("the README's shared passage %q is not in DOCS.md", name)
		} else if other != text {
			t.Errorf("the shared passage %q differs:\nREADME:  %s\nDOCS.md: %s", name, text, other)
		}
	}
	for name := range app {
		if _, ok := readme[name]; !ok {
			t.Errorf("DOCS.md's shared passage %q is not in the README", name)
		}
	}
	if c := app["cloudflare-access"]; !strings.Contains(c, "`/authorize`") || !strings.Contains(c, "`/approve`") {
		t.Errorf("the Cloudflare Access passage does not name both /authorize and /approve: %s", c)
	}
	if v := app["voice-oauth"]; !strings.Contains(v, "client id and secret") || !strings.Contains(v, "/register") {
		t.Errorf("the voice passage does not register Home Assistant and give it its client id and secret: %s", v)
	}
}
