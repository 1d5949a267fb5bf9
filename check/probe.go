package check

import (
	"context"

	"maison/homeassistant"
)

// probeFullAPI asks whether /api/mcp, the full MCP endpoint, refuses maison's
// user: it should, since that endpoint sees more than Assist.
func probeFullAPI(ctx context.Context, ha *homeassistant.Client, r *report) {
	allowed, err := ha.ProbeFullAPI(ctx)
	switch {
	case err != nil:
		r.fail("full MCP endpoint /api/mcp: %s", advice(err))
	case allowed:
		r.fail("full MCP endpoint /api/mcp accepts this user: an admin can turn on \"require administrator\" in the Model Context Protocol Server integration's options, so only Assist's view is reachable")
	default:
		r.ok("full MCP endpoint /api/mcp refuses this user, as it should (this probe counts as one failed login in Home Assistant)")
	}
}
