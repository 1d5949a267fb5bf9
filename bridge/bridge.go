// Package bridge builds maison from its settings, in one place: which Home
// Assistant it talks to (a real one, or a demo house it starts), the client
// of that Home Assistant, what is exposed to Assist, the camera service and
// the MCP server with every tool. maison serve, stdio, check and demo use
// it, and so does demotest for the tests: what they run is built the same
// way.
//
// The bridge is also the only code that names a component in the logs: each
// part receives a logger tagged with its component once, and the parts
// themselves add no tag.
package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/camera"
	"maison/confirm"
	"maison/demo"
	"maison/homeassistant"
	"maison/tools"
	"maison/voice"
)

// Config is what the bridge is built from. Each field's zero value is the
// documented default; the commands fill it from flags and MAISON_*
// settings.
type Config struct {
	// URL and Token name a real Home Assistant and the token of maison's
	// non-admin user (MAISON_HA_URL, MAISON_HA_TOKEN). Unused with Demo.
	URL, Token string
	// Demo, when set, starts a demo house with these options on a loopback
	// port for as long as the bridge lives, and talks to it instead: the
	// same wire as to a real Home Assistant.
	Demo *demo.Options
	// DemoAdmin uses the demo house's administrator token, to show that
	// maison refuses it.
	DemoAdmin bool

	// Cameras lists the camera entity ids offered (MAISON_CAMERAS). Empty
	// means those exposed to Assist.
	Cameras []string
	// Lang is the language of every answer (MAISON_LANG). Zero means English.
	Lang voice.Lang
	// AITask is the ai_task entity that describes frames for voice
	// (MAISON_AI_TASK): empty means the first that accepts pictures, "off"
	// none.
	AITask string
	// Passthrough chooses the Home Assistant tools offered as they are
	// (MAISON_PASSTHROUGH). Zero means all.
	Passthrough tools.Passthrough
	// ConfirmKey signs confirmations of sensitive actions
	// (MAISON_CONFIRM_KEY). Empty means a random key, good only within
	// this process.
	ConfirmKey string
	// ResultBudget bounds every tool result in characters
	// (MAISON_RESULT_BUDGET). Zero means tools.DefaultResultBudget.
	ResultBudget int
	// Version is maison's version, reported to clients. Empty means "dev".
	Version string

	// Wait makes Start wait while Home Assistant is unreachable or
	// restarting, and while its Assist endpoint is still loading, as a
	// house that boots maison and Home Assistant together needs. A refused
	// token is never retried: Home Assistant bans addresses after failed
	// logins. False returns the first failure (maison check, tests).
	Wait bool
	// NoTools builds no MCP server: maison check reads the other parts
	// itself and says what fails, Assist's tools included.
	NoTools bool

	// Logger receives every part's records, each tagged with its
	// component. Nil means discard.
	Logger *slog.Logger

	// The settings below exist for tests; zero means what maison runs with.

	// Now is the clock answers are said against. Nil means time.Now.
	Now func() time.Time
	// LiveTTL is how long what is exposed to Assist is kept. Zero means
	// assist's default.
	LiveTTL time.Duration
	// VoiceBudget bounds describe_camera. Zero means the tools' default.
	VoiceBudget time.Duration
	// CallBudget bounds every tool call. Zero means the tools' default.
	CallBudget time.Duration
	// HomeAssistant adjusts the client's settings before it is made.
	HomeAssistant func(*homeassistant.Config)
	// Camera adjusts the camera service's settings before it is made: a
	// shorter frame reuse, another frame source.
	Camera func(*camera.Config)
}

// Bridge is maison wired to one Home Assistant: the parts, built once.
type Bridge struct {
	// House is the demo house started for Config.Demo; nil for a real
	// Home Assistant.
	House *demo.House
	// URL is the Home Assistant talked to.
	URL     string
	HA      *homeassistant.Client
	Live    *assist.Live
	Cameras *camera.Service
	// Server is the MCP server with every tool; nil with Config.NoTools.
	Server *mcp.Server

	log  *slog.Logger
	stop func() // stops the demo house
}

