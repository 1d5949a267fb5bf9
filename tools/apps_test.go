package tools_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
	"maison/panel"
	"maison/tools"
)

// appsClient is a client that declares it renders MCP Apps.
func appsClient() *mcp.ClientOptions {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(panel.Extension, map[string]any{"mimeTypes": []string{panel.MIMEType}})
	return &mcp.ClientOptions{Capabilities: caps}
}

// A client that does not declare the extension is offered nothing of the
// panel, in either era: no resource, no resources capability, no link on
// any tool, and camera_panel is unknown to it as any tool never offered.
func TestAClientWithoutAppsSeesNoPanel(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := newRig(t, rigOptions{version: version}).cs
		if caps := cs.InitializeResult().Capabilities; caps.Resources != nil || len(caps.Extensions) > 0 {
			t.Errorf("%s: capabilities name resources or extensions: %+v", version, caps)
		}
		list, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range list.Tools {
			if tool.Name == "camera_panel" || tool.Meta != nil {
				t.Errorf("%s: %s is listed with _meta %v", version, tool.Name, tool.Meta)
			}
		}
		if res, err := cs.ListResources(t.Context(), nil); err != nil || len(res.Resources) != 0 {
			t.Errorf("%s: resources/list: %v %v", version, res, err)
		}
		if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: panel.URI}); err == nil || !strings.Contains(err.Error(), "Unknown resource") {
			t.Errorf("%s: reading the panel: %v, want unknown resource", version, err)
		}
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_panel", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "Unknown tool") {
			t.Errorf("%s: camera_panel: %v, want unknown tool", version, err)
		}
	}
}

// A client that renders apps sees camera_overview and camera_snapshot
// linked to the panel, camera_panel for the panel alone, and the panel's
// page, which declares no outside origin.
func TestAClientThatRendersAppsSeesThePanel(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := newRig(t, rigOptions{version: version, client: appsClient()}).cs
		if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || caps.Extensions[panel.Extension] == nil {
			t.Errorf("%s: capabilities: %+v", version, caps)
		}
		list, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		linked := map[string]string{}
		for _, tool := range list.Tools {
			if tool.Meta == nil {
				continue
			}
			b, _ := json.Marshal(tool.Meta)
			linked[tool.Name] = string(b)
		}
		want := map[string]string{
			"camera_overview": `{"ui":{"resourceUri":"ui://maison/cameras.html"}}`,
			"camera_snapshot": `{"ui":{"resourceUri":"ui://maison/cameras.html"}}`,
			"camera_panel":    `{"ui":{"resourceUri":"ui://maison/cameras.html","visibility":["app"]}}`,
		}
		if fmt.Sprint(linked) != fmt.Sprint(want) {
			t.Errorf("%s: tools with _meta: %v, want %v", version, linked, want)
		}
		res, err := cs.ListResources(t.Context(), nil)
		if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != panel.URI || res.Resources[0].MIMEType != panel.MIMEType {
			t.Fatalf("%s: resources/list: %v %v", version, res, err)
		}
		page, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: panel.URI})
		if err != nil {
			t.Fatal(err)
		}
		c := page.Contents[0]
		if c.MIMEType != panel.MIMEType || c.Text != panel.HTML() {
			t.Errorf("%s: the panel read as %s, %d characters", version, c.MIMEType, len(c.Text))
		}
		// The pictures are data: URLs, declared so that the strictest host
		// lets them load; no origin is declared, on the page or its listing.
		const declared = `{"ui":{"csp":{"resourceDomains":["data:"]},"prefersBorder":false}}`
		if b, _ := json.Marshal(c.Meta); string(b) != declared {
			t.Errorf("%s: the panel's _meta: %s, want %s", version, b, declared)
		}
		if b, _ := json.Marshal(res.Resources[0].Meta); string(b) != declared {
			t.Errorf("%s: the panel's listing _meta: %s, want %s", version, b, declared)
		}
	}
}

// panelCall calls camera_panel and reads its structured content.
func panelCall(t *testing.T, cs *mcp.ClientSession, args map[string]any, into any) *mcp.CallToolResult {
	t.Helper()
	res := demotest.Call(t, cs, "camera_panel", args)
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("camera_panel %v: %s: %v", args, b, err)
	}
	return res
}

