package tools_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/camera"
	"maison/demo"
	"maison/homeassistant"
	"maison/tools"
	"maison/voice"
)

// rigOptions shape a test rig; the zero value is the demo house in English
// with defaults everywhere.
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
	version     string // the client's protocol version; "" for the newest
}

// rig is the demo house served through maison's real client and tools to an
// in-memory MCP client session.
type rig struct {
	house *demo.House
	ha    *homeassistant.Client
	cs    *mcp.ClientSession
}

func newRig(t testing.TB, o rigOptions) rig {
	t.Helper()
	house := demo.New(o.house)
	if o.setup != nil {
		o.setup(house)
	}
	srv := httptest.NewServer(house.Handler())
	t.Cleanup(srv.Close)
	hc := homeassistant.Config{URL: srv.URL, Token: house.UserToken()}
	if o.ha != nil {
		o.ha(&hc)
	}
	ha, err := homeassistant.New(hc)
	if err != nil {
		t.Fatal(err)
	}
	if err := ha.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ha.Close() })
	live := assist.NewLive(ha, ha, o.liveTTL)
	cc := camera.Config{Source: ha, Exposed: live.Entities, Lang: o.lang, Now: o.now}
	if o.camera != nil {
		o.camera(&cc)
	}
	cams, err := camera.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	// A generous voice budget: under -race a 4K fit alone can take seconds.
	server, err := tools.New(t.Context(), tools.Deps{HA: ha, Live: live, Cameras: cams, Lang: o.lang, Now: o.now, VoiceBudget: time.Minute, Passthrough: o.passthrough})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, o.client).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: o.version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return rig{house: house, ha: ha, cs: cs}
}

// session is the common rig: a language and a tool naming era.
func session(t *testing.T, lang voice.Lang, naming demo.Naming) (*demo.House, *mcp.ClientSession) {
	t.Helper()
	r := newRig(t, rigOptions{house: demo.Options{ToolNaming: naming}, lang: lang})
	return r.house, r.cs
}
