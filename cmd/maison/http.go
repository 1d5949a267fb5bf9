package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"maison/door"
)

// serveDoor serves the bridge on cfg.Listen until ctx ends, printing once
// how to connect.
func serveDoor(ctx context.Context, cfg config, b *bridge, stdout io.Writer, logger *slog.Logger) error {
	token, shown := cfg.Token, false
	if token == "" && !cfg.NoAuth {
		token, shown = randomToken(), true
	}
	as, err := newAuthority(cfg, stdout, logger)
	if err != nil {
		return err
	}
	dc, err := doorConfig(ctx, cfg, b, as, token, logger)
	if err != nil {
		return err
	}
	h, err := door.New(dc, b.handler(cfg, logger.With("component", "mcp-http")))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listening on %s (MAISON_LISTEN): %w", cfg.Listen, err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	fmt.Fprintf(stdout, "maison is serving %s\n", url)
	switch {
	case cfg.NoAuth:
		fmt.Fprintf(stdout, "No bearer token: --no-auth, loopback only.\n  claude mcp add --transport http maison %s\n", url)
	case shown:
		fmt.Fprintf(stdout, "Bearer token (shown once; set MAISON_TOKEN to choose your own): %s\n", token)
		fmt.Fprintf(stdout, "  claude mcp add --transport http maison %s --header \"Authorization: Bearer %s\"\n", url, token)
	default:
		fmt.Fprintf(stdout, "Bearer token: the one in MAISON_TOKEN.\n  claude mcp add --transport http maison %s --header \"Authorization: Bearer $MAISON_TOKEN\"\n", url)
	}
	if as != nil && as.Enabled() {
		fmt.Fprintf(stdout, "OAuth for the Claude app and other connectors: add %s as a custom connector; the sign-in page is %s/authorize.\n", as.Resource(), as.Issuer())
	}
	logger.Info("serving", "url", url, "auth", !cfg.NoAuth, "oauth", as != nil && as.Enabled())
	return serveUntilDone(ctx, ln, h)
}

// serveUntilDone serves on ln until ctx ends, then shuts down gracefully.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// randomToken returns 32 random bytes, URL-safe.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
