package demotest

import (
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolNames lists the tools cs offers, sorted.
func ToolNames(tb testing.TB, cs *mcp.ClientSession) []string {
	tb.Helper()
	res, err := cs.ListTools(tb.Context(), nil)
	if err != nil {
		tb.Fatalf("demotest: tools/list: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// Call calls a tool on cs. A call that fails fails tb; a tool's answer
// with isError is returned as any other.
func Call(tb testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	tb.Helper()
	res, err := cs.CallTool(tb.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// CallText calls a tool on cs as Call does and returns its text (Text) and
// whether it is an error.
func CallText(tb testing.TB, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	tb.Helper()
	res := Call(tb, cs, name, args)
	return Text(res), res.IsError
}

// Texts returns each text block of a tool's answer, in order.
func Texts(res *mcp.CallToolResult) []string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return parts
}

// Text returns the text blocks of a tool's answer joined by spaces.
func Text(res *mcp.CallToolResult) string {
	return strings.Join(Texts(res), " ")
}
