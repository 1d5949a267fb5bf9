// Package demotest starts a demo house for a test, as net/http/httptest
// starts a server: the house served on loopback and its URL, maison's parts
// built from it by the one wiring (package bridge), and a ready MCP session
// to those parts. Everything stops when the test ends.
//
// Frames are rendered before anything connects, so no fetch timeout ever
// waits on the drawing of a 4K scene.
package demotest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/camera"
	"maison/demo"
)

// Options shape a demo house and maison in front of it. The zero value is
// the demo house as it ships, with maison's defaults.
type Options struct {
	// House are the demo house's own options.
	House demo.Options
	// Setup shapes the house (entities, faults) before anything connects.
	Setup func(*demo.House)
	// Wrap stands between the house and every client: a counter, a fault,
	// a rewritten answer. Nil serves the house as it is.
	Wrap func(http.Handler) http.Handler
	// LazyFrames leaves each camera's frame to be drawn on its first fetch
	// (about a second of work for the house): for tests that make many
	// houses and fetch few frames under generous budgets.
	LazyFrames bool

	// Bridge is maison's settings; which Home Assistant is filled in (this
	// house, with its user's token, or its admin's with Admin). Zero
	// means maison's defaults, except VoiceBudget, CallBudget and the
	// camera's OverviewWait and ProbeBudget: a minute each, since under
	// -race a 4K fit alone can take seconds.
	Bridge bridge.Config
	// Admin connects with the house's administrator token.
	Admin bool
	// AI lets describe_camera ask Home Assistant's AI task, as maison does.
	// False leaves the AI out: descriptions say what the sensors report,
	// whatever the house offers.
	AI bool

	// Client and ProtocolVersion shape the in-memory session: the client's
	// options, and the protocol revision it asks for ("" for the newest).
	Client          *mcp.ClientOptions
	ProtocolVersion string
}

// House is a demo house served on loopback.
type House struct {
	*demo.House
	URL    string           // the house's base URL, as MAISON_HA_URL
	Server *httptest.Server // serving it
}

// StartHouse starts a demo house, its frames rendered unless
// o.LazyFrames. The caller closes it; NewHouse is the same for one test.
func StartHouse(o Options) *House {
	house := demo.New(o.House)
	if o.Setup != nil {
		o.Setup(house)
	}
	if !o.LazyFrames {
		house.Prerender()
	}
	var h http.Handler = house.Handler()
	if o.Wrap != nil {
		h = o.Wrap(h)
	}
	srv := httptest.NewServer(h)
	return &House{House: house, URL: srv.URL, Server: srv}
}

// NewHouse starts a demo house that stops when tb ends.
func NewHouse(tb testing.TB, o Options) *House {
	tb.Helper()
	h := StartHouse(o)
	tb.Cleanup(h.Close)
	return h
}

// Close stops serving the house.
func (h *House) Close() { h.Server.Close() }

// Rig is a demo house with maison wired to it.
type Rig struct {
	House  *demo.House
	URL    string         // the house's base URL
	Bridge *bridge.Bridge // maison's parts, as the commands build them
	// Session is an MCP client connected in memory to Bridge.Server; nil
	// with Bridge.NoTools.
	Session *mcp.ClientSession

	close sync.Once
	stop  []func() // last first
}

// New starts a demo house and maison in front of it for tb.
func New(tb testing.TB, o Options) *Rig {
	tb.Helper()
	h := StartHouse(o)
	return h.rig(tb, o, h.Close)
}

// Close stops the session, maison and the house New started, now rather
// than when the test ends: for a test that makes many.
func (r *Rig) Close() {
	r.close.Do(func() {
		for i := len(r.stop) - 1; i >= 0; i-- {
			r.stop[i]()
		}
	})
}

// Rig builds maison in front of an house already served (one shared by a
// package's tests) for tb, with o's Bridge, Admin, AI, Client and
// ProtocolVersion; o's house options are not used.
func (h *House) Rig(tb testing.TB, o Options) *Rig {
	tb.Helper()
	return h.rig(tb, o, func() {})
}

// rig builds maison in front of h; the rig's Close ends with closeHouse.
func (h *House) rig(tb testing.TB, o Options, closeHouse func()) *Rig {
	tb.Helper()
	cfg := o.Bridge
	cfg.URL, cfg.Token, cfg.Demo = h.URL, h.UserToken(), nil
	if o.Admin {
		cfg.Token = h.AdminToken()
	}
	if cfg.VoiceBudget == 0 {
		cfg.VoiceBudget = time.Minute
	}
	if cfg.CallBudget == 0 {
		cfg.CallBudget = time.Minute
	}
	adjust := cfg.Camera
	cfg.Camera = func(c *camera.Config) {
		if !o.AI {
			c.AI = nil
		}
		if adjust != nil {
			adjust(c)
		}
		// Like the budgets above: a loaded machine under the race detector
		// must not turn a tile late, or a camera off unknown; tests of
		// these waits set them.
		if c.OverviewWait == 0 {
			c.OverviewWait = time.Minute
		}
		if c.ProbeBudget == 0 {
			c.ProbeBudget = time.Minute
		}
	}
	r := &Rig{House: h.House, URL: h.URL, stop: []func(){closeHouse}}
	tb.Cleanup(r.Close)
	b, err := bridge.Start(tb.Context(), cfg)
	if err != nil {
		tb.Fatalf("demotest: building maison in front of the demo house: %v", err)
	}
	r.Bridge, r.stop = b, append(r.stop, b.Close)
	if b.Server == nil {
		return r
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := b.Server.Connect(tb.Context(), st, nil)
	if err != nil {
		tb.Fatalf("demotest: %v", err)
	}
	r.stop = append(r.stop, func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demotest", Version: "1"}, o.Client).Connect(tb.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: o.ProtocolVersion})
	if err != nil {
		tb.Fatalf("demotest: connecting the MCP client: %v", err)
	}
	r.Session, r.stop = cs, append(r.stop, func() { cs.Close() })
	return r
}

// ServeHTTP serves maison's MCP server over HTTP as maison serve does
// (stateless, plain JSON), behind wrap when it is not nil (a bearer gate),
// until tb ends, and returns its URL.
func (r *Rig) ServeHTTP(tb testing.TB, wrap func(http.Handler) http.Handler) string {
	tb.Helper()
	h := r.Bridge.Handler(false)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL
}

// Connect connects an MCP client over streamable HTTP to url, sending
// token as a bearer token when it is not empty, in a protocol revision
// ("" for the newest). The session closes when tb ends.
func Connect(tb testing.TB, url, token, version string) *mcp.ClientSession {
	tb.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: Bearer(token), DisableStandaloneSSE: true}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demotest", Version: "1"}, nil).Connect(tb.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		tb.Fatalf("demotest: connecting to %s (%s): %v", url, version, err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// Bearer returns an HTTP client that sends token as a bearer token with
// every request; an empty token sends none.
func Bearer(token string) *http.Client {
	return &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(r)
}

// UntilActionsOffered waits, at most a minute, until the house's actions
// join the tools cs lists: maison serve and stdio answer at once and reach
// Home Assistant in the background, which on a loaded machine can take
// longer than their first two seconds.
func UntilActionsOffered(tb testing.TB, cs *mcp.ClientSession) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := cs.ListTools(tb.Context(), nil)
		if err != nil {
			tb.Fatalf("demotest: tools/list: %v", err)
		}
		if slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == "turn_on" }) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("demotest: the house's actions were not offered within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
