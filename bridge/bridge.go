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
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/actions"
	"maison/approve"
	"maison/assist"
	"maison/camera"
	"maison/camera/picture"
	"maison/confirm"
	"maison/demo"
	"maison/homeassistant"
	"maison/panel"
	"maison/state"
	"maison/tools"
	"maison/voice"
)

// Config is what the bridge is built from. Each field's zero value is the
// documented default; the commands fill it from flags and MAISON_*
// settings.
type Config struct {
	// PictureMemory is the process's budget for pictures being made, which
	// every decode is admitted against (picture.Memory: two thirds of the
	// soft memory limit). Nil means picture.DefaultMemory for this bridge.
	PictureMemory *picture.Memory
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
	// Safe are entity ids safe to act on without a person (MAISON_SAFE).
	Safe []string
	// ConfirmKey signs confirmations of sensitive actions
	// (MAISON_CONFIRM_KEY). Empty means a random key, good only within
	// this process.
	ConfirmKey string
	// Store keeps used confirmations and the approval page's references
	// and answers (state.Open from MAISON_STATE_DIR or MAISON_STATE_URL).
	// Nil means this process's memory. The caller closes it.
	Store state.Store
	// ApprovalOrigin, when set, is the public origin maison's approval page
	// is served at (MAISON_PUBLIC_URL): a person approves sensitive actions
	// there (see Approvals). Empty means no page.
	ApprovalOrigin string
	// ApprovalNotify names where the approval page's links are sent
	// through Home Assistant (MAISON_APPROVAL_NOTIFY; see
	// approve.Config.Notify). Empty means nowhere.
	ApprovalNotify []string
	// Confirming chooses how a sensitive action gets its yes
	// (MAISON_CONFIRM). Zero means the approval page when there is one,
	// else codes.
	Confirming tools.Confirming
	// ResultBudget bounds every tool result in characters
	// (MAISON_RESULT_BUDGET). Zero means tools.DefaultResultBudget.
	ResultBudget int
	// Version is maison's version, reported to clients. Empty means "dev".
	Version string

	// ReachLater starts the bridge even while Home Assistant is
	// unreachable, restarting or still loading its Assist endpoint, as a
	// house that boots maison and Home Assistant together needs, and as a
	// client that starts maison itself (stdio) expects an answer at once:
	// meanwhile the tools there say Home Assistant cannot be reached, and
	// the house's actions join them once it answers. A refused token, or an
	// administrator's, is never retried (Home Assistant bans addresses after
	// failed logins): at start it is Start's error; found later, Failed is
	// closed and Err says why. False returns the first failure (maison
	// check, tests). A demo house, started in this process, is always
	// waited for.
	ReachLater bool
	// FirstWait bounds, with ReachLater, how long Start waits for Home
	// Assistant's first answer before serving without it. Zero means two
	// seconds.
	FirstWait time.Duration
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
	// Approvals is the approval page's desk, nil without
	// Config.ApprovalOrigin; CarryOut carries out what a person approved
	// there, as a confirmed tool call would.
	Approvals *approve.Desk
	CarryOut  approve.CarryOut

	log  *slog.Logger
	stop func() // stops the demo house

	scopes    atomic.Pointer[map[string]string] // each tool's scope, by name
	failed    chan struct{}                     // closed when Home Assistant refused maison after Start
	err       error                             // why, set before failed is closed
	endReach  context.CancelFunc                // stops reaching Home Assistant
	reachDone chan struct{}                     // closed when reaching has stopped
}

