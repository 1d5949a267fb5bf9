// Package longtest keeps the long scenario tests (fault scripts, release
// builds, soaks, the slowest end-to-end runs) out of a plain go test ./...:
// they run only with MAISON_TEST_LONG=1, which .ci/run sets, so CI still
// runs every one of them.
package longtest

import (
	"os"
	"testing"
)

// Switch is the environment variable that turns the long tests on.
const Switch = "MAISON_TEST_LONG"

// Only skips t, naming the switch, unless the long tests are on.
func Only(t testing.TB) {
	t.Helper()
	if why := off(os.Getenv); why != "" {
		t.Skip(why)
	}
}

// off says why the long tests do not run, or "" when they do.
func off(getenv func(string) string) string {
	if getenv(Switch) == "1" {
		return ""
	}
	return "a long scenario test, run only with " + Switch + "=1 (.ci/run sets it)"
}
