package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"maison/bridge"
)

// demoCmd serves the demo house, with its own Home Assistant.
func demoCmd() command {
	return command{
		name: "demo", args: "[--no-auth] [--demo-naming plain|prefixed]",
		short:    "serve the demo house over HTTP (POST /mcp)",
		about:    "Serves a demo house, with its own Home Assistant, to MCP clients over HTTP (POST /mcp).",
		does:     "always serves its own demo house",
		settings: slices.Concat(listenSettings, doorSettings, oauthSettings, stateSettings, cameraSettings, toolSettings, logSettings, demoHouseSettings),
		run: func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error {
			return runDemo(ctx, cfg, s.out, logger)
		},
	}
}

// runDemo serves the demo house through maison over HTTP.
func runDemo(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	// The house and the bridge outlive the signal to stop: requests in
	// flight still need them while the door drains.
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
	b, err := bridge.Start(life, bc)
	if err != nil {
		return explain(err)
	}
	defer b.Close()
	fmt.Fprintf(stdout, "Demo house (a simulated Home Assistant) at %s\n", b.URL)
	return untilRefused(ctx, b, func(ctx context.Context) error { return serveDoor(ctx, cfg, b, bc.Store, stdout, logger) })
}
