package check

import (
	"context"
	"net/http"

	"maison/homeassistant"
)

// probeFullAPI asks whether /api/mcp, the full MCP endpoint, refuses maison's
// user: it should, since that endpoint sees more than Assist.
func probeFullAPI(ctx context.Context, ha *homeassistant.Client, r *report) {
	allowed, status, err := ha.ProbeFullAPI(ctx)
	switch {
	case err != nil:
		r.fail("full MCP endpoint /api/mcp: %s", advice(err))
	case allowed:
		r.fail("full MCP endpoint /api/mcp accepts this user: an admin can turn on \"require administrator\" in the Model Context Protocol Server integration's options, so only Assist's view is reachable")
	case status == http.StatusUnauthorized:
		// Up to 2026.9 the refusal is a 401, which Home Assistant counts.
		r.ok("full MCP endpoint /api/mcp refuses this user, as it should (this probe counts as one failed login in Home Assistant)")
	default:
		// From 2026.10 it is a 403, which is not counted (measured on 2026.11).
		r.ok("full MCP endpoint /api/mcp refuses this user, as it should")
	}
}