// Start decides which Home Assistant to talk to, connects to it and builds
// the parts. The connection is kept until ctx ends or Close is called.
func Start(ctx context.Context, cfg Config) (*Bridge, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{URL: cfg.URL, log: log, stop: func() {}, failed: make(chan struct{})}
	token := cfg.Token
	if cfg.Demo != nil {
		var err error
		if token, err = b.startDemo(ctx, *cfg.Demo, cfg.DemoAdmin); err != nil {
			return nil, err
		}
	}
	hc := homeassistant.Config{URL: b.URL, Token: token, Logger: log.With("component", "homeassistant"), BareName: actions.BareName}
	if cfg.HomeAssistant != nil {
		cfg.HomeAssistant(&hc)
	}
	// The demo house runs in this process: it cannot be away at start, so
	// it is waited for, however slow the machine, and serves whole.
	reachLater := cfg.ReachLater && cfg.Demo == nil
	if reachLater && hc.HandshakeTimeout == 0 {
		hc.HandshakeTimeout = handshakeTimeout // a silent address is said unreachable, and tried again
	}
	ha, err := homeassistant.New(hc)
	if err != nil {
		b.stop()
		return nil, err
	}
	b.HA = ha
	life, endLife := context.WithCancel(ctx)
	b.endReach = endLife
	wait := cfg.FirstWait
	if wait <= 0 {
		wait = firstWait
	}
	connected, pending, err := b.firstContact(life, reachLater, wait)
	if err != nil {
		b.Close()
		return nil, err
	}
	b.Live = assist.NewLive(ha, ha, cfg.LiveTTL)
	cc := camera.Config{
		Source: ha, Exposed: b.Live.Devices, Allow: cfg.Cameras, Lang: cfg.Lang, ResultBudget: cfg.ResultBudget,
		AI: ha, AITask: cfg.AITask, Now: cfg.Now, Memory: cfg.PictureMemory, Logger: log.With("component", "camera"),
	}
	if cfg.Camera != nil {
		cfg.Camera(&cc)
	}
	if b.Cameras, err = camera.New(cc); err != nil {
		b.Close()
		return nil, err
	}
	if cfg.NoTools {
		if !connected {
			b.reachInBackground(life, false, pending, nil)
		}
		return b, nil
	}
	signer := confirm.NewStored([]byte(cfg.ConfirmKey), cfg.Store)
	deps := tools.Deps{
		HA: ha, Live: b.Live, Cameras: b.Cameras, Lang: cfg.Lang, Version: cfg.Version,
		Passthrough: cfg.Passthrough, Safe: cfg.Safe, Confirm: signer, Confirming: cfg.Confirming,
		ResultBudget: cfg.ResultBudget, VoiceBudget: cfg.VoiceBudget, CallBudget: cfg.CallBudget, Now: cfg.Now,
		Logger: log.With("component", "mcp"),
	}
	if len(cfg.ApprovalNotify) > 0 && cfg.ApprovalOrigin == "" {
		log.Warn("MAISON_APPROVAL_NOTIFY is set, but there is no approval page to send links to (it needs MAISON_PUBLIC_URL and a sign-in method): nothing will be sent", "component", "approve")
	}
	if cfg.ApprovalOrigin != "" {
		b.Approvals, err = approve.New(approve.Config{Signer: signer, Origin: cfg.ApprovalOrigin, Lang: cfg.Lang, Now: cfg.Now,
			Notify: cfg.ApprovalNotify, Notifier: ha, Logger: log.With("component", "approve"), Store: cfg.Store})
		if err != nil {
			b.Close()
			return nil, err
		}
		deps.Approvals = b.Approvals
	}
	// One actions service decides and carries out the house's actions, for
	// the tools and for what a person approves on the page.
	deps.Actions = actions.New(actions.Config{HA: ha, Live: b.Live, Safe: cfg.Safe, Confirm: signer, Approvals: b.Approvals,
		Logger: log.With("component", "actions")})
	if b.Approvals != nil {
		b.CarryOut = tools.CarryOut(deps)
	}
	if connected {
		b.Server, err = tools.New(ctx, deps)
		if err == nil {
			if err := b.listScopes(ctx); err != nil {
				b.Close()
				return nil, err
			}
			return b, nil
		}
		if !reachLater || !errors.Is(err, homeassistant.KindAssistLoading) {
			b.Close()
			return nil, err
		}
		log.Warn("Home Assistant's Assist tools are not loaded yet; serving meanwhile without the house's actions", "component", "homeassistant", "err", err)
	}
	srv, addActions, err := tools.NewAwaiting(deps)
	if err != nil {
		b.Close()
		return nil, err
	}
	b.Server = srv
	if err := b.listScopes(ctx); err != nil {
		b.Close()
		return nil, err
	}
	b.reachInBackground(life, connected, pending, addActions)
	return b, nil
}

// firstContact makes the first attempt to connect, on life, and waits for
// it, so that a refused token is Start's error; with reachLater only for
// wait, so that no client is kept waiting by a Home Assistant slow to
// answer: pending then carries the attempt's outcome.
func (b *Bridge) firstContact(life context.Context, reachLater bool, wait time.Duration) (connected bool, pending <-chan error, err error) {
	first := make(chan error, 1)
	go func() { first <- b.HA.Connect(life) }()
	var later <-chan time.Time
	if reachLater {
		t := time.NewTimer(wait)
		defer t.Stop()
		later = t.C
	}
	select {
	case err := <-first:
		if err != nil && (!reachLater || !notYet(err)) {
			return false, nil, err
		}
		if err != nil {
			b.log.Warn("Home Assistant is not answering yet; serving meanwhile, and the tools say so until it answers", "component", "homeassistant", "err", err)
		}
		return err == nil, nil, nil
	case <-later:
		b.log.Warn("Home Assistant has not answered yet; serving meanwhile, and the tools say so until it answers", "component", "homeassistant", "waited", wait)
		return false, first, nil
	}
}

