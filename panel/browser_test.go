package panel_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/demo"
	"maison/demotest"
	"maison/internal/browsertest"
	"maison/internal/testkit"
	"maison/voice"
	"maison/words"
)

var update = flag.Bool("update", false, "copy the panel's screenshots to docs/ for the README")

// shown is what the driver reports of the page (panel/testdata/drive.cjs).
type shown struct {
	View struct {
		Lang, Title, Status, RefreshAll, Theme, ColorScheme, Background, PaddingTop string
		Cards                                                                       []card
	}
	Host struct {
		Calls []struct {
			Name      string
			Arguments map[string]any
			IsError   bool
		}
		Violations []string
		Resource   struct {
			URI          string
			Meta, Listed any
			Bytes        int
			CSP          string
		}
		Tools []struct {
			Name string
			Meta map[string]any
		}
		ToolResult struct {
			IsError bool
			Text    []string
			Image   string
		}
	}
	Requests []string
	Console  []string
}

type card struct {
	ID, Name, State, Says, Live, Fresh, Refresh, RefreshLabel, Alt, DescribedBy, Image string
	Large, Shown                                                                       bool
	NaturalWidth                                                                       int // 0 unless the browser decoded the picture
}

func (s shown) card(t *testing.T, id string) card {
	t.Helper()
	for _, c := range s.View.Cards {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no card for %s among %d", id, len(s.View.Cards))
	return card{}
}

// driver is the browser at the test host page, driven a command at a time.
type driver struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func (d *driver) do(cmd string, into any) {
	d.t.Helper()
	if _, err := fmt.Fprintln(d.in, cmd); err != nil {
		d.t.Fatalf("%s: %v", cmd, err)
	}
	if !d.out.Scan() {
		d.t.Fatalf("%s: the driver stopped: %v", cmd, d.out.Err())
	}
	if err := json.Unmarshal(d.out.Bytes(), into); err != nil {
		d.t.Fatalf("%s: %v: %.300s", cmd, err, d.out.Bytes())
	}
}

// hostPage builds the test host page (scripts/panel/test) with the SDK the
// panel is built with, or skips naming what is missing. The package's
// tests do not run in parallel: each build installs into scripts/panel.
func hostPage(t *testing.T) string {
	t.Helper()
	needNode(t)
	dir := t.TempDir()
	build := exec.CommandContext(t.Context(), filepath.Join("..", "scripts", "panel", "build"), "--host", dir)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scripts/panel/build --host: %v\n%s", err, b)
	}
	return filepath.Join(dir, "host.html")
}

// The panel as a person sees it in a host that renders MCP Apps: the
// official SDK's host bridge (AppBridge) and MCP client, in headless
// Chromium, against the demo house served as maison demo serves it, in
// both protocol eras. Every exposed camera is shown with its picture and
// maison's words, the off one as off; a refresh fetches a newer frame;
// the page reaches nothing but its host. Screenshots at 1280 and 390 px
// are kept under the test's directory and copied to docs/.
func TestThePanelInARealBrowser(t *testing.T) {
	node, env := browsertest.Tools(t)
	host := hostPage(t)
	for _, era := range []string{"2026", "2025"} {
		t.Run(era, func(t *testing.T) { panelInBrowser(t, node, env, host, era) })
	}
}

