package tools_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/actions"
	"maison/demotest"
	"maison/homeassistant"
	"maison/internal/hawire"
	"maison/internal/listsize"
	"maison/tools"
)

// realTools are the Assist tools the real Home Assistant listed to the
// non-admin user, as recorded (demo/testdata/realha), with its tools/list's
// size measured as maison's is.
func realTools(t *testing.T) ([]map[string]any, listsize.Size) {
	t.Helper()
	rec, err := hawire.Load(filepath.Join("..", hawire.RecordingPath))
	if err != nil {
		t.Fatal(err)
	}
	list, err := hawire.AssistTools(rec.Answers)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(list)
	size, err := listsize.Of(raw)
	if err != nil {
		t.Fatal(err)
	}
	return list, size
}

// recordedAssist is maison's Home Assistant client, whose Assist endpoint
// lists the tools the real Home Assistant listed: maison's tools/list is
// then the one it gives in front of the real house. Calls still go to the
// demo house.
type recordedAssist struct {
	*homeassistant.Client
	tools []homeassistant.Tool
}

func (r recordedAssist) AssistTools(context.Context) ([]homeassistant.Tool, error) {
	return r.tools, nil
}

func (r recordedAssist) ListedTools() ([]homeassistant.Tool, time.Time) {
	return r.tools, time.Unix(1, 0) // recorded once
}

// withRealTools serves maison's tools over HTTP, as maison serve does, in
// front of the demo house but listing the real house's Assist tools under
// naming (the names of 2026.9 and later, or those before), behind a bearer
// gate that grants the token's scopes ("house.read+house.control"), and
// returns its URL.
func withRealTools(t *testing.T, list []map[string]any, prefixed bool) string {
	t.Helper()
	var assistTools []homeassistant.Tool
	for _, m := range list {
		name, _ := m["name"].(string)
		if !prefixed {
			name = homeassistant.Canonical(name)
		}
		desc, _ := m["description"].(string)
		schema, _ := json.Marshal(m["inputSchema"])
		assistTools = append(assistTools, homeassistant.Tool{Name: name, Canonical: homeassistant.Canonical(name), Description: desc, InputSchema: schema})
	}
	r := demotest.New(t, demotest.Options{LazyFrames: true})
	b := r.Bridge
	srv, err := tools.New(t.Context(), tools.Deps{HA: recordedAssist{b.HA, assistTools}, Live: b.Live, Cameras: b.Cameras})
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	gate := auth.RequireBearerToken(func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Scopes: strings.Split(tok, "+"), Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "test-" + tok}}, nil
	}, nil)(h)
	hs := httptest.NewServer(gate)
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestToolsListIsNoLargerThanHomeAssistants holds maison's tools/list, for
// every scope and both namings of Home Assistant's tools, to at most the
// size of the real Home Assistant's own tools/list for the same house and
// user (characters of compact JSON, listsize): a model pays it on every
// turn. Nothing Home Assistant offers may be lost on the way: each of its
// tools is one of maison's own or an action of ha_ask or ha_act, unless
// maison cannot tell what it would change (actions.Offers).
func TestToolsListIsNoLargerThanHomeAssistants(t *testing.T) {
	t.Parallel()
	list, ha := realTools(t)
	t.Logf("Home Assistant's /api/mcp/assist: %v", ha)
	own := map[string]string{"HassTurnOn": "turn_on", "HassTurnOff": "turn_off", "HassLightSet": "set_light", "GetLiveContext": "describe_house"}
	for _, prefixed := range []bool{true, false} {
		url := withRealTools(t, list, prefixed)
		naming := map[bool]string{true: "prefixed names", false: "plain names"}[prefixed]
		for _, sc := range snapshotScopes {
			got := listAsReceived(t, url, sc.token, "2025-11-25")
			size, err := listsize.Of(got)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("maison, %s, %s: %v", sc.name, naming, size)
			if size.Chars > ha.Chars {
				t.Errorf("maison's tools/list for %s with %s is %d characters, Home Assistant's own %d", sc.name, naming, size.Chars, ha.Chars)
			}
		}
		var tools []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(listAsReceived(t, url, "house.read+house.control", "2026-07-28"), &tools); err != nil {
			t.Fatal(err)
		}
		offered := map[string]bool{}
		for _, tool := range tools {
			offered[tool.Name] = true
		}
		cs := connectAs(t, url, "house.read+house.control")
		for _, m := range list {
			name := m["name"].(string)
			canonical := homeassistant.Canonical(name)
			if !prefixed {
				name = canonical
			}
			fold := "ha_act"
			if actions.IntentOfTool(name).How == actions.Reads {
				fold = "ha_ask"
			}
			// An argument no action takes: the answer says whether the
			// action is known, and nothing is done.
			text, _ := call(t, cs, fold, map[string]any{"action": canonical, "no_such_argument": 1})
			known := !strings.Contains(text, "no action called")
			switch {
			case own[canonical] != "":
				if !offered[own[canonical]] {
					t.Errorf("%s: %s is not offered as %s", naming, canonical, own[canonical])
				}
			case actions.IntentOfTool(name).How == actions.NotModeled:
				if known {
					t.Errorf("%s: %s is offered through %s, though maison cannot tell what it changes: %q", naming, canonical, fold, text)
				}
			case !known || !strings.Contains(text, "“no such argument”"):
				t.Errorf("%s: Home Assistant's %s is offered neither by maison's own tools nor through %s: %q", naming, canonical, fold, text)
			}
		}
		if names := slices.Sorted(func(yield func(string) bool) {
			for n := range offered {
				if strings.HasPrefix(n, "ha_") && !yield(n) {
					return
				}
			}
		}); !slices.Equal(names, []string{"ha_act", "ha_ask"}) {
			t.Errorf("%s: the tools offered as they are are %v, want ha_act and ha_ask", naming, names)
		}
	}
}
