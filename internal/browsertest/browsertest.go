// Package browsertest finds what the tests that drive a real browser need:
// node with npm's playwright-core, and Debian's Chromium. A test that
// lacks one skips, naming the package to install (.ci/run installs them).
package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tools returns node and the environment a playwright script runs in
// (NODE_PATH, CHROMIUM), or skips tb naming the packages. playwright-core
// is looked up through NODE_PATH, then where .ci/run installs it.
func Tools(tb testing.TB) (node string, env []string) {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("node not found: install Debian nodejs, npm playwright-core and Debian chromium (.ci/run does)")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		if chromium, err = exec.LookPath("chromium"); err != nil {
			tb.Skip("chromium not found: install Debian chromium and npm playwright-core (.ci/run does)")
		}
	}
	nodePath := os.Getenv("NODE_PATH")
	if home, err := os.UserHomeDir(); err == nil {
		nodePath = strings.Trim(nodePath+string(os.PathListSeparator)+filepath.Join(home, ".cache", "maison-ci", "node_modules"), string(os.PathListSeparator))
	}
	env = append(os.Environ(), "NODE_PATH="+nodePath, "CHROMIUM="+chromium)
	check := exec.Command(node, "-e", "require.resolve('playwright-core')")
	check.Env = env
	if err := check.Run(); err != nil {
		tb.Skip("npm playwright-core not found (NODE_PATH or ~/.cache/maison-ci): npm install playwright-core, with Debian chromium (.ci/run does)")
	}
	return node, env
}
