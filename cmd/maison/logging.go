package main

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"

	"maison/stdio"
)

// sdkPackage prefixes the functions of the MCP SDK.
const sdkPackage = "github.com/modelcontextprotocol/go-sdk/"

// quietSDK lowers the MCP SDK's info and warning records to debug: it
// opens and closes a session for every stateless request and warns of a
// failed call the door already logged; maison's one line per request says
// it all. So are its error records of a run cancelled, which is maison
// stopping on request, and of a stdio client gone, which maison says.
type quietSDK struct{ slog.Handler }

func (h quietSDK) Handle(ctx context.Context, r slog.Record) error {
	lower := r.Level < slog.LevelError && r.Level >= slog.LevelInfo || r.Message == "server run cancelled" || clientGone(r)
	if lower && fromSDK(r.PC) {
		if !h.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

// clientGone reports whether a record carries the end of a stdio session
// whose client closed standard output, which runStdio says in its own line.
func clientGone(r slog.Record) bool {
	gone := false
	r.Attrs(func(a slog.Attr) bool {
		err, ok := a.Value.Any().(error)
		gone = ok && errors.Is(err, stdio.ErrClientGone)
		return !gone
	})
	return gone
}

func (h quietSDK) WithAttrs(attrs []slog.Attr) slog.Handler {
	return quietSDK{h.Handler.WithAttrs(attrs)}
}

func (h quietSDK) WithGroup(name string) slog.Handler { return quietSDK{h.Handler.WithGroup(name)} }

// fromSDK reports whether the record was written by the MCP SDK.
func fromSDK(pc uintptr) bool {
	if pc == 0 {
		return false
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	return strings.HasPrefix(f.Function, sdkPackage)
}

// logSettings is how much maison logs, for the subcommands that log.
var logSettings = []setting{
	{name: "log-level", env: "MAISON_LOG_LEVEL", def: "info",
		doc:   "debug, info, warn or error (default info)",
		usage: "debug, info, warn or error (MAISON_LOG_LEVEL)",
		text:  func(c *config) *string { return &c.raw.logLevel }},
}
