package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"

	"maison/bridge"
	"maison/stdio"
)

// stdioCmd speaks MCP over standard input and output.
func stdioCmd() command {
	return command{
		name: "stdio", args: "[--demo]",
		short:    "serve MCP over stdin/stdout",
		about:    "Speaks MCP over standard input and output, for a client that starts maison itself (Claude Desktop, Claude Code).",
		does:     "speaks MCP over standard input and output and listens on no port",
		settings: slices.Concat(haSettings, cameraSettings, toolSettings, logSettings, demoSetting, demoHouseSettings),
		run: func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error {
			return runStdio(ctx, cfg, s.in, s.out, logger)
		},
	}
}

// runStdio serves MCP over stdin and stdout. Nothing but protocol is
// written to stdout; logs go to stderr.
func runStdio(ctx context.Context, cfg config, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	if _, err := cfg.approvalOrigin(false); err != nil {
		return err
	}
	b, err := bridge.Start(ctx, cfg.bridgeConfig(logger))
	if ctx.Err() != nil {
		if err == nil {
			b.Close()
		}
		return nil // stopped on request (a signal): a clean stop
	}
	if err != nil {
		return explain(err)
	}
	defer b.Close()
	// A client that closes standard output mid-answer is told by a failed
	// write (EPIPE), not by a SIGPIPE that would kill maison without a word.
	ignoreBrokenPipe()
	// A malformed line is answered and the session goes on; at the end of
	// input every call read is answered before maison exits.
	err = untilRefused(ctx, b, func(ctx context.Context) error {
		return b.Server.Run(ctx, &stdio.Transport{In: stdin, Out: stdout, Lang: cfg.Lang})
	})
	if ctx.Err() != nil && b.Err() == nil {
		return nil
	}
	if errors.Is(err, stdio.ErrClientGone) {
		logger.Info("the client closed maison's standard output, so no answer can reach it; the session ends", "err", err)
		return nil
	}
	return err
}
