package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
)

// runCheck connects to Home Assistant, checks privileges, the Assist
// endpoint and every camera, and prints one line per item. It reports
// false when something is wrong.
func runCheck(ctx context.Context, cfg config, stdout io.Writer, logger *slog.Logger) (bool, error) {
	url, token := cfg.HAURL, cfg.HAToken
	if cfg.Demo {
		var err error
		if url, token, err = startDemoHouse(ctx, logger); err != nil {
			return false, err
		}
	}
	b, err := startBridge(ctx, cfg, url, token, logger)
	if err != nil {
		fmt.Fprintf(stdout, "✗ Home Assistant: %v\n", err)
		return false, nil
	}
	defer b.close()
	fmt.Fprintf(stdout, "✓ Home Assistant %s reachable, as %s (not an admin)\n", b.ha.Version(), b.ha.User().Name)
	return true, nil
}
