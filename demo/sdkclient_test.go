package demo_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/demo"
	"maison/demotest"
)

// TestGoSDKClient proves an off-the-shelf streamable-HTTP client copes with
// the endpoint's Home Assistant quirks: no session id, 405 on GET, the
// Python SDK's protocol version.
func TestGoSDKClient(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{ToolNaming: demo.NamingPrefixed})
	client := mcp.NewClient(&mcp.Implementation{Name: "maison-test", Version: "0"}, nil)
	transport := &mcp.StreamableClientTransport{
		Endpoint:   srv.URL + "/api/mcp/assist",
		HTTPClient: demotest.Bearer(h.UserToken()),
	}
	session, err := client.Connect(t.Context(), transport, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	if got := session.InitializeResult().ServerInfo.Name; got != "home-assistant" {
		t.Errorf("server name = %q", got)
	}
	tools, err := session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(tools.Tools) != 6 {
		t.Errorf("%d tools", len(tools.Tools))
	}
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "intent__HassTurnOn", Arguments: map[string]any{"name": "Porch Light"}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %+v %v", res, err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"id": "light.porch"`) {
		t.Errorf("result text = %s", text)
	}
	if s, _, _ := h.State("light.porch"); s != "on" {
		t.Errorf("light.porch = %s", s)
	}
}
