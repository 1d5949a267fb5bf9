package homeassistant

import (
	"context"
	"net/http"
)

// ProbeFullAPI asks whether Home Assistant's full MCP endpoint, /api/mcp,
// accepts this user. It should not: that endpoint is for administrators on
// current versions. Home Assistant counts the expected 401 as a failed login
// (and bans an address after a few), so this is only done on demand, by
// `maison check --probe-full-api`, and never retried.
func (c *Client) ProbeFullAPI(ctx context.Context) (allowed bool, status int, err error) {
	if err := c.lockAssist(ctx); err != nil {
		return false, 0, err
	}
	defer c.unlockAssist()
	_, err = c.post(ctx, legacyAssistPath, "tools/list", map[string]any{})
	if err == nil {
		return true, http.StatusOK, nil
	}
	switch st := asError(err).Status; st {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return false, st, nil
	}
	return false, 0, err
}
