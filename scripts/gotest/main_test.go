package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A go test -json stream of two packages: one with a pass, two skips for
// the same reason and one for another, one with a failing subtest; and a
// package without tests.
const stream = `{"Action":"start","Package":"maison/a"}
{"Action":"run","Package":"maison/a","Test":"TestOne"}
{"Action":"output","Package":"maison/a","Test":"TestOne","Output":"=== RUN   TestOne\n"}
{"Action":"output","Package":"maison/a","Test":"TestOne","Output":"--- PASS: TestOne (0.00s)\n"}
{"Action":"pass","Package":"maison/a","Test":"TestOne","Elapsed":0.4}
{"Action":"run","Package":"maison/a","Test":"TestLong"}
{"Action":"output","Package":"maison/a","Test":"TestLong","Output":"=== RUN   TestLong\n"}
{"Action":"output","Package":"maison/a","Test":"TestLong","Output":"    long.go:12: a long scenario test: set MAISON_TEST_LONG=1\n"}
{"Action":"output","Package":"maison/a","Test":"TestLong","Output":"--- SKIP: TestLong (0.00s)\n"}
{"Action":"skip","Package":"maison/a","Test":"TestLong","Elapsed":0}
{"Action":"output","Package":"maison/a","Test":"TestLonger","Output":"    a_test.go:40: a long scenario test: set MAISON_TEST_LONG=1\n"}
{"Action":"skip","Package":"maison/a","Test":"TestLonger","Elapsed":0}
{"Action":"output","Package":"maison/a","Test":"TestDjpeg","Output":"    a_test.go:50: djpeg not found; install libjpeg-turbo-progs\n"}
{"Action":"skip","Package":"maison/a","Test":"TestDjpeg","Elapsed":0}
{"Action":"output","Package":"maison/a","Output":"PASS\n"}
{"Action":"pass","Package":"maison/a","Elapsed":1.5}
{"Action":"output","Package":"maison/b","Test":"TestBroken","Output":"=== RUN   TestBroken\n"}
{"Action":"output","Package":"maison/b","Test":"TestBroken/sub","Output":"    b_test.go:9: got 2, want 3\n"}
{"Action":"output","Package":"maison/b","Test":"TestBroken/sub","Output":"    --- FAIL: TestBroken/sub (0.00s)\n"}
{"Action":"fail","Package":"maison/b","Test":"TestBroken/sub","Elapsed":0}
{"Action":"output","Package":"maison/b","Test":"TestBroken","Output":"--- FAIL: TestBroken (0.00s)\n"}
{"Action":"fail","Package":"maison/b","Test":"TestBroken","Elapsed":0}
{"Action":"fail","Package":"maison/b","Elapsed":0.3}
{"Action":"output","Package":"maison/c","Output":"?   \tmaison/c\t[no test files]\n"}
{"Action":"skip","Package":"maison/c","Elapsed":0}
`

func TestSummary(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s.end(2 * time.Second)
	got := out.String()
	for _, want := range []string{
		"ok    maison/a",
		"(3 skipped)",
		"FAIL  maison/b",
		"b_test.go:9: got 2, want 3",
		"Skipped, by reason:\n   2  a long scenario test: set MAISON_TEST_LONG=1\n      a.TestLong, a.TestLonger\n   1  djpeg not found; install libjpeg-turbo-progs\n",
		"Slowest tests: a.TestOne 0.4s.\n",
		"\n1 passed, 2 failed, 3 skipped in 2 packages, 1 of them failed (2s)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "maison/c") {
		t.Errorf("a package without tests is reported:\n%s", got)
	}
	if strings.Contains(got, "=== RUN   TestOne") {
		t.Errorf("a passing test's output is shown:\n%s", got)
	}
}

func TestWithPackages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ args, want string }{
		{"", "./..."},
		{"-race", "-race ./..."},
		{"-run TestX ./camera", "-run TestX ./camera"},
		{"-run ./x", "-run ./x ./..."},
		{"-count=1 maison/tools", "-count=1 maison/tools"},
	} {
		if got := strings.Join(withPackages(strings.Fields(tc.args)), " "); got != tc.want {
			t.Errorf("withPackages(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// A run stopped by Ctrl-C says so before its counts, which are of what
// finished, and go test's own JSON asked for with -json is passed through.
func TestInterruptedAndJSON(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s.interrupted = true
	s.end(9 * time.Second)
	if !strings.Contains(out.String(), "Interrupted after 9s: not every package ran") {
		t.Errorf("an interrupted run is not said so:\n%s", out.String())
	}
	var js, errs strings.Builder
	if code := run(t.Context(), "", []string{"-json", "-run", "^$", "maison/internal/longtest"}, &js, &errs); code != 0 {
		t.Fatalf("gotest -json: exit %d: %s", code, errs.String())
	}
	if !strings.HasPrefix(strings.TrimSpace(js.String()), `{"`) {
		t.Errorf("-json did not give go test's JSON:\n%s", js.String())
	}
}

// A skip is never stale: go test's cache keys on the environment a test
// reads and on the files it opens inside the module, not on a tool found
// on PATH outside it, so it replayed "not found" after the tool was
// installed. gotest runs a replayed skip again: the run right after a
// fake tool appears in a temp PATH runs the test that needed it.
func TestACachedSkipIsRunAgain(t *testing.T) {
	dir := t.TempDir()
	bin := t.TempDir() // outside the module, as /usr/bin is: go test does not look there
	files := map[string]string{
		"go.mod": "module fake\n\ngo 1.22\n",
		"tool_test.go": `package fake

import (
	"os/exec"
	"testing"
)

func TestNeedsTheTool(t *testing.T) {
	if _, err := exec.LookPath("maison-fake-tool"); err != nil {
		t.Skip("maison-fake-tool not found: install it")
	}
}

func TestAlone(t *testing.T) {}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	gotest := func(when, want string) string {
		t.Helper()
		var out, errs strings.Builder
		if code := run(t.Context(), dir, nil, &out, &errs); code != 0 {
			t.Fatalf("%s: exit %d:\n%s\n%s", when, code, out.String(), errs.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: the report does not say %q:\n%s", when, want, out.String())
		}
		return out.String()
	}
	gotest("without the tool", "1 passed, 0 failed, 1 skipped")
	gotest("without the tool, again (from the cache)", "1 passed, 0 failed, 1 skipped")
	if err := os.WriteFile(filepath.Join(bin, "maison-fake-tool"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gotest("once the tool is installed", "2 passed, 0 failed, 0 skipped")
}
