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
	"os"
	"strings"
	"time"

	"maison/bridge"
	"maison/door"
	"maison/state"
)

// serveDoor serves the bridge on cfg.Listen until ctx ends, printing once
// how to connect, then drains: requests in flight finish (within
// cfg.ShutdownGrace) while new ones are refused with words.
func serveDoor(ctx context.Context, cfg config, b *bridge.Bridge, st state.Store, stdout io.Writer, logger *slog.Logger) error {
	clientAddr, err := clientAddress(cfg, logger)
	if err != nil {
		return err
	}
	as, err := newAuthority(cfg, st, clientAddr, stdout, logger)
	if err != nil {
		return err
	}
	token, shown := cfg.Token, false
	if token == "" && !cfg.NoAuth {
		if !cfg.Demo && !isTerminal(stdout) {
			if as == nil {
				return errors.New("MAISON_TOKEN is not set, and standard output is not a terminal: maison would print a fresh token into a log or a file, where anyone who reads it could use it. Set MAISON_TOKEN to at least 32 random characters (openssl rand -base64 32), or set MAISON_SECRET and sign tokens with maison token or the sign-in page, or run it in a terminal to be shown a token once")
			}
			// Signed tokens alone (OAuth, maison token): no static token
			// exists, none is printed.
		} else {
			token, shown = randomToken(), true
		}
	}
	dc, err := doorConfig(ctx, cfg, b, as, clientAddr, token, logger)
	if err != nil {
		return err
	}
	d, err := door.New(dc, b.Handler(cfg.NoAuth))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listening on %s (MAISON_LISTEN): %w", cfg.Listen, err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	// The announcement is written at once: whoever waits for "maison is
	// serving" finds the lines after it there too.
	var ann strings.Builder
	fmt.Fprintf(&ann, "maison is serving %s\n", url)
	switch {
	case cfg.NoAuth:
		fmt.Fprintf(&ann, "No bearer token: --no-auth, loopback only.\n  claude mcp add --transport http maison %s\n", url)
	case shown:
		fmt.Fprintf(&ann, "Bearer token (shown once; set MAISON_TOKEN to choose your own): %s\n", token)
		fmt.Fprintf(&ann, "  claude mcp add --transport http maison %s --header \"Authorization: Bearer %s\"\n", url, token)
	case token == "":
		fmt.Fprintf(&ann, "No static bearer token (MAISON_TOKEN is not set): clients send tokens signed with MAISON_SECRET (OAuth, or maison token).\n")
	default:
		fmt.Fprintf(&ann, "Bearer token: the one in MAISON_TOKEN.\n  claude mcp add --transport http maison %s --header \"Authorization: Bearer $MAISON_TOKEN\"\n", url)
	}
	if as != nil && as.Enabled() {
		// Not /authorize: opened by hand, it has no app to approve.
		fmt.Fprintf(&ann, "OAuth for the Claude app and other connectors: add %s as a custom connector in the client (the Claude app: Settings › Connectors › Add custom connector, then Connect); the client opens maison's sign-in page itself.\n", as.Resource())
	}
	io.WriteString(stdout, ann.String())
	logger.Info("serving", "url", url, "auth", !cfg.NoAuth, "oauth", as != nil && as.Enabled())
	reportOnSignal(ctx, logger, d.InFlight)
	tuneGC()
	grace := cfg.ShutdownGrace
	if grace == 0 {
		grace = 20 * time.Second
	}
	conns := cfg.MaxConnections
	if conns == 0 {
		conns = 1024
	}
	srv := &http.Server{
		Handler: d,
		// A request's headers must arrive within 10s and its body within
		// 30s (the door allows /mcp bodies 20s, the sign-in's endpoints
		// 10s); an idle connection is closed after a minute.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.With("component", "http").Handler(), slog.LevelDebug),
	}
	// At most conns connections; at the bound a new one replaces the one
	// waiting longest for a request, so a stranger holding connections
	// cannot shut the owner out.
	limited := door.LimitConns(ln, conns)
	limited.Lang = cfg.Lang
	srv.ConnState = limited.ConnState
	return serveDraining(ctx, srv, limited, d, grace, logger)
}

// idleWhileDraining is how long a connection may wait idle once maison is
// draining before it is closed: a client in the middle of a conversation
// sends on it sooner, gets its answer and the connection closes with it.
const idleWhileDraining = time.Second