const (
	// firstWait is how long Start waits for Home Assistant's first answer
	// with ReachLater before serving without it, unless Config.FirstWait
	// says otherwise.
	firstWait = 2 * time.Second
	// handshakeTimeout bounds, with ReachLater, how long a connection may
	// stay silent before Home Assistant's first word.
	handshakeTimeout = 10 * time.Second
)

// reachInBackground runs reach until life ends (the bridge closes).
func (b *Bridge) reachInBackground(life context.Context, connected bool, pending <-chan error, addActions func(context.Context) error) {
	b.reachDone = make(chan struct{})
	go func() {
		defer close(b.reachDone)
		b.reach(life, connected, pending, addActions)
	}()
}

// notYet reports whether err is one that passes with time: Home Assistant
// unreachable, restarting, too slow, or still loading its Assist endpoint.
func notYet(err error) bool {
	return errors.Is(err, homeassistant.KindUnreachable) || errors.Is(err, homeassistant.KindRestarting) ||
		errors.Is(err, homeassistant.KindTimeout) || errors.Is(err, homeassistant.KindAssistLoading)
}

// reach connects to Home Assistant unless connected, once the first attempt
// (pending, nil if it has failed already) ends, and then adds the house's actions (unless
// addActions is nil) once its Assist endpoint answers, retrying what passes
// with time until life ends. What does not pass is Failed.
func (b *Bridge) reach(life context.Context, connected bool, pending <-chan error, addActions func(context.Context) error) {
	delay := time.Second
	for !connected {
		var err error
		if pending != nil {
			select {
			case err = <-pending:
			case <-life.Done():
				return
			}
			pending = nil
		} else {
			if !sleep(life, delay) {
				return
			}
			delay = min(2*delay, 30*time.Second)
			err = b.HA.Connect(life)
		}
		switch {
		case err == nil:
			connected = true
			b.log.Info("Home Assistant answers now", "component", "homeassistant")
		case life.Err() != nil:
			return
		case !notYet(err):
			b.fail(err)
			return
		default:
			b.log.Warn("Home Assistant is not answering yet; waiting", "component", "homeassistant", "err", err, "retry_in", delay)
		}
	}
	if addActions == nil {
		return
	}
	delay = time.Second
	for {
		err := addActions(life)
		switch {
		case err == nil:
			if err := b.listScopes(life); err != nil && life.Err() == nil {
				b.fail(err)
				return
			}
			b.log.Info("the house's actions are offered now", "component", "mcp")
			return
		case life.Err() != nil:
			return
		case !notYet(err):
			b.fail(err)
			return
		}
		delay = min(2*delay, 15*time.Second)
		b.log.Warn("Home Assistant's Assist tools are not loaded yet; waiting", "component", "homeassistant", "err", err, "retry_in", delay)
		if !sleep(life, delay) {
			return
		}
	}
}

// sleep waits d, and reports false if ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// fail records why maison cannot go on with this Home Assistant and closes
// Failed.
func (b *Bridge) fail(err error) {
	b.log.Error("maison cannot work with this Home Assistant, and waiting will not change it; stopping", "component", "homeassistant", "err", err)
	b.err = err
	close(b.failed)
}

// Failed is closed when Home Assistant, first reached after Start,
// refused maison for good (an administrator's token, a refused token, no
// Assist endpoint): the command stops, with Err.
func (b *Bridge) Failed() <-chan struct{} { return b.failed }

// Err says why Failed was closed; nil before.
func (b *Bridge) Err() error {
	select {
	case <-b.failed:
		return b.err
	default:
		return nil
	}
}

// listScopes lists the scope each tool needs, for ToolScope.
func (b *Bridge) listScopes(ctx context.Context) error {
	m, err := tools.Scopes(ctx, b.Server)
	if err != nil {
		return fmt.Errorf("listing the tools' scopes: %w", err)
	}
	b.scopes.Store(&m)
	return nil
}

// ToolScope says which scope a tool needs, and whether the tool exists: for
// the HTTP door to refuse early what a token does not allow. The house's
// actions are known from the moment they are offered.
func (b *Bridge) ToolScope(name string) (string, bool) {
	m := b.scopes.Load()
	if m == nil {
		return "", false
	}
	s, ok := (*m)[name]
	return s, ok
}

// Close ends the connection to Home Assistant and stops the demo house.
func (b *Bridge) Close() {
	if b.endReach != nil {
		b.endReach()
	}
	if b.reachDone != nil {
		<-b.reachDone
	}
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
//
// A client of the initialize era that declares it renders MCP Apps is
// given a session id that says so (panel.Remember), since nothing else
// carries its capabilities to its later requests.
func (b *Bridge) Handler(localOnly bool) http.Handler {
	const maxBody = 1 << 20 // as the door's limit, which refuses larger bodies first with words
	return panel.Remember(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return b.Server }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       b.log.With("component", "mcp-http"),
		MaxRequestBodyBytes:          maxBody,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   !localOnly,
	}), maxBody)
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
