package tools_test

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/bridge"
	"maison/camera"
	"maison/demo"
	"maison/demotest"
	"maison/homeassistant"
	"maison/tools"
	"maison/voice"
)

// rigOptions are the tests' shorthand for demotest's options; the zero
// value is the demo house in English with defaults everywhere.
type rigOptions struct {
	house       demo.Options
	setup       func(*demo.House) // shapes the house before maison connects
	lang        voice.Lang
	ha          func(*homeassistant.Config) // adjusts the client's settings
	camera      func(*camera.Config)        // adjusts the camera service
	now         func() time.Time            // the tools' clock
	liveTTL     time.Duration               // how long GetLiveContext is kept
	client      *mcp.ClientOptions
	passthrough tools.Passthrough
	safe        []string // MAISON_SAFE
	version     string   // the client's protocol version; "" for the newest
	// prerender draws every frame before maison connects, so that no fetch
	// waits on it: for answers compared word for word.
	prerender bool
}

// rig is the demo house served through maison's real client and tools to an
// in-memory MCP client session.
type rig struct {
	house *demo.House
	ha    *homeassistant.Client
	cs    *mcp.ClientSession
}

// newRig starts a demo house and maison for t. Unless o.prerender, its
// frames are drawn on first fetch: the package makes over a hundred houses
// (a second of drawing each), and the voice budget is a minute.
func newRig(t testing.TB, o rigOptions) rig {
	t.Helper()
	r := demotest.New(t, demotest.Options{
		House: o.house, Setup: o.setup, LazyFrames: !o.prerender,
		Bridge: bridge.Config{
			Lang: o.lang, Now: o.now, LiveTTL: o.liveTTL, Passthrough: o.passthrough, Safe: o.safe,
			HomeAssistant: o.ha, Camera: o.camera,
		},
		Client: o.client, ProtocolVersion: o.version,
	})
	return rig{house: r.House, ha: r.Bridge.HA, cs: r.Session}
}

// session is the common rig: a language and a tool naming era.
func session(t *testing.T, lang voice.Lang, naming demo.Naming) (*demo.House, *mcp.ClientSession) {
	t.Helper()
	r := newRig(t, rigOptions{house: demo.Options{ToolNaming: naming}, lang: lang})
	return r.house, r.cs
}

// heard waits until maison's Home Assistant client satisfies cond: the
// events of a change made in the house arrive in their own time, later on a
// loaded machine. The test's own deadline is the safety net.
func heard(t testing.TB, ha *homeassistant.Client, what string, cond func() bool) {
	t.Helper()
	for {
		changed := ha.Changed()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-t.Context().Done():
			t.Fatalf("maison never heard: %s", what)
		}
	}
}

// with adds entities to the demo house before maison connects.
func with(t *testing.T, es ...demo.Entity) func(*demo.House) {
	return func(h *demo.House) {
		for _, e := range es {
			if err := h.Add(e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// asked reports whether an answer is a proposal that asks the person
// first, or the refusal of a sensitive action mixed with other devices,
// which asks for it on its own.
func asked(text string) bool {
	return strings.Contains(text, "Nothing was done yet") && codeRE.FindString(text) != "" || refusedMixed(text)
}

// refusedMixed reports whether an answer refuses a sensitive action that
// would also act on other devices.
func refusedMixed(text string) bool {
	return strings.HasPrefix(text, "Nothing was done: this call would ") && strings.Contains(text, "is asked of the person on its own")
}

// countCalls counts the Assist calls of one tool the house received.
func countCalls(h *demo.House, tool string) int {
	n := 0
	for _, c := range h.AssistCalls() {
		if c == tool || strings.HasSuffix(c, "__"+tool) {
			n++
		}
	}
	return n
}

// callQuiet is call without the speakability check: some attacks make
// answers unspeakable on purpose, and that is reported separately.
func callQuiet(t *testing.T, r rig, tool string, args map[string]any) (string, bool) {
	t.Helper()
	parts, isErr := callBlocks(t, r.cs, tool, args)
	return strings.Join(parts, " "), isErr
}

// callCounted calls a tool and returns its text blocks joined, whether it
// is an error and how many pictures it carries; the text must be speakable
// (what names the call in a failure).
func callCounted(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, what string) (string, bool, int) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	images := 0
	for _, b := range res.Content {
		switch b := b.(type) {
		case *mcp.TextContent:
			text += b.Text
		case *mcp.ImageContent:
			images++
		}
	}
	if err := voice.Speakable(text); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	return text, res.IsError, images
}
