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
	return check.Run(ctx, check.Config{Bridge: cfg.bridgeConfig(logger), ProbeFullAPI: cfg.ProbeFullAPI}, stdout), nil
}
