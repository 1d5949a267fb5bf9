package main

import (
	"context"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	return b.server.Run(ctx, t)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
