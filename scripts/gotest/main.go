// Command gotest runs go test with the given arguments (./... when they
// name no package) and says what a plain go test hides: one line per
// package as it finishes, the output of each failing test, and at the end
// the skipped tests grouped by the reason they give, then one line
// "N passed, N failed, N skipped".
//
//	go run ./scripts/gotest [go test flags] [packages]
//
// A skip is never served stale from go test's cache: the skipped tests of a
// package whose result was replayed from the cache run again, outside it
// (see runAgain), so a tool installed since is found.
//
// Its exit status is go test's. The long scenario tests run only with
// MAISON_TEST_LONG=1, as .ci/run sets it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, "", os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs go test -json with args in dir ("" for the current directory)
// and reports on stdout; it returns the exit status.
func run(ctx context.Context, dir string, args []string, stdout, stderr io.Writer) int {
	if slices.Contains(args, "-json") || slices.Contains(args, "--json") {
		// Asked for go test's own JSON: pass it through, unsummarised.
		cmd := exec.CommandContext(ctx, "go", append([]string{"test"}, withPackages(args)...)...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, stderr
		var exit *exec.ExitError
		if err := cmd.Run(); errors.As(err, &exit) {
			return exit.ExitCode()
		} else if err != nil {
			fmt.Fprintln(stderr, "gotest:", err)
			return 1
		}
		return 0
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-json"}, withPackages(args)...)...)
	cmd.Dir, cmd.Stderr = dir, stderr
	events, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "gotest:", err)
		return 1
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "gotest: go test did not start: %v (is Go on PATH?)\n", err)
		return 1
	}
	s := newSummary(stdout)
	readErr := s.read(events)
	err = cmd.Wait()
	if again := s.runAgain(ctx, dir, args, stderr); err == nil {
		err = again
	}
	s.interrupted = ctx.Err() != nil
	s.end(time.Since(start))
	if s.interrupted {
		return 130
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(stderr, "gotest:", err)
		return 1
	case readErr != nil:
		fmt.Fprintln(stderr, "gotest: reading go test's output:", readErr)
		return 1
	}
	return 0
}

// withPackages appends ./... to args that name no package.
func withPackages(args []string) []string {
	for i, a := range args {
		if strings.HasPrefix(a, ".") || strings.HasPrefix(a, "maison") {
			if i == 0 || !takesValue(args[i-1]) {
				return args
			}
		}
	}
	return append(slices.Clip(args), "./...")
}

// takesValue says whether a go test flag given alone takes the next argument.
func takesValue(flag string) bool {
	if strings.Contains(flag, "=") || !strings.HasPrefix(flag, "-") {
		return false
	}
	switch strings.TrimLeft(flag, "-") {
	case "run", "skip", "count", "timeout", "p", "parallel", "cpu", "bench", "benchtime", "tags", "fuzz", "fuzztime", "o", "coverprofile", "covermode", "coverpkg", "shuffle", "list":
		return true
	}
	return false
}

// event is one line of go test -json.
type event struct {
	Action      string
	Package     string
	ImportPath  string // build-output lines name the package being built
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
}

// timed is a top-level test and how long it took.
type timed struct {
	name    string
	elapsed float64
}

// summary follows go test's events and writes the report.
type summary struct {
	w                      io.Writer
	pending                map[string][]event  // a package's events until it ends
	held                   map[string][]event  // packages whose skips were replayed from the cache
	output                 map[string][]string // test output, by package and test
	failed                 map[string][]string // failing tests of a package
	build                  map[string][]string // build output, by package
	skips                  map[string][]string // "package Test" by reason
	slowest                []timed             // the slowest top-level tests
	passed, fails, skipped int
	// interrupted: the run was stopped (Ctrl-C) before every package ended,
	// so the counts are of what had finished.
	interrupted        bool
	packages, pkgFails int
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, pending: map[string][]event{}, held: map[string][]event{}, output: map[string][]string{}, failed: map[string][]string{}, build: map[string][]string{}, skips: map[string][]string{}}
}

// read follows events until r ends.
func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(s.w, sc.Text()) // not an event: go test's own words
			continue
		}
		s.event(e)
	}
	return sc.Err()
}

// event takes one of go test's events: a package's are kept until it ends,
// then reported, or held when its skips were replayed from the cache.
func (s *summary) event(e event) {
	if e.Action == "build-output" {
		s.report(e)
		return
	}
	s.pending[e.Package] = append(s.pending[e.Package], e)
	if !packageEnd(e) {
		return
	}
	evs := s.pending[e.Package]
	delete(s.pending, e.Package)
	if replayedSkips(evs) {
		s.held[e.Package] = evs
		return
	}
	for _, ev := range evs {
		s.report(ev)
	}
}