// Start decides which Home Assistant to talk to, connects to it and builds
// the parts. The connection is kept until ctx ends or Close is called.
func Start(ctx context.Context, cfg Config) (*Bridge, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{URL: cfg.URL, log: log, stop: func() {}}
	token := cfg.Token
	if cfg.Demo != nil {
		var err error
		if token, err = b.startDemo(ctx, *cfg.Demo, cfg.DemoAdmin); err != nil {
			return nil, err
		}
	}
	hc := homeassistant.Config{URL: b.URL, Token: token, Logger: log.With("component", "homeassistant")}
	if cfg.HomeAssistant != nil {
		cfg.HomeAssistant(&hc)
	}
	ha, err := b.connect(ctx, hc, cfg.Wait)
	if err != nil {
		b.stop()
		return nil, err
	}
	b.HA = ha
	if cfg.Wait {
		if err := b.waitForAssist(ctx); err != nil {
			b.Close()
			return nil, err
		}
	}
	b.Live = assist.NewLive(ha, ha, cfg.LiveTTL)
	cc := camera.Config{
		Source: ha, Exposed: b.Live.Entities, Allow: cfg.Cameras, Lang: cfg.Lang,
		AI: ha, AITask: cfg.AITask, Now: cfg.Now, Logger: log.With("component", "camera"),
	}
	if cfg.Camera != nil {
		cfg.Camera(&cc)
	}
	if b.Cameras, err = camera.New(cc); err != nil {
		b.Close()
		return nil, err
	}
	if cfg.NoTools {
		return b, nil
	}
	b.Server, err = tools.New(ctx, tools.Deps{
		HA: ha, Live: b.Live, Cameras: b.Cameras, Lang: cfg.Lang, Version: cfg.Version,
		Passthrough: cfg.Passthrough, Confirm: confirm.New([]byte(cfg.ConfirmKey)),
		ResultBudget: cfg.ResultBudget, VoiceBudget: cfg.VoiceBudget, CallBudget: cfg.CallBudget, Now: cfg.Now,
		Logger: log.With("component", "mcp"),
	})
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Close ends the connection to Home Assistant and stops the demo house.
func (b *Bridge) Close() {
	if b.HA != nil {
		b.HA.Close()
	}
	b.stop()
}

// Handler serves the MCP server over stateless streamable HTTP with plain
// JSON answers: any replica can answer any request. localOnly keeps the
// SDK's check that the Host is a localhost name, for a door without a
// token (--no-auth); with a token the check is off, since the token defeats
// DNS rebinding and the check refuses every same-host reverse proxy (a
// Cloudflare tunnel) whose Host is the public name.
func (b *Bridge) Handler(localOnly bool) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return b.Server }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       b.log.With("component", "mcp-http"),
		MaxRequestBodyBytes:          1 << 20, // as the door's limit, which refuses larger bodies first with words
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   !localOnly,
	})
}

// startDemo serves a demo house on a loopback port until ctx ends or the
// bridge closes, sets the bridge's URL to it and returns the token to use.
func (b *Bridge) startDemo(ctx context.Context, opts demo.Options, admin bool) (string, error) {
	opts.Logger = b.log.With("component", "demo")
	house := demo.New(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("starting the demo house: %w", err)
	}
	go house.Prerender() // the first picture asked need not wait for a 4K scene
	srv := &http.Server{Handler: house.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			opts.Logger.Error("the demo house stopped", "err", err)
		}
	}()
	unbind := context.AfterFunc(ctx, func() { srv.Close() })
	b.stop = func() { unbind(); srv.Close() }
	b.House, b.URL = house, "http://"+ln.Addr().String()
	if admin {
		return house.AdminToken(), nil
	}
	return house.UserToken(), nil
}

// connect connects to Home Assistant. With wait, it waits while Home
// Assistant is unreachable or restarting, but never retries a refused
// token.
func (b *Bridge) connect(ctx context.Context, hc homeassistant.Config, wait bool) (*homeassistant.Client, error) {
	delay := time.Second
	for {
		ha, err := homeassistant.New(hc)
		if err != nil {
			return nil, err
		}
		err = ha.Connect(ctx)
		if err == nil {
			return ha, nil
		}
		if !wait || !(errors.Is(err, homeassistant.KindUnreachable) || errors.Is(err, homeassistant.KindRestarting)) {
			return nil, err
		}
		b.log.Warn("Home Assistant is not answering yet; waiting", "component", "homeassistant", "err", err, "retry_in", delay)
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
}

// waitForAssist waits while Home Assistant's Assist endpoint answers 404 as
// it does for a while after a restart, until its MCP server integration has
// loaded. Once that has lasted longer than a restart takes, the error says
// the integration is missing, and tools.New reports it.
func (b *Bridge) waitForAssist(ctx context.Context) error {
	delay := 2 * time.Second
	for {
		_, err := b.HA.AssistTools(ctx)
		if !errors.Is(err, homeassistant.KindAssistLoading) {
			return nil
		}
		b.log.Warn("Home Assistant's Assist tools are not loaded yet; waiting", "component", "homeassistant", "err", err, "retry_in", delay)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
		delay = min(2*delay, 15*time.Second)
	}
}
