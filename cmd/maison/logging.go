package main

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
)

// sdkPackage prefixes the functions of the MCP SDK.
const sdkPackage = "github.com/modelcontextprotocol/go-sdk/"

// quietSDK lowers the MCP SDK's info and warning records to debug: it
// opens and closes a session for every stateless request and warns of a
// failed call the door already logged; maison's one line per request says
// it all. So is its error record of a run cancelled, which is maison
// stopping on request.
type quietSDK struct{ slog.Handler }

func (h quietSDK) Handle(ctx context.Context, r slog.Record) error {
	lower := r.Level < slog.LevelError && r.Level >= slog.LevelInfo || r.Message == "server run cancelled"
	if lower && fromSDK(r.PC) {
		if !h.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
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