// packageEnd says whether e is a package's result.
func packageEnd(e event) bool {
	return e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip")
}

// replayedSkips says whether a package's events were served from go
// test's cache and hold a skipped test.
func replayedSkips(evs []event) bool {
	cached, skipped := false, false
	for _, e := range evs {
		cached = cached || e.Test == "" && e.Action == "output" && strings.Contains(e.Output, "\t(cached)")
		skipped = skipped || e.Test != "" && e.Action == "skip"
	}
	return cached && skipped
}

// runAgain runs once more, outside the cache, the skipped tests of the
// packages whose skips go test replayed from its cache, and reports their
// fresh outcome in place of the replayed one. go test's cache keys on the
// environment a test reads and on the files it opens inside the module,
// not on a tool it finds (or does not) on PATH outside it: a skip for a
// missing tool would otherwise be replayed after the tool is installed.
// Only the skipped tests run again, so a run without the tools costs a
// little more, never a whole package. It returns why a run again could not
// be made, or nil.
func (s *summary) runAgain(ctx context.Context, dir string, args []string, stderr io.Writer) error {
	pkgs := make([]string, 0, len(s.held))
	for pkg := range s.held {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	var failed error
	for _, pkg := range pkgs {
		evs := s.held[pkg]
		delete(s.held, pkg)
		again := map[string]bool{}
		var names []string
		for _, e := range evs {
			if top, _, _ := strings.Cut(e.Test, "/"); e.Action == "skip" && e.Test != "" && !again[top] {
				again[top] = true
				names = append(names, regexp.QuoteMeta(top))
			}
		}
		var fresh []event
		var err error
		if ctx.Err() == nil {
			fresh, err = runTests(ctx, dir, rerunArgs(args, pkg, names), stderr)
		}
		end := -1
		for i, e := range fresh {
			if packageEnd(e) && e.Package == pkg {
				end = i
			}
		}
		if end < 0 { // interrupted, or go test did not run: the replayed report stands
			if err != nil && failed == nil {
				failed = fmt.Errorf("running replayed skips of %s again: %w", pkg, err)
			}
			for _, e := range evs {
				s.report(e)
			}
			continue
		}
		result := fresh[end]
		for _, e := range evs {
			top, _, _ := strings.Cut(e.Test, "/")
			switch {
			case packageEnd(e):
				if e.Action == "fail" {
					result.Action = "fail"
				}
			case e.Test == "" && e.Action == "output", again[top]: // the replayed verdicts, replaced
			default:
				s.report(e)
			}
		}
		for i, e := range fresh {
			if i != end {
				s.report(e)
			}
		}
		s.report(result)
		if result.Action == "fail" && err != nil && failed == nil {
			failed = err
		}
	}
	return failed
}

// rerunArgs are go test's arguments to run names again in pkg, outside
// the cache: args with its packages, -run, -skip and -count replaced.
func rerunArgs(args []string, pkg string, names []string) []string {
	out := []string{"-count=1", "-run=^(" + strings.Join(names, "|") + ")$"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case strings.HasPrefix(a, "-") && (name == "run" || name == "skip" || name == "count"):
			if !strings.Contains(a, "=") {
				i++ // and its value
			}
		case strings.HasPrefix(a, "-"):
			out = append(out, a)
			if takesValue(a) && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		default: // a package: only pkg runs again
		}
	}
	return append(out, pkg)
}

// runTests runs go test -json with args in dir and returns its events.
func runTests(ctx context.Context, dir string, args []string, stderr io.Writer) ([]event, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-json"}, args...)...)
	cmd.Dir, cmd.Stderr = dir, stderr
	out, err := cmd.Output()
	var evs []event
	for _, line := range strings.Split(string(out), "\n") {
		var e event
		if json.Unmarshal([]byte(line), &e) == nil && e.Action != "" {
			evs = append(evs, e)
		}
	}
	return evs, err
}

// report counts one event and writes what it ends.
func (s *summary) report(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		s.build[e.ImportPath] = append(s.build[e.ImportPath], e.Output)
	case e.Action == "output":
		s.output[key] = append(s.output[key], e.Output)
	case e.Test != "" && e.Action == "pass":
		s.passed++
		delete(s.output, key)
		s.timed(e)
	case e.Test != "" && e.Action == "fail":
		s.fails++
		s.failed[e.Package] = append(s.failed[e.Package], e.Test)
	case e.Test != "" && e.Action == "skip":
		s.skipped++
		reason := skipReason(s.output[key])
		s.skips[reason] = append(s.skips[reason], key)
		delete(s.output, key)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		s.packageDone(e)
	}
}

