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
//	maison fit       pass a picture through the snapshot path: what a client receives
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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// commands are maison's subcommands, in the order maison --help lists
// them; each declares its flags beside its run.
func commands() []command {
	return []command{serveCmd(), demoCmd(), stdioCmd(), checkCmd(), jpegfixCmd(), fitCmd(), tokenCmd()}
}

// run dispatches a subcommand until ctx ends and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage())
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	cmd, ok := commandNamed(args[0])
	if !ok {
		fmt.Fprintf(stderr, "maison: unknown command %q\n\n%s", args[0], usage())
		return 2
	}
	if cmd.self != nil {
		return cmd.self(args[1:], stdout, stderr)
	}
	cfg, err := loadConfig(cmd.name, args[1:], getenv)
	if h := (errHelp{}); errors.As(err, &h) {
		fmt.Fprint(stdout, h.text)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "maison %s: %v\n", cmd.name, err)
		return 2
	}
	err = cmd.run(ctx, cfg, streams{stdin, stdout, stderr}, newLogger(stderr, cfg.LogLevel))
	if errors.Is(err, errNotAllWorks) {
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "maison %s: %v\n", cmd.name, err)
		return 1
	}
	return 0
}

// newLogger writes structured logs to stderr: stdout belongs to the stdio transport.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(quietSDK{slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})})
}
