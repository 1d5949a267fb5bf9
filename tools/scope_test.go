package tools_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/demo"
	"maison/demotest"
	"maison/panel"
	"maison/voice"
)

// scoped serves the tools behind a bearer gate whose tokens are scope
// names: "house.read", "house.control", or both joined by "+".
func scoped(t *testing.T) string {
	return httpServer(t, 0, nil, auth.RequireBearerToken(func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Scopes: strings.Split(tok, "+"), Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "test-" + tok}}, nil
	}, nil))
}

func connectAs(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	return demotest.Connect(t, url, token, "2025-11-25")
}

// The MCP server itself narrows what a token sees and may call, whatever
// the door in front did: a tool outside the token's scopes is absent from
// the list and unknown when called.
func TestScopesInsideTheServer(t *testing.T) {
	t.Parallel()
	url := scoped(t)
	for token, want := range map[string][]string{
		"house.read":               {"camera_overview", "camera_snapshot", "describe_camera", "describe_house", "ha_ask", "list_cameras", "what_happened"},
		"house.control":            {"ha_act", "set_light", "turn_off", "turn_on"},
		"house.read+house.control": {"camera_overview", "camera_snapshot", "describe_camera", "describe_house", "ha_act", "ha_ask", "list_cameras", "set_light", "turn_off", "turn_on", "what_happened"},
	} {
		got := demotest.ToolNames(t, connectAs(t, url, token))
		if !slices.Equal(got, want) {
			t.Errorf("%s lists %v, want %v", token, got, want)
		}
	}
	read := connectAs(t, url, "house.read")
	if _, err := read.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Kitchen Light"}}); err == nil || !strings.Contains(err.Error(), "Unknown tool") {
		t.Errorf("turn_on with house.read: %v, want unknown tool", err)
	}
	control := connectAs(t, url, "house.control")
	if _, err := control.CallTool(t.Context(), &mcp.CallToolParams{Name: "camera_snapshot", Arguments: map[string]any{"camera": "garage"}}); err == nil {
		t.Error("camera_snapshot with house.control only was run")
	}
	if _, err := control.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "check_the_house"}); err == nil {
		t.Error("the prompt with house.control only")
	}
	if res, err := control.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Kitchen Light"}}); err != nil || res.IsError {
		t.Errorf("turn_on with house.control: %v", err)
	}
}

// A server started before Home Assistant's Assist tools were listed gains
// the house's actions later: a read-only token still may not call them,
// however soon after they join, and a control token may.
func TestScopesHoldForActionsThatJoinLater(t *testing.T) {
	t.Parallel()
	r := demotest.New(t, demotest.Options{LazyFrames: true, Setup: func(h *demo.House) { h.SetMCPServerLoaded(false) },
		Bridge: bridge.Config{ReachLater: true}})
	url := r.ServeHTTP(t, auth.RequireBearerToken(func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Scopes: strings.Split(tok, "+"), Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "test-" + tok}}, nil
	}, nil))
	read := connectAs(t, url, "house.read")
	if _, err := read.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Porch Light"}}); err == nil {
		t.Fatal("turn_on before the actions joined was run")
	}
	r.House.SetMCPServerLoaded(true)
	control := connectAs(t, url, "house.control")
	for joined := false; !joined; {
		res, err := control.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		joined = slices.ContainsFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == "turn_on" })
		if !joined {
			select {
			case <-t.Context().Done():
				t.Fatal("the actions never joined")
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	if _, err := read.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Porch Light"}}); err == nil || !strings.Contains(err.Error(), "Unknown tool") {
		t.Errorf("turn_on with house.read once the actions joined: %v, want unknown tool", err)
	}
	if st, _, _ := r.House.State("light.porch"); st != "off" {
		t.Errorf("the porch light is %s: a read-only token turned it on", st)
	}
	if res, err := control.CallTool(t.Context(), &mcp.CallToolParams{Name: "turn_on", Arguments: map[string]any{"name": "Porch Light"}}); err != nil || res.IsError {
		t.Errorf("turn_on with house.control: %v", err)
	}
}

// A tool or prompt maison does not offer is refused in words that repeat
// its name only as far as a person sees it, whichever refuses it (the
// token's scopes or the server): nothing invisible or reordering comes back.
func TestUnknownNameRepeatedAsSeen(t *testing.T) {
	t.Parallel()
	url := scoped(t)
	name := "turn_on\u202eX\u200bY\u2066Z\U000e0041\u00ad\u0000\u061c\u3164"
	check := func(what string, err error) {
		t.Helper()
		switch {
		case err == nil:
			t.Errorf("%s: answered", what)
		case strings.ContainsFunc(err.Error(), voice.Invisible):
			t.Errorf("%s: the answer repeats invisible characters: %+q", what, err.Error())
		case !strings.Contains(err.Error(), "“turn_onXYZ”") || !strings.Contains(err.Error(), "nothing was done"):
			t.Errorf("%s: %q does not name the call as seen, in words", what, err.Error())
		}
	}
	for _, token := range []string{"house.read", "house.control", "house.read+house.control"} {
		cs := connectAs(t, url, token)
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		check(token+" tools/call", err)
		_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: name})
		check(token+" prompts/get", err)
		_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: name})
		check(token+" resources/read", err)
	}
}

// A token without house.read is offered nothing of the camera panel, even
// by a client that renders apps, in either era over HTTP: no resources
// capability, no extension, no session id that says apps, no resource
// listed, and reading the panel is refused in the words any unknown
// resource is.
func TestATokenWithoutReadSeesNoPanel(t *testing.T) {
	t.Parallel()
	url := scoped(t)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, token := range []string{"house.control", "house.read"} {
			tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: demotest.Bearer(token), DisableStandaloneSSE: true}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, appsClient()).Connect(t.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			want := token == "house.read" // the control case's test is only as good as this one's
			caps := cs.InitializeResult().Capabilities
			if got := caps.Resources != nil || caps.Extensions[panel.Extension] != nil; got != want {
				t.Errorf("%s %s: capabilities offer resources or apps: %v", version, token, got)
			}
			if got := strings.HasPrefix(cs.ID(), "apps."); version == "2025-11-25" && got != want {
				t.Errorf("%s %s: session id %q", version, token, cs.ID())
			}
			res, err := cs.ListResources(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Resources) > 0; got != want {
				t.Errorf("%s %s: resources/list: %d resources", version, token, len(res.Resources))
			}
			_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: panel.URI})
			if (err == nil) != want {
				t.Errorf("%s %s: reading the panel: %v", version, token, err)
			}
			if want {
				continue
			}
			const other = "ui://maison/nothing.html"
			_, unknown := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: other})
			if err == nil || unknown == nil || strings.ReplaceAll(err.Error(), panel.URI, other) != unknown.Error() {
				t.Errorf("%s %s: the panel refused as %v, an unknown resource as %v", version, token, err, unknown)
			}
		}
	}
}
