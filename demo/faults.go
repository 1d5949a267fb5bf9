package demo

import (
	"net/http"
	"time"
)

// Home Assistant's other real behaviours, produced on demand.

// SetSeenFrom makes the house see every request as coming from addr (such
// as "100.64.0.7:51000", a Tailscale address), as when maison reaches Home
// Assistant through a VPN or a proxy without trusted_proxies. For the
// house's local-only user, an address Home Assistant does not count as
// local means the websocket answers auth_invalid "User cannot authenticate
// remotely" and HTTP answers 401. "" restores the real address.
func (h *House) SetSeenFrom(addr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seenFrom = addr
}

// remoteAddr is the address the house sees a request come from.
func (h *House) remoteAddr(real string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seenFrom != "" {
		return h.seenFrom
	}
	return real
}

// SetMCPServerLoaded(false) makes /api/mcp/assist and /api/mcp answer 404,
// as they do after a restart until the Model Context Protocol Server
// integration has loaded (or for good when no administrator added it).
// True restores them.
func (h *House) SetMCPServerLoaded(loaded bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mcpUnloaded = !loaded
}

func (h *House) mcpLoaded() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.mcpUnloaded
}

// SetAssistStall makes every Assist tools/call run (its action happens),
// then hang for d until Home Assistant's own time limit cuts it: the answer
// is HTTP 500, as Home Assistant gives when a request runs past its
// 60-second limit. Zero restores prompt answers.
func (h *House) SetAssistStall(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.assistStall = d
}

func (h *House) currentAssistStall() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.assistStall
}

// serverError is aiohttp's answer when a handler fails or is cut by a
// timeout.
func serverError(w http.ResponseWriter) {
	httpText(w, http.StatusInternalServerError, "500 Internal Server Error\n\nServer got itself in trouble")
}

// SetAITaskError makes ai_task.generate_data fail with a websocket error of
// this code and message: not_found, invalid_format,
// service_validation_error, unauthorized, home_assistant_error or
// unknown_error, as Home Assistant answers them. An empty code is healthy.
func (h *House) SetAITaskError(code, message string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ai.errCode, h.ai.errMessage = code, message
}

// cameraTimeout is how long Home Assistant waits for a camera's picture
// before its proxy answers 500 (camera/__init__.py, 10 seconds).
const cameraTimeout = 10 * time.Second

// SetCameraStall makes the camera entityID take d to give a picture, as a
// camera on a weak link does: its proxy answers after d, or with HTTP 500
// once Home Assistant's ten-second limit passes first. Zero restores it.
func (h *House) SetCameraStall(entityID string, d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if d == 0 {
		delete(h.cameraStall, entityID)
		return
	}
	h.cameraStall[entityID] = d
}

// stallCamera waits as long as the camera is made to stall, within Home
// Assistant's limit or until the request goes away; false means the limit
// passed and the answer is a 500.
func (h *House) stallCamera(r *http.Request, entityID string) bool {
	h.mu.Lock()
	d := h.cameraStall[entityID]
	h.mu.Unlock()
	if d == 0 {
		return true
	}
	t := time.NewTimer(min(d, cameraTimeout))
	defer t.Stop()
	select {
	case <-t.C:
		return d < cameraTimeout
	case <-r.Context().Done():
		return false
	}
}
