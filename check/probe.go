package check

import (
	"context"
	"net/http"

	"maison/homeassistant"
	"maison/words"
)

// probeFullAPI asks whether /api/mcp, the full MCP endpoint, refuses maison's
// user: it should, since that endpoint sees more than Assist.
func probeFullAPI(ctx context.Context, ha *homeassistant.Client, r *report) {
	allowed, status, err := ha.ProbeFullAPI(ctx)
	switch {
	case err != nil:
		r.fail(words.CheckFullAPIFailed(r.lang, advice(r.lang, err)))
	case allowed:
		r.fail(words.CheckFullAPIOpen(r.lang))
	default:
		// Up to 2026.9 the refusal is a 401, which Home Assistant counts;
		// from 2026.10 it is a 403, which is not (measured on 2026.11).
		r.ok(words.CheckFullAPIRefused(r.lang, status == http.StatusUnauthorized))
	}
}
