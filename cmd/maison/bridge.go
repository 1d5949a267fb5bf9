package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/camera"
	"maison/confirm"
	"maison/homeassistant"
	"maison/tools"
)

// version is maison's version, set at build time with -ldflags "-X main.version=…".
var version = "dev"

// bridge is maison wired to one Home Assistant.
type bridge struct {
	ha     *homeassistant.Client
	server *mcp.Server
}

// startBridge connects to Home Assistant and builds the MCP server. The
// connection is kept until ctx ends.
func startBridge(ctx context.Context, cfg config, haURL, haToken string, logger *slog.Logger) (*bridge, error) {
	ha, err := connectHA(ctx, haURL, haToken, logger)
	if err != nil {
		return nil, err
	}
	if err := waitForAssist(ctx, ha, logger); err != nil {
		ha.Close()
		return nil, err
	}
	live := assist.NewLive(ha, ha, 0)
	cams, err := camera.New(camera.Config{
		Source: ha, Exposed: live.Entities, Allow: cfg.Cameras, Lang: cfg.Lang,
		AI: ha, AITask: cfg.AITask, Logger: logger.With("component", "camera"),
	})
	if err != nil {
		ha.Close()
		return nil, err
	}
	srv, err := tools.New(ctx, tools.Deps{
		HA: ha, Live: live, Cameras: cams, Lang: cfg.Lang, Version: version, Passthrough: cfg.Passthrough,
		Confirm: confirm.New([]byte(cfg.ConfirmKey)), Logger: logger.With("component", "mcp"),
		ResultBudget: cfg.ResultBudget,
	})
	if err != nil {
		ha.Close()
		return nil, explain(err)
	}
	return &bridge{ha: ha, server: srv}, nil
}

// connectHA connects to Home Assistant, waiting while it is unreachable or
// restarting (a house that boots maison and Home Assistant together), but
// never retrying a refused token: Home Assistant bans addresses after
// failed logins.
func connectHA(ctx context.Context, url, token string, logger *slog.Logger) (*homeassistant.Client, error) {
	delay := time.Second
	for {
		ha, err := homeassistant.New(homeassistant.Config{URL: url, Token: token, Logger: logger.With("component", "homeassistant")})
		if err != nil {
			return nil, err
		}
		err = ha.Connect(ctx)
		if err == nil {
			return ha, nil
		}
		var he *homeassistant.Error
		if !errors.As(err, &he) || (he.Kind != homeassistant.KindUnreachable && he.Kind != homeassistant.KindRestarting) {
			return nil, explain(err)
		}
		logger.Warn("Home Assistant is not answering yet; waiting", "err", err, "retry_in", delay)
		select {
		case <-ctx.Done():
			return nil, explain(err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
}

// waitForAssist waits while Home Assistant's Assist endpoint answers 404 as
// it does for a while after a restart, until its MCP server integration has
// loaded. Once that has lasted longer than a restart takes, the error says
// the integration is missing, and tools.New reports it.
func waitForAssist(ctx context.Context, ha *homeassistant.Client, logger *slog.Logger) error {
	delay := 2 * time.Second
	for {
		_, err := ha.AssistTools(ctx)
		var he *homeassistant.Error
		if !errors.As(err, &he) || he.Kind != homeassistant.KindAssistLoading {
			return nil
		}
		logger.Warn("Home Assistant's Assist tools are not loaded yet; waiting", "err", err, "retry_in", delay)
		select {
		case <-ctx.Done():
			return explain(err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 15*time.Second)
	}
}

// handler serves the MCP server over stateless streamable HTTP with plain
// JSON answers: any replica can answer any request.
// With a token required, the SDK's own Host check is off: the token
// defeats DNS rebinding, and the check refuses every same-host reverse
// proxy (a Cloudflare tunnel) whose Host is the public name. Without a
// token (--no-auth) the door answers only to localhost names.
func (b *bridge) handler(cfg config, logger *slog.Logger) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return b.server }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       logger,
		MaxRequestBodyBytes:          1 << 20,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   !cfg.NoAuth,
	})
}

func (b *bridge) close() { b.ha.Close() }

// explain adds Home Assistant's advice to an error, for the operator.
func explain(err error) error {
	var he *homeassistant.Error
	if errors.As(err, &he) {
		return fmt.Errorf("%w\n%s", err, he.Advice())
	}
	return err
}
