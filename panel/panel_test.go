package panel_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/panel"
)

// The embedded panel is what scripts/panel/build makes from the sources
// and the lockfile now: no hand edit, no stale build.
func TestEmbeddedPanelMatchesAFreshBuild(t *testing.T) {
	needNode(t)
	out := filepath.Join(t.TempDir(), "panel.html")
	build := exec.CommandContext(t.Context(), filepath.Join("..", "scripts", "panel", "build"), "--out", out)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scripts/panel/build: %v\n%s", err, b)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, []byte(panel.HTML())) {
		t.Fatalf("panel/panel.html (%d bytes) is not what scripts/panel/build makes now (%d bytes): run scripts/panel/build and commit panel/panel.html", len(panel.HTML()), len(fresh))
	}
}

// needNode skips, naming the packages, when node or npm is missing.
func needNode(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: install Debian nodejs and npm (.ci/run does); scripts/panel/build then installs npm @modelcontextprotocol/ext-apps and esbuild from its lockfile", tool)
		}
	}
}

// The panel is one page that reaches nothing outside itself: its script
// and style are inline, and it names no address to load or connect to.
func TestPanelIsOneSelfContainedPage(t *testing.T) {
	page := panel.HTML()
	if !strings.HasPrefix(page, "<!doctype html>") || !strings.Contains(page, "</html>") {
		t.Fatalf("the panel is not a whole HTML page: %.80q", page)
	}
	for _, ref := range []string{"<script src", "<link", "@import", "url(http", `src="http`, `href="http`} {
		if strings.Contains(page, ref) {
			t.Errorf("the panel loads something from outside: %q", ref)
		}
	}
}

func TestRendersOnlyForAClientThatDeclaresTheExtension(t *testing.T) {
	with := func(v any) *mcp.ClientCapabilities {
		return &mcp.ClientCapabilities{Extensions: map[string]any{panel.Extension: v}}
	}
	for _, tc := range []struct {
		name string
		caps *mcp.ClientCapabilities
		want bool
	}{
		{"no capabilities", nil, false},
		{"none declared", &mcp.ClientCapabilities{}, false},
		{"from the wire", with(map[string]any{"mimeTypes": []any{"text/html;profile=mcp-app"}}), true},
		{"in process", with(struct {
			MIMETypes []string `json:"mimeTypes"`
		}{[]string{panel.MIMEType}}), true},
		{"another profile", with(map[string]any{"mimeTypes": []any{"text/html+skybridge"}}), false},
		{"no MIME types", with(map[string]any{}), false},
		{"not an object", with("yes"), false},
	} {
		if got := panel.Renders(tc.caps); got != tc.want {
			t.Errorf("%s: Renders = %v, want %v", tc.name, got, tc.want)
		}
	}
}
