package demo

import (
	"bytes"
	"crypto/hmac"
	"image"
	"image/jpeg"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/disintegration/imaging"
)

// scaleQuality is the quality Home Assistant re-encodes scaled frames at
// (camera/img_util.py, libturbojpeg).
const scaleQuality = 75

// camera is one camera entity's picture source.
type camera struct {
	id, name string
	spec     camSpec
	token    string // the access_token attribute; it never rotates here

	fmu  sync.Mutex
	base *image.RGBA // the scene without its overlay, drawn once
	f    frameSet
	fAt  time.Time // the minute f was rendered for; zero before the first render

	mu       sync.Mutex
	scaled   map[int][]byte // by scaling numerator (n/8)
	scaledAt time.Time      // the frame the scaled copies were made from
}

// frame renders and encodes the camera's frame on first use, and again in
// each new minute with Options.LiveFrames.
func (c *camera) frame(h *House) frameSet {
	f, _ := c.frameAt(h)
	return f
}

// frameAt is frame with the minute it was rendered for.
func (c *camera) frameAt(h *House) (frameSet, time.Time) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	at := h.start
	if h.live {
		at = h.now().Truncate(time.Minute)
	}
	if c.fAt.IsZero() || !c.fAt.Equal(at) {
		if c.base == nil {
			c.base = renderBase(c.spec, seedFor(c.id))
		}
		c.f, c.fAt = renderFrame(c.base, c.name, c.spec, at.In(h.loc)), at
	}
	return c.f, c.fAt
}

// scaledFrame returns the served frame scaled by n/8, re-encoded at q75.
func (c *camera) scaledFrame(h *House, n int) ([]byte, error) {
	f, at := c.frameAt(h)
	src := f.served
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.scaledAt.Equal(at) {
		c.scaled, c.scaledAt = nil, at
	}
	if b, ok := c.scaled[n]; ok {
		return b, nil
	}
	img, err := jpeg.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	w, ht := ceilDiv(b.Dx()*n, 8), ceilDiv(b.Dy()*n, 8)
	small := imaging.Resize(img, w, ht, imaging.Box)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, small, &jpeg.Options{Quality: scaleQuality}); err != nil {
		return nil, err
	}
	if c.scaled == nil {
		c.scaled = map[int][]byte{}
	}
	c.scaled[n] = buf.Bytes()
	return buf.Bytes(), nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// scaleFactor picks Home Assistant's scaling factor n/8 for a w×h JPEG asked
// at tw×th: the smallest factor that keeps both sides at least as large as
// asked. It returns 8 (no scaling) when even 7/8 would be too small, and
// stops at an exact match.
func scaleFactor(w, h, tw, th int) int {
	for n := 7; n >= 1; n-- {
		sw, sh := float64(w)*float64(n)/8, float64(h)*float64(n)/8
		if sw == float64(tw) && sh == float64(th) {
			return n
		}
		if sw < float64(tw) || sh < float64(th) {
			return n + 1
		}
	}
	return 1
}

// serveCameraProxy answers GET /api/camera_proxy/{entity_id} with Home
// Assistant's status codes and aiohttp's "<code>: <reason>" bodies: 404
// unknown camera (401 without credentials), 401 bad Authorization header, 403 bad or missing ?token=,
// 503 camera off, 500 when no picture comes (an unavailable camera, a
// non-integer size).
func (h *House) serveCameraProxy(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("entity_id")
	c, ok := h.camera(id)
	authenticated := h.requestUser(r) != nil
	if !ok {
		if !authenticated {
			h.unauthorized(w) // Home Assistant says nothing of a camera to a stranger
			return
		}
		httpStatus(w, http.StatusNotFound)
		return
	}
	if !authenticated {
		tok := r.URL.Query().Get("token")
		if tok == "" || !hmac.Equal([]byte(tok), []byte(c.token)) {
			if r.Header.Get("Authorization") != "" {
				h.unauthorized(w)
				return
			}
			httpStatus(w, http.StatusForbidden)
			return
		}
	}
	h.mu.Lock()
	h.fetches[id]++
	h.mu.Unlock()
	if !c.spec.on {
		httpStatus(w, http.StatusServiceUnavailable)
		return
	}
	if h.cameraUnavailable(id) {
		// The entity is still there and on, but fetching its picture
		// fails: _async_get_image raises and the view answers 500.
		httpStatus(w, http.StatusInternalServerError)
		return
	}
	if !h.stallCamera(r, id) {
		httpStatus(w, http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	tw, okW, errW := queryInt(q.Get("width"))
	th, okH, errH := queryInt(q.Get("height"))
	if errW != nil || errH != nil {
		httpStatus(w, http.StatusInternalServerError)
		return
	}
	body := c.frame(h).served
	if okW && okH {
		if n := scaleFactor(c.spec.w, c.spec.h, tw, th); n < 8 {
			b, err := c.scaledFrame(h, n)
			if err != nil {
				h.log.Warn("scaling a frame", "camera", id, "err", err)
				httpStatus(w, http.StatusInternalServerError)
				return
			}
			body = b
		}
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

// cameraUnavailable reports whether the camera's state is unavailable, when
// its integration cannot reach it.
func (h *House) cameraUnavailable(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entities[id]
	return ok && e.cur != nil && e.cur.state == "unavailable"
}

// queryInt parses a query parameter as Python's int() would; empty means absent.
func queryInt(s string) (v int, present bool, err error) {
	if s == "" {
		return 0, false, nil
	}
	v, err = strconv.Atoi(strings.TrimSpace(s))
	return v, err == nil, err
}
