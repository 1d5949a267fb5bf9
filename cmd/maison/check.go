package main

import (
	"context"
	"io"
	"log/slog"

	"maison/check"
)

// runCheck checks Home Assistant, privileges, the Assist endpoint and every
// camera, one line per item. It reports false when something is wrong.
func runCheck(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) (bool, error) {
	url, token := cfg.HAURL, cfg.HAToken
	if cfg.Demo {
		var err error
		if url, token, err = startDemoHouse(ctx, cfg, logger); err != nil {
			return false, err
		}
	}
	return check.Run(ctx, check.Config{URL: url, Token: token, Cameras: cfg.Cameras, AITask: cfg.AITask, ProbeFullAPI: cfg.ProbeFullAPI, Logger: logger.With("component", "check")}, stdout), nil
}