// The panel lists the cameras the caller may see, and no other; each
// picture is camera_snapshot's, with the same words, and an off camera
// says it is off as camera_snapshot does.
func TestThePanelShowsWhatCameraSnapshotShows(t *testing.T) {
	t.Parallel()
	cs := newRig(t, rigOptions{client: appsClient(), prerender: true}).cs
	var list struct {
		Lang   string            `json:"lang"`
		Labels map[string]string `json:"labels"`
		Cams   []struct{ ID, Name string }
	}
	listed := panelCall(t, cs, map[string]any{}, &struct {
		Lang   *string                      `json:"lang"`
		Labels *map[string]string           `json:"labels"`
		Cams   *[]struct{ ID, Name string } `json:"cameras"`
	}{&list.Lang, &list.Labels, &list.Cams})
	var ids []string
	for _, c := range list.Cams {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	if want := []string{"camera.backyard", "camera.front_door", "camera.garage", "camera.porch"}; !slices.Equal(ids, want) {
		t.Errorf("the panel lists %v, want the exposed cameras %v", ids, want)
	}
	if list.Lang != "en" || list.Labels["refresh_all"] != "Refresh all" {
		t.Errorf("the panel's words: %s %v", list.Lang, list.Labels)
	}
	if text := demotest.Text(listed); !strings.Contains(text, "I can show you") {
		t.Errorf("the listing says %q, not list_cameras' words", text)
	}
	for _, id := range ids {
		var facts struct {
			Camera, State string
			TakenAt       string `json:"taken_at"`
		}
		res := panelCall(t, cs, map[string]any{"camera": id}, &facts)
		snap := demotest.Call(t, cs, "camera_snapshot", map[string]any{"camera": id})
		if demotest.Text(res) != demotest.Text(snap) || res.IsError != snap.IsError {
			t.Errorf("%s: the panel says %q (error %v), camera_snapshot %q (error %v)", id, demotest.Text(res), res.IsError, demotest.Text(snap), snap.IsError)
		}
		if facts.Camera != id {
			t.Errorf("%s: the picture is marked as %q", id, facts.Camera)
		}
		switch id {
		case "camera.porch":
			if facts.State != "off" || !res.IsError || facts.TakenAt != "" {
				t.Errorf("the porch camera, off: %+v, error %v", facts, res.IsError)
			}
		default:
			img, _ := res.Content[0].(*mcp.ImageContent)
			if facts.State != "ok" || img == nil || img.MIMEType != "image/jpeg" || facts.TakenAt == "" {
				t.Errorf("%s: %+v, first content %T", id, facts, res.Content[0])
			}
		}
	}
	var none struct{ Camera string }
	if res := panelCall(t, cs, map[string]any{"camera": "camera.shed"}, &none); !res.IsError || len(res.Content) != 1 {
		t.Errorf("the shed camera, not exposed, was shown: %q", demotest.Text(res))
	}
}

// appsAsReceived calls camera_panel over HTTP in the 2026 revision as a
// client that renders apps, and returns the body as it arrives.
func appsAsReceived(t *testing.T, url, args string) []byte {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"camera_panel","arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{%q:{"mimeTypes":[%q]}}}}}}`, args, panel.Extension, panel.MIMEType)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "camera_panel")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("camera_panel over HTTP: %d %s", resp.StatusCode, b)
	}
	return b
}

// The panel's pictures keep the result budget as camera_snapshot's do,
// the default one and a smaller one.
func TestThePanelsPicturesWithinTheBudget(t *testing.T) {
	t.Parallel()
	noisy, noise := testFrames(t)
	frames := map[string][]byte{"camera.backyard": noisy, "camera.garage": noise}
	for _, budget := range []int{tools.DefaultResultBudget, 60_000} {
		url := httpServer(t, budget, frames, nil)
		for _, cam := range []string{"camera.front_door", "camera.backyard", "camera.garage"} {
			data := appsAsReceived(t, url, fmt.Sprintf(`{"camera":%q}`, cam))
			w, h, _ := checkReceived(t, cam, data, budget)
			if w == 0 || h == 0 {
				t.Errorf("%s within %d: no picture", cam, budget)
			}
		}
	}
}

