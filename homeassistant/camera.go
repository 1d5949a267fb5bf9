package homeassistant

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MaxImageBytes caps a camera body; real frames are far smaller.
const MaxImageBytes = 16 << 20

// CameraLimit is how long Home Assistant's camera proxy waits for a camera
// before it answers 500 (camera/__init__.py, async_get_image's timeout):
// a fetch that hears nothing for longer heard nothing from Home Assistant
// itself, not from the camera.
const CameraLimit = 10 * time.Second

var (
	// ErrEmptyImage is a camera body that Home Assistant answered with 200
	// and nothing in it.
	ErrEmptyImage = errors.New("empty image")
	// ErrImageTooLarge is a camera body larger than MaxImageBytes.
	ErrImageTooLarge = fmt.Errorf("image larger than %d MiB", MaxImageBytes>>20)
)

// Image is one camera frame as Home Assistant served it.
type Image struct {
	Bytes       []byte
	ContentType string    // as served, usually "image/jpeg"
	Fetched     time.Time // when the body finished arriving
}

// CameraImage fetches a frame through Home Assistant's camera proxy with the bearer header (never ?token=).
// width and height 0 mean full size; Home Assistant scales only when both are given and the frame is JPEG, and
// never below the request, so the caller must still resize. Status codes map to kinds: 401 KindAuth, 403
// KindForbidden, 404 KindNotFound, 503 KindCameraOff (KindRestarting while the websocket is down after having
// been up, since a restarting Home Assistant answers 503 too), 500 KindCameraFailed.
func (c *Client) CameraImage(ctx context.Context, entityID string, width, height int) (Image, error) {
	path := "/api/camera_proxy/" + url.PathEscape(entityID)
	op := "GET " + path
	if entityID == "" || strings.ContainsAny(entityID, "/?#") {
		return Image{}, &Error{Kind: KindNotFound, Op: op, Err: errors.New("not a camera entity id")}
	}
	if width < 0 || height < 0 {
		return Image{}, fmt.Errorf("homeassistant: %s: negative size %dx%d", op, width, height)
	}
	u := *c.base
	u.Path = joinPath(u.Path, path)
	u.RawPath = ""
	q := url.Values{}
	if width > 0 {
		q.Set("width", strconv.Itoa(width))
	}
	if height > 0 {
		q.Set("height", strconv.Itoa(height))
	}
	u.RawQuery = q.Encode()

	if e := c.refusal(); e != nil {
		return Image{}, e
	}
	if e := c.unreachableNow(op); e != nil {
		return Image{}, e
	}
	ctx, cancel := c.requestContext(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Image{}, fmt.Errorf("homeassistant: %s: %w", op, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return Image{}, classifyNetErr(op, err, c.wasConnected())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return Image{}, c.cameraStatusError(ctx, op, resp)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxImageBytes+1))
	if err != nil {
		return Image{}, classifyNetErr(op, err, c.wasConnected())
	}
	if len(body) > MaxImageBytes {
		return Image{}, &Error{Kind: KindCameraFailed, Op: op, Status: resp.StatusCode, Err: ErrImageTooLarge}
	}
	if len(body) == 0 {
		return Image{}, &Error{Kind: KindCameraFailed, Op: op, Status: resp.StatusCode, Err: ErrEmptyImage}
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	return Image{Bytes: body, ContentType: ct, Fetched: time.Now()}, nil
}

func (c *Client) cameraStatusError(ctx context.Context, op string, resp *http.Response) *Error {
	switch resp.StatusCode {
	case http.StatusServiceUnavailable:
		// Once the websocket has been tried, a 503 while it does not
		// answer is Home Assistant starting or going down. A session lost
		// without a failed attempt is given a moment to come back first.
		if c.reconnecting() {
			c.WaitReconnected(ctx)
		}
		if tried := !c.Status().Since.IsZero(); tried && !c.sessionAnswers(ctx) {
			return &Error{Kind: KindRestarting, Op: op, Status: resp.StatusCode}
		}
		return &Error{Kind: KindCameraOff, Op: op, Status: resp.StatusCode}
	case http.StatusInternalServerError:
		return &Error{Kind: KindCameraFailed, Op: op, Status: resp.StatusCode}
	}
	e := statusError(op, resp.StatusCode, nil)
	if e.Kind == KindAuth {
		c.refuse(e)
	}
	return e
}

// offCheckTimeout bounds the ping that tells a camera turned off from a
// Home Assistant going down: both answer the camera proxy with 503.
const offCheckTimeout = 5 * time.Second

// sessionAnswers reports whether the websocket session is up and answers a
// ping now. A restarting Home Assistant answers 503 the moment it drops its
// websockets, before the read loop has noticed the drop, so the status
// alone would call every camera turned off for that instant.
func (c *Client) sessionAnswers(ctx context.Context) bool {
	if !c.Status().Connected {
		return false
	}
	sess, err := c.liveSession("websocket ping")
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, min(offCheckTimeout, c.cfg.PongTimeout))
	defer cancel()
	_, err = sess.call(ctx, map[string]any{"type": "ping"}, nil)
	return err == nil
}

// requestContext bounds ctx by RequestTimeout unless it already has an earlier deadline.
func (c *Client) requestContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= c.cfg.RequestTimeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, c.cfg.RequestTimeout)
}
