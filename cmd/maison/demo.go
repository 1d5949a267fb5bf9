package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"

	"maison/demo"
)

// startDemoHouse serves the demo Home Assistant on a loopback port until ctx
// ends and returns its URL and the token to use: the non-admin user's, or the
// admin's when admin is set (to show that maison refuses it). maison talks to
// it over the same wire as to a real Home Assistant.
func startDemoHouse(ctx context.Context, cfg config, logger *slog.Logger) (url, token string, err error) {
	naming := demo.NamingPlain
	if cfg.DemoPrefixed {
		naming = demo.NamingPrefixed
	}
	admin := cfg.DemoAdmin
	house := demo.New(demo.Options{ToolNaming: naming, LiveFrames: true, Logger: logger.With("component", "demo")})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", fmt.Errorf("starting the demo house: %w", err)
	}
	go house.Prerender()
	token = house.UserToken()
	if admin {
		token = house.AdminToken()
	}
	go func() {
		if err := serveUntilDone(ctx, ln, house.Handler()); err != nil {
			logger.Error("demo house stopped", "err", err)
		}
	}()
	return "http://" + ln.Addr().String(), token, nil
}

// runDemo serves the demo house through maison over HTTP.
func runDemo(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	// The house and the bridge outlive the signal to stop: requests in
	// flight still need them while the door drains.
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	url, token, err := startDemoHouse(life, cfg, logger)
	if err != nil {
		return err
	}
	b, err := startBridge(life, cfg, url, token, logger)
	if err != nil {
		return err
	}
	defer b.close()
	fmt.Fprintf(stdout, "Demo house (a simulated Home Assistant) at %s\n", url)
	return serveDoor(ctx, cfg, b, stdout, logger)
}

// runServe serves a real Home Assistant through maison over HTTP.
func runServe(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) error {
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	stop := context.AfterFunc(ctx, end) // until serving starts, a signal stops the wait for Home Assistant
	b, err := startBridge(life, cfg, cfg.HAURL, cfg.HAToken, logger)
	if !stop() && err == nil {
		b.close()
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	defer b.close()
	return serveDoor(ctx, cfg, b, stdout, logger)
}
