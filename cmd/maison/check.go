package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"

	"maison/check"
)

// checkCmd checks Home Assistant, the user's privileges and every camera.
func checkCmd() command {
	return command{
		name: "check", args: "[--demo] [--probe-full-api]",
		short: "check Home Assistant, privileges and cameras",
		about: "Checks Home Assistant, the user's privileges and every camera, and says how to fix what does not work.",
		does:  "only checks Home Assistant and its cameras and listens on no port",
		settings: slices.Concat(haSettings, cameraSettings, logSettings, demoSetting, demoHouseSettings, []setting{{
			name: "probe-full-api", on: func(c *config) *bool { return &c.ProbeFullAPI },
			usage: "check: ask whether /api/mcp refuses the user (before Home Assistant 2026.10 this counts as a failed login)",
		}}),
		run: func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error {
			if ok, err := runCheck(ctx, cfg, s.out, logger); err != nil || ok {
				return err
			}
			return errNotAllWorks
		},
	}
}

// errNotAllWorks ends maison check with exit status 1, once it has said
// what does not work and how to fix it.
var errNotAllWorks = errors.New("something does not work")

// runCheck checks Home Assistant, privileges, the Assist endpoint and every
// camera, one line per item. It reports false when something is wrong.
func runCheck(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) (bool, error) {
	return check.Run(ctx, check.Config{Bridge: cfg.bridgeConfig(logger), ProbeFullAPI: cfg.ProbeFullAPI}, stdout), nil
}