// packageDone writes a package's line, and what failed in it.
func (s *summary) packageDone(e event) {
	pkgOut := strings.Join(s.output[e.Package+" "], "")
	delete(s.output, e.Package+" ")
	if e.Action == "skip" && strings.Contains(pkgOut, "[no test files]") {
		return
	}
	s.packages++
	verdict := "ok  "
	if e.Action == "fail" {
		verdict = "FAIL"
		s.pkgFails++
	}
	fmt.Fprintf(s.w, "%s  %-28s %6.1fs%s\n", verdict, e.Package, e.Elapsed, s.skippedIn(e.Package))
	if e.Action != "fail" {
		return
	}
	if e.FailedBuild != "" {
		fmt.Fprint(s.w, indent(strings.Join(s.build[e.FailedBuild], "")))
	}
	for _, test := range s.failed[e.Package] { // subtests first, as go test says them
		fmt.Fprint(s.w, indent(strings.Join(s.output[e.Package+" "+test], "")))
	}
	if len(s.failed[e.Package]) == 0 { // a panic, a timeout or TestMain: the package's own words
		fmt.Fprint(s.w, indent(pkgOut))
	}
}

// timed keeps the slowest five top-level tests.
func (s *summary) timed(e event) {
	if strings.Contains(e.Test, "/") {
		return
	}
	s.slowest = append(s.slowest, timed{strings.TrimPrefix(e.Package, "maison/") + "." + e.Test, e.Elapsed})
	sort.SliceStable(s.slowest, func(i, j int) bool { return s.slowest[i].elapsed > s.slowest[j].elapsed })
	if len(s.slowest) > 5 {
		s.slowest = s.slowest[:5]
	}
}

// skippedIn says how many tests of pkg were skipped, when some were.
func (s *summary) skippedIn(pkg string) string {
	n := 0
	for _, keys := range s.skips {
		for _, k := range keys {
			if strings.HasPrefix(k, pkg+" ") {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("  (%d skipped)", n)
}

// end writes the skipped tests by reason, then the counts.
func (s *summary) end(took time.Duration) {
	if len(s.skips) > 0 {
		fmt.Fprintf(s.w, "\nSkipped, by reason:\n")
		reasons := make([]string, 0, len(s.skips))
		for r := range s.skips {
			reasons = append(reasons, r)
		}
		sort.Slice(reasons, func(i, j int) bool {
			if a, b := len(s.skips[reasons[i]]), len(s.skips[reasons[j]]); a != b {
				return a > b
			}
			return reasons[i] < reasons[j]
		})
		for _, r := range reasons {
			fmt.Fprintf(s.w, "%4d  %s\n      %s\n", len(s.skips[r]), r, examples(s.skips[r]))
		}
	}
	if len(s.slowest) > 0 {
		var names []string
		for _, t := range s.slowest {
			names = append(names, fmt.Sprintf("%s %.1fs", t.name, t.elapsed))
		}
		fmt.Fprintf(s.w, "\nSlowest tests: %s.\n", strings.Join(names, ", "))
	}
	failedPkgs := ""
	if s.pkgFails > 0 {
		failedPkgs = fmt.Sprintf(", %d of them failed", s.pkgFails)
	}
	if s.interrupted {
		fmt.Fprintf(s.w, "\nInterrupted after %s: not every package ran, so these counts are of what finished; nothing here says the rest passed.\n", took.Round(time.Second))
	}
	fmt.Fprintf(s.w, "\n%d passed, %d failed, %d skipped in %d packages%s (%s)\n", s.passed, s.fails, s.skipped, s.packages, failedPkgs, took.Round(time.Second))
}

// examples names up to three skipped tests, and how many more.
func examples(keys []string) string {
	sort.Strings(keys)
	var names []string
	for i, k := range keys {
		if i == 3 {
			return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", len(keys)-3)
		}
		pkg, test, _ := strings.Cut(k, " ")
		names = append(names, strings.TrimPrefix(pkg, "maison/")+"."+test)
	}
	return strings.Join(names, ", ")
}

// logLine is a test's t.Log line: "    file_test.go:12: words".
var logLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: (.*)$`)

// skipReason is the last message a skipped test logged before it skipped.
func skipReason(lines []string) string {
	reason := ""
	for _, l := range lines {
		l = strings.TrimRight(l, "\n")
		if m := logLine.FindStringSubmatch(l); m != nil {
			reason = m[1]
		}
	}
	if reason == "" {
		return "(the test gave no reason)"
	}
	return reason
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
