package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demotest"
	"maison/panel"
)

// offersPanel reports whether cs is offered camera_panel, and checks that
// a client offered it gets a picture from it.
func offersPanel(t *testing.T, cs *mcp.ClientSession) bool {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == "camera_panel" }) {
		return false
	}
	pic := demotest.Call(t, cs, "camera_panel", map[string]any{"camera": "camera.front_door"})
	if _, ok := pic.Content[0].(*mcp.ImageContent); !ok || pic.IsError {
		t.Errorf("camera_panel through maison demo: %s", demotest.Text(pic))
	}
	return true
}

// Through maison demo's door, with a token, in both eras: a client that
// declares the MCP Apps extension is offered the panel, one that does not
// is not; in the initialize era the declaration travels in the session id.
func TestPanelThroughTheDoor(t *testing.T) {
	url := startDemo(t, map[string]string{"MAISON_TOKEN": e2eToken, "MAISON_LISTEN": "127.0.0.1:0"})
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(panel.Extension, map[string]any{"mimeTypes": []string{panel.MIMEType}})
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, apps := range []bool{false, true} {
			opts := &mcp.ClientOptions{}
			if apps {
				opts.Capabilities = caps
			}
			tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: demotest.Bearer(e2eToken), DisableStandaloneSSE: true}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts).Connect(t.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			if got := offersPanel(t, cs); got != apps {
				t.Errorf("%s, declaring the extension %v: offered the panel %v (session id %q)", version, apps, got, cs.ID())
			}
			cs.Close()
		}
	}
}

// Over stdio the session's initialize declares it once, for every request.
func TestPanelOverStdio(t *testing.T) {
	_, stdin, lines, stderr := stdioProcess(t, nil, "--demo")
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}},"clientInfo":{"name":"e2e","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ui://maison/cameras.html"}}`)
	if init := await(t, lines, `"id":1`, stderr); !strings.Contains(init, `"resources"`) || !strings.Contains(init, panel.Extension) {
		t.Errorf("initialize answer: %.400s", init)
	}
	if list := await(t, lines, `"id":2`, stderr); !strings.Contains(list, `"camera_panel"`) || !strings.Contains(list, `"resourceUri":"ui://maison/cameras.html"`) {
		t.Errorf("tools/list over stdio: %.400s", list)
	}
	if page := await(t, lines, `"id":3`, stderr); !strings.Contains(page, `"mimeType":"text/html;profile=mcp-app"`) {
		t.Errorf("resources/read over stdio: %.300s", page)
	}
}
