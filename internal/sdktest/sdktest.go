// Package sdktest drives maison with the official MCP SDKs' clients as
// agents run them: TypeScript's (npm @modelcontextprotocol/sdk, on node)
// and Python's (PyPI mcp). A test that lacks one skips, naming what to
// install; .ci/run installs both in ~/.cache/maison-ci/sdk-clients.
package sdktest

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The versions .ci/run installs.
const (
	TypeScriptVersion = "1.32.2"
	PythonVersion     = "2.3.0"
)

var (
	//go:embed burst.cjs
	burstJS string
	//go:embed burst.py
	burstPy string
)

// Client is one SDK's client, ready to run.
type Client struct {
	Name   string // "TypeScript SDK 1.32.2"
	run    []string
	script string
	ext    string
	env    []string
}

// home is where .ci/run installs the clients.
func home() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(h, ".cache", "maison-ci", "sdk-clients")
}

// TypeScript is the TypeScript SDK's client on node, found through
// NODE_PATH or where .ci/run installs it, or skips tb naming it.
func TypeScript(tb testing.TB) Client {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skipf("node not found: install Debian nodejs and npm @modelcontextprotocol/sdk@%s (.ci/run does)", TypeScriptVersion)
	}
	nodePath := strings.Trim(os.Getenv("NODE_PATH")+string(os.PathListSeparator)+filepath.Join(home(), "node_modules"), string(os.PathListSeparator))
	env := append(os.Environ(), "NODE_PATH="+nodePath)
	check := exec.Command(node, "-e", "require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js')")
	check.Env = env
	if err := check.Run(); err != nil {
		tb.Skipf("npm @modelcontextprotocol/sdk not found (NODE_PATH or %s): npm install @modelcontextprotocol/sdk@%s there (.ci/run does)", home(), TypeScriptVersion)
	}
	return Client{Name: "TypeScript SDK", run: []string{node}, script: burstJS, ext: ".cjs", env: env}
}

// Python is the Python SDK's client: the interpreter in MAISON_MCP_PYTHON,
// else the one .ci/run installs it for, else python3; or skips tb naming it.
func Python(tb testing.TB) Client {
	tb.Helper()
	python := os.Getenv("MAISON_MCP_PYTHON")
	if python == "" {
		python = filepath.Join(home(), "py", "bin", "python")
		if _, err := os.Stat(python); err != nil {
			python = "python3"
		}
	}
	check := exec.Command(python, "-c", "import importlib.metadata as m, mcp.client.streamable_http, httpx2; assert m.version('mcp').startswith('2.')")
	if err := check.Run(); err != nil {
		tb.Skipf("PyPI mcp 2 not found for %s (MAISON_MCP_PYTHON): pip install mcp==%s in a venv (.ci/run does, in %s)", python, PythonVersion, filepath.Join(home(), "py"))
	}
	return Client{Name: "Python SDK", run: []string{python}, script: burstPy, ext: ".py", env: os.Environ()}
}

// Burst is what one session's calls came back as.
type Burst struct {
	OK         int    `json:"ok"`         // results
	Limited    int    `json:"limited"`    // results in words saying to try again later
	Failed     int    `json:"failed"`     // errors the client raised, or other failures
	FirstError string `json:"firstError"` // the first of them
	Millis     int    `json:"ms"`         // for all the calls
	Fatal      string `json:"fatal"`      // the session could not start or end
}

func (b Burst) String() string {
	return fmt.Sprintf("%d results, %d told to wait, %d failed, in %d ms", b.OK, b.Limited, b.Failed, b.Millis)
}

// Burst opens one session to url with token and calls tool n times, each
// as soon as the last is answered.
func (c Client) Burst(ctx context.Context, tb testing.TB, url, token, tool string, n int) Burst {
	tb.Helper()
	script := filepath.Join(tb.TempDir(), "burst"+c.ext)
	if err := os.WriteFile(script, []byte(c.script), 0o644); err != nil {
		tb.Fatal(err)
	}
	args := append(append(c.run[1:], script), url, token, tool, strconv.Itoa(n))
	cmd := exec.CommandContext(ctx, c.run[0], args...)
	cmd.Env = c.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var b Burst
	if jerr := json.Unmarshal(out, &b); jerr != nil {
		tb.Fatalf("%s: %v, %v: %s %s", c.Name, err, jerr, out, stderr.String())
	}
	if b.Fatal != "" {
		tb.Fatalf("%s: the session failed: %s\n%s", c.Name, b.Fatal, stderr.String())
	}
	return b
}