// serveDraining serves until ctx ends, then stops taking new requests (they
// are answered 503 with words while the listener stays open, the
// connection closed after each answer), lets those in flight finish within
// grace, waits for the connections to close (Conns.Settle), and closes.
// Every request that reaches maison gets an answer.
func serveDraining(ctx context.Context, srv *http.Server, ln *door.Conns, d *door.Door, grace time.Duration, logger *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	d.Drain()
	logger.Info("shutting down: new requests are refused; those in flight may finish", "in_flight", d.InFlight(), "grace", grace)
	wait, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	cut := d.Wait(wait) != nil || ln.Settle(wait, idleWhileDraining) != nil
	stop, cancelStop := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancelStop()
	if cut {
		logger.Warn("shutdown grace over: cutting the requests still in flight", "in_flight", d.InFlight())
		srv.Close()
	} else if err := srv.Shutdown(stop); err != nil {
		srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// isTerminal reports whether w is a terminal, where a token shown once is
// seen by the person who started maison and kept nowhere.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// randomToken returns 32 random bytes, URL-safe.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// listenSettings are where the subcommands that listen (serve, demo) do
// and the bearer token they ask for.
var listenSettings = []setting{
	{name: "listen", env: "MAISON_LISTEN", def: "127.0.0.1:8765",
		doc:   "address to listen on (default 127.0.0.1:8765)",
		usage: "address to listen on (MAISON_LISTEN)",
		text:  func(c *config) *string { return &c.Listen }},
	{env: "MAISON_TOKEN", doc: "bearer token clients must send (default: a random one, shown once)"},
	{name: "no-auth",
		usage: "drop the bearer gate (loopback listen addresses only)",
		on:    func(c *config) *bool { return &c.NoAuth }},
}

// doorSettings are the door's limits, for the subcommands that listen.
var doorSettings = []setting{
	{name: "allowed-hosts", env: "MAISON_ALLOWED_HOSTS",
		doc:   "host names maison answers to besides localhost, IP addresses,\nMAISON_PUBLIC_URL's and this machine's name, e.g. maison.lan,nas.home",
		usage: "host names maison answers to besides localhost, its IP addresses, its public URL's and this machine's name, comma-separated (MAISON_ALLOWED_HOSTS)",
		text:  func(c *config) *string { return &c.raw.hosts }},
	{name: "client-ip-header", env: "MAISON_CLIENT_IP_HEADER",
		doc:   "CF-Connecting-IP behind a Cloudflare tunnel (default: the connection's address)",
		usage: "header naming the client's address, CF-Connecting-IP behind a Cloudflare tunnel (MAISON_CLIENT_IP_HEADER)",
		text:  func(c *config) *string { return &c.ClientIPHeader }},
	{name: "trusted-proxies", env: "MAISON_TRUSTED_PROXIES",
		doc:   "addresses that header is believed from (default loopback and private networks)",
		usage: "addresses the client address header is believed from (MAISON_TRUSTED_PROXIES; default loopback and private networks)",
		text:  func(c *config) *string { return &c.raw.proxies }},
	{name: "rate-limit", env: "MAISON_RATE_LIMIT",
		doc:   "requests one client may make, such as 300/1m, or off (default 300/1m)",
		usage: "requests one client may make, such as 300/1m, or off (MAISON_RATE_LIMIT)",
		text:  func(c *config) *string { return &c.raw.rate }},
	{name: "max-batch", env: "MAISON_MAX_BATCH",
		doc:   "most messages in one JSON-RPC batch (default 8)",
		usage: "most messages in one JSON-RPC batch (MAISON_MAX_BATCH, default 8)",
		text:  func(c *config) *string { return &c.raw.batch }},
	{name: "max-in-flight", env: "MAISON_MAX_IN_FLIGHT",
		doc:   "most calls answered at once (default 64)",
		usage: "most calls answered at once (MAISON_MAX_IN_FLIGHT, default 64)",
		text:  func(c *config) *string { return &c.raw.inflight }},
	{name: "max-connections", env: "MAISON_MAX_CONNECTIONS",
		doc:   "most open connections (default 1024)",
		usage: "most open connections (MAISON_MAX_CONNECTIONS, default 1024)",
		text:  func(c *config) *string { return &c.raw.conns }},
	{name: "shutdown-grace", env: "MAISON_SHUTDOWN_GRACE",
		doc:   "how long requests in flight may finish after SIGTERM (default 20s)",
		usage: "how long requests in flight may finish after SIGTERM (MAISON_SHUTDOWN_GRACE, default 20s)",
		text:  func(c *config) *string { return &c.raw.grace }},
}
