package demo

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds request bodies.
const maxBody = 4 << 20

// routes builds the house's HTTP surface.
func (h *House) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/{$}", h.serveAPIRoot)
	mux.HandleFunc("GET /api/websocket", h.serveWebsocket)
	mux.HandleFunc("GET /api/camera_proxy/{entity_id}", h.serveCameraProxy)
	mux.HandleFunc("/api/mcp/assist", h.serveMCPAssist)
	mux.HandleFunc("/api/mcp", h.serveMCPFull)
	mux.HandleFunc("/api/mcp/{api_id}", h.serveMCPNamed)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { httpStatus(w, http.StatusNotFound) })
	return h.middleware(mux)
}

// middleware applies SetDown and SetLatency to every request and logs it.
func (h *House) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.isDown() {
			httpStatus(w, http.StatusServiceUnavailable)
			return
		}
		if h.currentLatency() > 0 && r.Body != nil && r.ContentLength != 0 {
			// Read the body first: only then does net/http watch the
			// connection and cancel the context when the client leaves.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				httpStatus(w, http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if !h.delay(r) {
			return
		}
		h.log.Debug("request", "method", r.Method, "path", r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// delay waits for the configured latency and reports whether the request is
// still wanted.
func (h *House) delay(r *http.Request) bool {
	d := h.currentLatency()
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// serveAPIRoot answers GET /api/, the usual connectivity probe.
func (h *House) serveAPIRoot(w http.ResponseWriter, r *http.Request) {
	if h.requestUser(r) == nil {
		h.unauthorized(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"message":"API running."}`))
}

// requestUser authenticates the bearer header, or returns nil. A local-only
// user calling from outside the local network is refused, as Home Assistant
// does, with the same answer as a bad token.
func (h *House) requestUser(r *http.Request) *user {
	auth := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		return nil
	}
	u := h.tokenUser(strings.TrimSpace(token))
	if u != nil && u.localOnly && !isLocal(h.remoteAddr(r.RemoteAddr)) {
		return nil
	}
	return u
}

// unauthorized answers 401 as aiohttp does and counts a failed login, as
// Home Assistant's ban middleware would.
func (h *House) unauthorized(w http.ResponseWriter) {
	h.countFailedLogin()
	httpStatus(w, http.StatusUnauthorized)
}

// httpStatus writes aiohttp's default error body, "<code>: <reason>".
func httpStatus(w http.ResponseWriter, code int) {
	httpText(w, code, strconv.Itoa(code)+": "+http.StatusText(code))
}

func httpText(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(text))
}

// isLocal reports whether addr is on the local network as Home Assistant
// understands it: loopback, RFC 1918, fd00::/8 and link-local. CGNAT and
// fc00::/8 are not local.
func isLocal(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	if ip.IsLoopback() || ip.IsLinkLocalUnicast() {
		return true
	}
	if ip.Is4() {
		return ip.IsPrivate()
	}
	return netip.MustParsePrefix("fd00::/8").Contains(ip)
}

// marshal encodes JSON as Python's encoders do: without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