// Over stateless HTTP in the initialize era, a client that declared the
// extension at initialize is known by the session id it was given; one
// that did not is given none and sees today's tools.
func TestInitializeEraOverHTTPRemembersTheDeclaration(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{LazyFrames: true})
	base := r.ServeHTTP(t, nil)
	for _, tc := range []struct {
		name   string
		client *mcp.ClientOptions
		want   bool
	}{{"without apps", nil, false}, {"with apps", appsClient(), true}} {
		tr := &mcp.StreamableClientTransport{Endpoint: base, DisableStandaloneSSE: true}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, tc.client).Connect(t.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if got := strings.HasPrefix(cs.ID(), "apps."); got != tc.want {
			t.Errorf("%s: session id %q", tc.name, cs.ID())
		}
		list, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		offered := slices.ContainsFunc(list.Tools, func(tool *mcp.Tool) bool { return tool.Name == "camera_panel" })
		if offered != tc.want {
			t.Errorf("%s: camera_panel offered: %v", tc.name, offered)
		}
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_panel", Arguments: map[string]any{}})
		if (err == nil) != tc.want {
			t.Errorf("%s: camera_panel called: %v", tc.name, err)
		}
	}
}

// The panel marks a damaged picture and a slow camera for the view, and
// says them in camera_snapshot's words: the garage's frames come cut, and
// in another house the front door's never come (maison gives up on a
// frame at once there, so no wait decides which house is which).
func TestThePanelMarksDamagedAndSlowPictures(t *testing.T) {
	t.Parallel()
	stallFrontDoor := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/camera_proxy/camera.front_door" {
				<-r.Context().Done() // until maison gives up on it
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	for _, tc := range []struct {
		id, want string
		wrap     func(http.Handler) http.Handler
		fetch    time.Duration
	}{
		{"camera.garage", "damaged", cutGarage, 0},
		{"camera.front_door", "slow", stallFrontDoor, time.Millisecond},
	} {
		r := demotest.New(t, demotest.Options{Wrap: tc.wrap, Client: appsClient(), Bridge: bridge.Config{
			Camera: func(c *camera.Config) { c.FetchTimeout = tc.fetch },
		}})
		var facts struct{ Camera, State string }
		res := panelCall(t, r.Session, map[string]any{"camera": tc.id}, &facts)
		snap := demotest.Call(t, r.Session, "camera_snapshot", map[string]any{"camera": tc.id})
		if facts.State != tc.want || demotest.Text(res) != demotest.Text(snap) || res.IsError != snap.IsError {
			t.Errorf("%s: marked %q, want %q; the panel says %q, camera_snapshot %q", tc.id, facts.State, tc.want, demotest.Text(res), demotest.Text(snap))
		}
	}
}

// An initialize declares the extension wherever it comes: with the
// protocol version header, or in a batch, it is given an apps session id.
// One that does not declare it, sent with an apps id given before, is
// answered as any client that does not render apps, and given an id that
// says nothing in its place.
func TestEveryInitializeDeclaresAnew(t *testing.T) {
	t.Parallel()
	url := demotest.New(t, demotest.Options{LazyFrames: true}).ServeHTTP(t, nil)
	declaring := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"t","version":"1"},"capabilities":{"extensions":{%q:{"mimeTypes":[%q]}}}}}`, panel.Extension, panel.MIMEType)
	silent := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"t","version":"1"},"capabilities":{}}}`
	for _, tc := range []struct {
		name, body, session string
		version             bool
		apps                bool
	}{
		{"with the version header", declaring, "", true, true},
		{"in a batch", "[" + declaring + "]", "", false, true},
		{"again without declaring", silent, "apps.0123456789abcdef", true, false},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.version {
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		if tc.session != "" {
			req.Header.Set("Mcp-Session-Id", tc.session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		id := resp.Header.Get("Mcp-Session-Id")
		if got := strings.HasPrefix(id, "apps."); got != tc.apps || (tc.session != "" && id == "") {
			t.Errorf("%s: session id %q, want apps: %v", tc.name, id, tc.apps)
		}
		if got := strings.Contains(string(b), panel.Extension); got != tc.apps {
			t.Errorf("%s: the answer names the extension: %v: %.300s", tc.name, got, b)
		}
	}
}
