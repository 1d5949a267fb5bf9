package main

import (
	"context"
	"io"
	"log/slog"

	"maison/stdio"
)

// runStdio serves MCP over stdin and stdout. Nothing but protocol is
// written to stdout; logs go to stderr.
func runStdio(ctx context.Context, cfg config, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	url, token := cfg.HAURL, cfg.HAToken
	if cfg.Demo {
		var err error
		if url, token, err = startDemoHouse(ctx, cfg, logger); err != nil {
			return err
		}
	}
	b, err := startBridge(ctx, cfg, url, token, logger)
	if err != nil {
		return err
	}
	defer b.close()
	// A malformed line is answered and the session goes on; at the end of
	// input every call read is answered before maison exits.
	return b.server.Run(ctx, &stdio.Transport{In: stdin, Out: stdout})
}
