// Package panel holds maison's camera panel: an MCP App view (the MCP Apps
// extension, io.modelcontextprotocol/ui, specification 2026-01-26) that a
// host which renders apps shows beside the conversation. scripts/panel/build
// makes it, from scripts/panel/src with the MCP Apps SDK pinned there, into
// one self-contained HTML file that the binary embeds: no Node at run time.
package panel

import (
	_ "embed"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// URI names the panel's resource; tools link to it in _meta.ui.resourceUri.
	URI = "ui://maison/cameras.html"
	// MIMEType is the MCP Apps HTML profile, the only one the extension defines.
	MIMEType = "text/html;profile=mcp-app"
	// Extension is the extension's identifier in a client's capabilities.
	Extension = "io.modelcontextprotocol/ui"
)

//go:embed panel.html
var page string

// HTML returns the panel's page.
func HTML() string { return page }

// Renders reports whether a client that declared caps shows MCP Apps: its
// capabilities name the extension with the panel's MIME type. Nil
// capabilities (a client that declared none, or whose declaration did not
// reach this request) render nothing.
func Renders(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	v, ok := caps.Extensions[Extension]
	if !ok {
		return false
	}
	// Read from the wire it is a map; built in the same process, any value
	// with the same JSON.
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var ext struct {
		MIMETypes []string `json:"mimeTypes"`
	}
	return json.Unmarshal(b, &ext) == nil && slices.Contains(ext.MIMETypes, MIMEType)
}