func panelInBrowser(t *testing.T, node string, env []string, hostFile, era string) {
	// One clock for the house and maison: a minute later, each camera
	// sends a new frame (its overlay shows the time) and no kept frame is
	// fresh enough to reuse.
	// maison's clock runs with the machine's, ahead of it by ahead: a
	// frame's time is the machine's, so its age is ahead however slowly
	// the test runs (under the race detector, half a minute passes).
	var ahead atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	// The initialize era runs in French, on a phone, in the dark.
	lang, words := voice.English, map[string]string{"title": "Cameras", "all": "Refresh all", "lang": "en", "off": "turned off"}
	theme, insets := "light", "0,0,0,0"
	if era == "2025" {
		lang, words = voice.French, map[string]string{"title": "Caméras", "all": "Tout actualiser", "lang": "fr-CA", "off": "éteinte"}
		theme, insets = "dark", "20,0,34,0" // a phone's notch and home bar
	}
	r := demotest.New(t, demotest.Options{
		House:  demo.Options{LiveFrames: true, Now: clock},
		Bridge: bridge.Config{Now: clock, Lang: lang},
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /host.html", func(w http.ResponseWriter, req *http.Request) { http.ServeFile(w, req, hostFile) })
	mux.Handle("/mcp", r.Bridge.Handler(false))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	// The host shows the panel for the tool the model called: the overview,
	// or (in the initialize era) a close look at the garage's left, shown
	// large as the assistant was given it.
	q := url.Values{"tool": {"camera_overview"}, "era": {era}, "theme": {theme}, "insets": {insets}}
	given := ""
	if era == "2025" {
		given = "camera.garage"
		q.Set("tool", "camera_snapshot")
		q.Set("args", `{"camera":"garage","region":"left"}`)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "drive.cjs"), srv.URL+"/host.html?"+q.Encode()) // it ends on quit, after the test's context
	cmd.Env = env
	var stderr testkit.Buffer // written by exec's copier while the test may read it
	cmd.Stderr = &stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		if err := cmd.Wait(); err != nil && !t.Failed() {
			t.Errorf("the driver: %v\n%s", err, stderr.String())
		}
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	d := &driver{t: t, in: in, out: sc}
	defer func() {
		if t.Failed() {
			t.Logf("the driver's stderr:\n%s", stderr.String())
		}
	}()

	var first shown
	d.do("report", &first)
	if len(first.Console) > 0 {
		t.Logf("console: %q", first.Console)
	}

	// The host found the panel through camera_overview's _meta.ui and read
	// it as the extension's HTML.
	if first.Host.Resource.URI != "ui://maison/cameras.html" || first.Host.Resource.Bytes < 1000 {
		t.Errorf("the host read %+v", first.Host.Resource)
	}
	for _, tool := range first.Host.Tools {
		if tool.Name == "camera_panel" && fmt.Sprint(tool.Meta) != "map[ui:map[resourceUri:ui://maison/cameras.html visibility:[app]]]" {
			t.Errorf("camera_panel's _meta: %v", tool.Meta)
		}
	}

	// Every exposed camera, each with maison's words; the off one as off.
	var ids []string
	for _, c := range first.View.Cards {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	if want := []string{"camera.backyard", "camera.front_door", "camera.garage", "camera.porch"}; !slices.Equal(ids, want) {
		t.Fatalf("the panel shows %v, want %v", ids, want)
	}
	for _, c := range first.View.Cards {
		if large := c.ID == "camera.garage" && era == "2025"; c.Large != large {
			t.Errorf("%s shown large: %v, want %v (the host showed %s)", c.ID, c.Large, large, q.Get("tool"))
		}
		said := snapshotWords(t, r.Session, c.ID)
		if c.ID == given {
			// The picture and words the assistant was given, not fetched
			// again: the close-up's very bytes.
			res := first.Host.ToolResult
			if res.IsError || res.Image == "" || c.Image != res.Image || c.Says != strings.Join(res.Text, "\n\n") {
				t.Errorf("%s: the panel shows another picture (%d bytes, the tool's %d) or other words than camera_snapshot gave the assistant: %q", c.ID, len(c.Image), len(res.Image), c.Says)
			}
			said = c.Says
		}
		if c.Says != said {
			t.Errorf("%s: the panel says %q, camera_snapshot %q", c.ID, c.Says, said)
		}
		if c.DescribedBy != c.Says || c.Alt == "" || c.RefreshLabel == "" || !strings.Contains(c.RefreshLabel, c.Name) {
			t.Errorf("%s: for screen readers: alt %q, described by %q, refresh labelled %q", c.ID, c.Alt, c.DescribedBy, c.RefreshLabel)
		}
		if c.ID == "camera.porch" {
			if c.State != "off" || c.Shown || c.Image != "" || !strings.Contains(c.Says, words["off"]) {
				t.Errorf("the porch camera, off: state %q, picture shown %v, says %q", c.State, c.Shown, c.Says)
			}
			continue
		}
		if c.State != "ok" || !c.Shown {
			t.Errorf("%s: state %q, picture shown %v", c.ID, c.State, c.Shown)
		}
		agrees(t, lang, "at first", c)
		inTheHouseZone(t, "at first", c, clock())
		decodes(t, c.ID, c.Image)
		if c.NaturalWidth <= 0 {
			t.Errorf("%s: the browser did not decode the picture it was given (naturalWidth %d) under %q", c.ID, c.NaturalWidth, first.Host.Resource.CSP)
		}
	}
	if first.View.Title != words["title"] || first.View.RefreshAll != words["all"] || first.View.Lang != words["lang"] {
		t.Errorf("the panel's words: %q, %q, lang %q", first.View.Title, first.View.RefreshAll, first.View.Lang)
	}
	if first.View.Theme != theme {
		t.Errorf("the host's theme %s, the panel's %q", theme, first.View.Theme)
	}
	if era == "2025" && first.View.PaddingTop != "32px" {
		t.Errorf("the safe-area inset of 20 px at the top: padding %s, want 32px", first.View.PaddingTop)
	}

	// Every picture came through the host's tool calls, none by the page
	// reaching out: the only requests are the host's own.
	for _, u := range first.Requests {
		if !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("a request left the host: %s", u)
		}
	}
	if len(first.Host.Violations) > 0 {
		t.Errorf("the content security policy blocked %v", first.Host.Violations)
	}
	calls := map[string]int{}
	for _, c := range first.Host.Calls {
		calls[fmt.Sprint(c.Name, c.Arguments["camera"])]++
	}
	garageFetches := 1
	if given == "camera.garage" {
		garageFetches = 0 // shown as the assistant was given it
	}
	if calls["camera_panel<nil>"] != 1 || calls["camera_panelcamera.garage"] != garageFetches || calls["camera_panelcamera.front_door"] != 1 {
		t.Errorf("the panel's calls through the host: %v", calls)
	}

	// A refresh fetches a newer frame: a minute later, the garage sends
	// another picture, and only the garage's card changes.
	ahead.Store(int64(time.Minute))
	var after shown
	d.do("refresh camera.garage", &after)
	before, now := first.card(t, "camera.garage"), after.card(t, "camera.garage")
	if now.State != "ok" || now.Image == "" || now.Image == before.Image {
		t.Errorf("the garage after refresh: state %s, the same picture: %v", now.State, now.Image == before.Image)
	}
	decodes(t, "the refreshed garage", now.Image)
	// maison's clock moved a minute while the garage's frame came now: the
	// label says the minute its sentence says, whatever the browser's clock.
	inTheHouseZone(t, "after the clock moved", now, clock())
	if agrees(t, lang, "after the clock moved", now) == 0 {
		t.Errorf("the garage's label %q says no age a minute on", now.Fresh)
	}
	for _, c := range after.View.Cards {
		agrees(t, lang, "after refreshing the garage", c)
		// Screen readers read the garage's new words, and no other card's.
		if live := c.Live == "polite"; live != (c.ID == "camera.garage") {
			t.Errorf("after refreshing the garage, %s's words are read aloud: %v (aria-live %q)", c.ID, live, c.Live)
		}
	}
	if after.card(t, "camera.front_door").Image != first.card(t, "camera.front_door").Image {
		t.Error("refreshing the garage changed the front door's picture")
	}
	var all shown
	d.do("refresh-all", &all)
	if all.card(t, "camera.front_door").Image == first.card(t, "camera.front_door").Image {
		t.Error("refresh all left the front door's picture as it was a minute before")
	}
	for _, c := range all.View.Cards {
		agrees(t, lang, "after refresh all", c)
		if c.Live == "polite" {
			t.Errorf("refresh all reads %s's words aloud with every other card's", c.ID)
		}
	}
	if all.card(t, "camera.porch").State != "off" {
		t.Errorf("the porch after refresh all: %s", all.card(t, "camera.porch").State)
	}

	// Tap to enlarge, and back.
	var big shown
	d.do("enlarge camera.backyard", &big)
	if !big.card(t, "camera.backyard").Large {
		t.Error("tapping the backyard's picture did not enlarge it")
	}
	d.do("enlarge camera.backyard", &big)
	if big.card(t, "camera.backyard").Large {
		t.Error("tapping it again did not make it small")
	}

	for _, width := range []int{1280, 390} {
		file := filepath.Join(t.TempDir(), fmt.Sprintf("panel-%d-%s.png", width, theme))
		var shot struct {
			File                    string
			FrameHeight, ViewHeight float64
		}
		d.do(fmt.Sprintf("screenshot %d %s", width, file), &shot)
		if shot.FrameHeight < shot.ViewHeight-1 {
			t.Errorf("at %d px the frame is %.0f px high, the panel %.0f px: cut", width, shot.FrameHeight, shot.ViewHeight)
		}
		png, err := os.ReadFile(shot.File)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("screenshot at %d px: %v", width, err)
		}
		t.Logf("screenshot at %d px: %s", width, file)
		if *update && (width == 1280) == (theme == "light") { // the README's two pictures
			if err := os.WriteFile(filepath.Join("..", "docs", filepath.Base(file)), png, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
}

// snapshotWords is what camera_snapshot says of the camera, its text
// blocks apart as the view shows them.
func snapshotWords(t *testing.T, cs *mcp.ClientSession, id string) string {
	t.Helper()
	return strings.Join(demotest.Texts(demotest.Call(t, cs, "camera_snapshot", map[string]any{"camera": id})), "\n\n")
}

// agrees checks that a card's label says when its picture was taken as
// its sentence does: "Taken 5:34 PM, 1 min ago" over "The picture was
// taken a minute ago", the age voice.Ago says of the label's minutes. It
// returns the label's age in minutes (0 for just now).
func agrees(t *testing.T, lang voice.Lang, when string, c card) int {
	t.Helper()
	if c.State == "off" || c.Image == "" {
		return 0
	}
	page := words.Panel(lang)
	head, _, _ := strings.Cut(page.Taken, "{time}")
	_, tail, _ := strings.Cut(page.Taken, "{age}")
	if !strings.HasPrefix(c.Fresh, head) || !strings.HasSuffix(c.Fresh, tail) {
		t.Errorf("%s, %s: label %q, want %q", when, c.ID, c.Fresh, page.Taken)
		return 0
	}
	minutes := 0
	if !strings.HasSuffix(c.Fresh, page.JustNow+tail) {
		pre, post, _ := strings.Cut(page.MinutesAgo, "{n}")
		m := regexp.MustCompile(regexp.QuoteMeta(pre) + `(\d+)` + regexp.QuoteMeta(post) + regexp.QuoteMeta(tail) + "$").FindStringSubmatch(c.Fresh)
		if m == nil {
			t.Errorf("%s, %s: label %q says no age in minutes", when, c.ID, c.Fresh)
			return 0
		}
		minutes, _ = strconv.Atoi(m[1])
	}
	// The label keeps ageing in the browser after the answer; the sentence
	// was said once, then: the label may be one minute on from it, never
	// behind it.
	said := lang.Ago(time.Duration(minutes) * time.Minute)
	if !strings.Contains(c.Says, said) && (minutes == 0 || !strings.Contains(c.Says, lang.Ago(time.Duration(minutes-1)*time.Minute))) {
		t.Errorf("%s, %s: the label %q and the sentence %q disagree (want %q)", when, c.ID, c.Fresh, c.Says, said)
	}
	return minutes
}

// inTheHouseZone checks that a card's label says the time its picture was
// taken in the house's time zone (the demo house's, Europe/Paris), as the
// words and the frame's overlay do, not in the host's (the test host says
// America/Toronto) nor the browser's.
func inTheHouseZone(t *testing.T, when string, c card, taken time.Time) {
	t.Helper()
	if c.State == "off" || c.Image == "" {
		return
	}
	house, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skipf("no time zone database for Europe/Paris: install Debian tzdata (%v)", err)
	}
	m := regexp.MustCompile(`(\d{1,2})(?::| h )(\d{2})`).FindStringSubmatch(c.Fresh)
	if m == nil {
		t.Errorf("%s, %s: the label %q says no time of day", when, c.ID, c.Fresh)
		return
	}
	hour, _ := strconv.Atoi(m[1])
	minute, _ := strconv.Atoi(m[2])
	// The label says when maison received the picture, by the machine's
	// clock, which the test's house clock may lead by a minute: within two
	// minutes, on a twelve-hour dial (the zones differ by hours).
	at := taken.In(house)
	said, want := (hour%12)*60+minute, (at.Hour()%12)*60+at.Minute()
	if d := (said - want + 720) % 720; d > 2 && d < 718 {
		t.Errorf("%s, %s: the label %q, want the house's time %s", when, c.ID, c.Fresh, at.Format("15:04 MST"))
	}
}

// decodes checks that the picture the page shows is a JPEG that decodes.
func decodes(t *testing.T, name, b64 string) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(raw)); err != nil {
		t.Errorf("%s: the picture shown does not decode: %v", name, err)
	}
}
