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

// InspectorVersion is the MCP Inspector the tests drive, as .ci/run installs it.
const InspectorVersion = "2.12.0"

// Inspector returns MCP Inspector's launcher and the node it runs on (npm's
// node@22: the Inspector needs Node 22), installed with npm in
// MCP_INSPECTOR_DIR, else in ~/.cache/maison-ci/inspector where .ci/run
// installs them, or skips tb naming them.
func Inspector(tb testing.TB) (node, launcher string) {
	tb.Helper()
	dir := os.Getenv("MCP_INSPECTOR_DIR")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".cache", "maison-ci", "inspector")
		}
	}
	node = filepath.Join(dir, "node_modules", ".bin", "node")
	launcher = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	for _, f := range []string{node, launcher} {
		if _, err := os.Stat(f); err != nil {
			tb.Skipf("MCP Inspector not found in %s (MCP_INSPECTOR_DIR): npm install node@22 @modelcontextprotocol/inspector@%s there (.ci/run does)", dir, InspectorVersion)
		}
	}
	return node, launcher
}
