// Command maison is an MCP server that lets AI clients see and run a home
// through Home Assistant, safely: a non-admin user, only what is exposed to
// Assist, camera frames repaired before they leave the house.
//
//	maison demo      the demo house and the bridge together
//	maison serve     the bridge against a real Home Assistant
//	maison stdio     MCP over stdin/stdout (--demo for the demo house)
//	maison check     what works, what does not, and how to fix it
//	maison jpegfix   repair a JPEG file and say what was wrong
//	maison token     print a long-lived access token signed with MAISON_SECRET
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

const usage = `maison bridges Home Assistant and its cameras to MCP clients.

Usage:
  maison demo [--no-auth] [--demo-naming plain|prefixed]
                            serve the demo house over HTTP (POST /mcp)
  maison serve [--no-auth]  serve a real Home Assistant over HTTP (POST /mcp)
  maison stdio [--demo]     serve MCP over stdin/stdout
  maison check [--demo] [--probe-full-api]
                            check Home Assistant, privileges and cameras
  maison jpegfix IN [OUT]   repair a JPEG file and say what was wrong
  maison fit IN OUT         pass a picture through the snapshot path: what a client receives
  maison token [--scope house.read|house.control|both] [--ttl 90d] [--name NAME]
                            print a long-lived access token signed with MAISON_SECRET
  maison --version          print the version and platform

Settings (flags win over the environment):
  MAISON_LISTEN     address to listen on (default 127.0.0.1:8765)
  MAISON_TOKEN      bearer token clients must send (default: a random one, shown once)
  MAISON_HA_URL     Home Assistant's URL, e.g. http://homeassistant.local:8123
  MAISON_HA_TOKEN   long-lived token of a non-admin, local-only Home Assistant user
  MAISON_CAMERAS    comma-separated camera entity ids to offer (default: those exposed to Assist)
  MAISON_LANG       en or fr (default en)
  MAISON_AI_TASK    ai_task entity that describes frames for voice, or off (default: the first that accepts pictures)
  MAISON_PASSTHROUGH  Home Assistant tools maison has no wrapper for, offered as ha_…: all, off,
                    or a list such as GetDateTime,HassSetPosition (default all)
  MAISON_CONFIRM_KEY  key signing confirmations, the same on every replica (default: random per process)
  MAISON_LOG_LEVEL  debug, info, warn or error (default info)
  MAISON_RESULT_BUDGET  most characters of one tool result, pictures included (default 140000)

OAuth, for the Claude app and other connectors (see README):
  MAISON_PUBLIC_URL         the public https origin maison is reached at, e.g. https://maison.example.com
  MAISON_SECRET             key signing client ids and tokens; changing it revokes them all
  MAISON_SECRET_PREVIOUS    the key before a rotation, still accepted meanwhile
  MAISON_OPERATOR_PASSWORD  the password the sign-in page asks for
  MAISON_CF_ACCESS_TEAM, MAISON_CF_ACCESS_AUD, MAISON_CF_ACCESS_EMAILS
                            or trust Cloudflare Access in front of the sign-in page
  MAISON_REDIRECT_URIS      extra allowed redirect URIs, e.g. https://my.home-assistant.io/redirect/oauth
  MAISON_CLIENT_METADATA_PRIVATE  1 lets client metadata documents live on private addresses (default off)

The door, for maison serve and maison demo (see README, Settings):
  MAISON_ALLOWED_HOSTS      host names maison answers to besides localhost, IP addresses,
                            MAISON_PUBLIC_URL's and this machine's name, e.g. maison.lan,nas.home
  MAISON_CLIENT_IP_HEADER   CF-Connecting-IP behind a Cloudflare tunnel (default: the connection's address)
  MAISON_TRUSTED_PROXIES    addresses that header is believed from (default loopback and private networks)
  MAISON_RATE_LIMIT         requests one client may make, such as 30/10s, or off (default 30/10s)
  MAISON_MAX_BATCH          most messages in one JSON-RPC batch (default 8)
  MAISON_MAX_IN_FLIGHT      most calls answered at once (default 64)
  MAISON_MAX_CONNECTIONS    most open connections (default 1024)
  MAISON_SHUTDOWN_GRACE     how long requests in flight may finish after SIGTERM (default 20s)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run dispatches a subcommand until ctx ends and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "jpegfix":
		return runJpegfix(rest, stdout, stderr)
	case "fit":
		return runFit(rest, stdout, stderr)
	}
	cfg, err := loadConfig(cmd, rest, getenv)
	if h := (errHelp{}); errors.As(err, &h) {
		fmt.Fprint(stdout, h.text)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "maison %s: %v\n", cmd, err)
		return 2
	}
	logger := newLogger(stderr, cfg.LogLevel)

	switch cmd {
	case "demo":
		err = runDemo(ctx, cfg, stdout, logger)
	case "serve":
		err = runServe(ctx, cfg, stdout, logger)
	case "stdio":
		err = runStdio(ctx, cfg, stdin, stdout, logger)
	case "token":
		err = runToken(cfg, stdout, stderr)
	case "check":
		var ok bool
		ok, err = runCheck(ctx, cfg, stdout, logger)
		if err == nil && !ok {
			return 1
		}
	default:
		fmt.Fprintf(stderr, "maison: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "maison %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// newLogger writes structured logs to stderr: stdout belongs to the stdio transport.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(quietSDK{slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})})
}
