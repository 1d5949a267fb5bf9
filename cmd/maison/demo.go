package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"maison/bridge"
)

// runDemo serves the demo house through maison over HTTP.
func runDemo(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	// The house and the bridge outlive the signal to stop: requests in
	// flight still need them while the door drains.
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	b, err := bridge.Start(life, cfg.bridgeConfig(logger))
	if err != nil {
		return explain(err)
	}
	defer b.Close()
	fmt.Fprintf(stdout, "Demo house (a simulated Home Assistant) at %s\n", b.URL)
	return untilRefused(ctx, b, func(ctx context.Context) error { return serveDoor(ctx, cfg, b, stdout, logger) })
}

// runServe serves a real Home Assistant through maison over HTTP.
func runServe(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	stop := context.AfterFunc(ctx, end) // until serving starts, a signal stops the wait for Home Assistant
	b, err := bridge.Start(life, cfg.bridgeConfig(logger))
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
	return untilRefused(ctx, b, func(ctx context.Context) error { return serveDoor(ctx, cfg, b, stdout, logger) })
}
