package main

import (
	"context"
	"io"
	"log/slog"
	"slices"

	"maison/bridge"
)

// serveCmd serves a real Home Assistant over HTTP.
func serveCmd() command {
	return command{
		name: "serve", args: "[--no-auth]",
		short:    "serve a real Home Assistant over HTTP (POST /mcp)",
		about:    "Serves the Home Assistant at MAISON_HA_URL to MCP clients over HTTP (POST /mcp).",
		does:     "serves the Home Assistant at MAISON_HA_URL; maison demo serves the demo house",
		settings: slices.Concat(listenSettings, doorSettings, oauthSettings, stateSettings, haSettings, cameraSettings, toolSettings, logSettings),
		run: func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error {
			return runServe(ctx, cfg, s.out, logger)
		},
	}
}

// runServe serves a real Home Assistant through maison over HTTP.
func runServe(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	bc, err := cfg.servingBridgeConfig(logger)
	if err != nil {
		return err
	}
	if bc.Store, err = openState(life, cfg, logger); err != nil {
		return err
	}
	defer bc.Store.Close()
	stop := context.AfterFunc(ctx, end) // until serving starts, a signal stops the wait for Home Assistant
	b, err := bridge.Start(life, bc)
	if !stop() {
		if err == nil {
			b.Close()
		}
		return nil // stopped on request (a signal) while starting: a clean stop
	}
	if err != nil {
		return explain(err)
	}
	defer b.Close()
	return untilRefused(ctx, b, func(ctx context.Context) error { return serveDoor(ctx, cfg, b, bc.Store, stdout, logger) })
}
