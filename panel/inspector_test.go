package panel_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"maison/internal/browsertest"
	"maison/internal/testkit"
)

// The panel in MCP Inspector's app view, as a person opens it: the
// Inspector's web UI (npm @modelcontextprotocol/inspector) in headless
// Chromium, connected to maison stdio --demo, its Apps tab, the overview's
// app. The Inspector builds its frame's Content Security Policy from what
// the resource declares and nothing else (img-src 'none' when nothing is
// declared), the strictest of the hosts that run here: every camera's
// picture must load and decode under it, with no violation reported, and
// the times must be the house's.
func TestThePanelInMCPInspector(t *testing.T) {
	node, env := browsertest.Tools(t)
	inspectorNode, launcher := browsertest.Inspector(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "maison")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "maison/cmd/maison").CombinedOutput(); err != nil {
		t.Fatalf("building maison: %v\n%s", err, out)
	}

	// The Inspector's three listeners, on free loopback ports; it says its
	// address, with the session's token, once it serves.
	insp := exec.Command(inspectorNode, launcher, "--web", bin, "stdio", "--demo")
	insp.Env = append(os.Environ(),
		"PATH="+filepath.Dir(inspectorNode)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+filepath.Join(dir, "home"),
		"CLIENT_PORT="+freePort(t), "MCP_SANDBOX_PORT="+freePort(t), "MCP_APP_ORIGIN_PORT="+freePort(t),
		"MCP_AUTO_OPEN_ENABLED=false", "MCP_INSPECTOR_SECRET_STORE=memory")
	insp.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // it starts maison and its web server: all end together
	var errs testkit.Buffer
	insp.Stderr = &errs
	out, _ := insp.StdoutPipe()
	if err := insp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-insp.Process.Pid, syscall.SIGTERM)
		insp.Wait()
	})
	found := make(chan string, 1)
	var said testkit.Buffer
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintln(&said, sc.Text())
			if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/?\?MCP_INSPECTOR_API_TOKEN=\w+`).FindString(sc.Text()); m != "" {
				found <- m
			}
		}
	}()
	var url string
	select {
	case url = <-found:
	case <-time.After(90 * time.Second):
		t.Fatalf("MCP Inspector never said where it serves:\n%s\n%s", said.String(), errs.String())
	}

	// "All cameras at a glance" is camera_overview's title: the app the
	// Inspector lists for it is the panel.
	shot := filepath.Join(dir, "inspector.png")
	drive := exec.CommandContext(t.Context(), node, filepath.Join("testdata", "inspector.cjs"), url, "All cameras at a glance")
	drive.Env = append(env, "INSPECTOR_SCREENSHOT="+shot)
	var stderr testkit.Buffer
	drive.Stderr = &stderr
	b, err := drive.Output()
	if err != nil {
		t.Fatalf("driving the Inspector: %v\n%s\nthe Inspector said:\n%s\n%s", err, stderr.String(), said.String(), errs.String())
	}
	t.Logf("the Inspector's screen: %s", shot)
	var seen struct {
		Cards []struct {
			ID, State, Fresh, Says, Image string
			NaturalWidth                  int
		}
		Violations []string
	}
	if err := json.Unmarshal(b, &seen); err != nil {
		t.Fatalf("%v: %.500s", err, b)
	}

	if len(seen.Violations) > 0 {
		t.Errorf("the Inspector's frames reported Content Security Policy violations:\n%s", strings.Join(seen.Violations, "\n"))
	}
	var ids []string
	for _, c := range seen.Cards {
		ids = append(ids, c.ID)
		if c.ID == "camera.porch" { // off in the demo house: words, no picture
			if c.State != "off" || c.Image != "" {
				t.Errorf("the porch camera, off: state %q, a picture of %d characters", c.State, len(c.Image))
			}
			continue
		}
		if c.State != "ok" || c.Image == "" {
			t.Errorf("%s: state %q, a picture of %d characters; it says %q", c.ID, c.State, len(c.Image), c.Says)
			continue
		}
		if c.NaturalWidth <= 0 {
			t.Errorf("%s: the Inspector's browser did not decode the picture (naturalWidth %d)", c.ID, c.NaturalWidth)
		}
		decodes(t, c.ID, c.Image)
		inTheHouseZone(t, "in the Inspector", card{ID: c.ID, State: c.State, Image: c.Image, Fresh: c.Fresh}, time.Now())
	}
	if len(ids) != 4 {
		t.Errorf("the panel in the Inspector shows %v, want the demo house's four cameras", ids)
	}
}

// freePort is a loopback port free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}
