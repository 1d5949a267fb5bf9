package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"maison/internal/redact"
	"maison/state"
)

// openState opens the store of answers the settings name (MAISON_STATE_DIR
// or MAISON_STATE_URL; memory without either) and says in the log which.
func openState(ctx context.Context, cfg config, logger *slog.Logger) (state.Store, error) {
	st, err := state.Open(ctx, state.Config{Dir: cfg.StateDir, URL: cfg.StateURL, Logger: logger.With("component", "state")})
	if err != nil {
		return nil, err
	}
	logger.Info("answers kept", "component", "state", "store", state.Describe(st))
	if cfg.ConfirmKey != "" && !state.Lasts(st) {
		logger.Warn("MAISON_CONFIRM_KEY is set, but which confirmations and approval links were used is kept in memory: they all end when maison stops, or one answered before a restart would count again after it; set MAISON_STATE_DIR (one maison) or MAISON_STATE_URL (replicas) to keep them across restarts", "component", "state")
	}
	return st, nil
}

// checkStateURL vets MAISON_STATE_URL at start: a Redis or Valkey URL.
func checkStateURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("MAISON_STATE_URL %q: give the Redis or Valkey server replicas share, such as redis://valkey:6379 (rediss:// over TLS, redis://:password@host:6379/0 with a password), or leave it empty", redact.URL(raw))
	}
	return nil
}

// stateSettings say where maison keeps what must be answered once (serve,
// demo). The URL comes from the environment only: it may hold a password.
var stateSettings = []setting{
	{name: "state-dir", env: "MAISON_STATE_DIR",
		doc:   "directory of the file that keeps used codes, approvals and lockouts across restarts\n(default none: memory, lost when maison stops; /data in the Home Assistant app)",
		usage: "directory of the file keeping used codes, approvals and lockouts across restarts (MAISON_STATE_DIR; default: memory)",
		text:  func(c *config) *string { return &c.StateDir }},
	{env: "MAISON_STATE_URL", doc: "or a Redis/Valkey server replicas share, e.g. redis://valkey:6379 (default none)"},
}

// readState reads the state settings into c.
func (c *config) readState(env func(name, def string) string) error {
	c.StateURL = env("MAISON_STATE_URL", "")
	c.StateDir = strings.TrimSpace(c.StateDir)
	if c.StateURL != "" {
		if err := checkStateURL(c.StateURL); err != nil {
			return err
		}
	}
	if c.StateDir != "" && c.StateURL != "" {
		return fmt.Errorf("MAISON_STATE_DIR and MAISON_STATE_URL are both set: give one, a directory for one maison or a Redis/Valkey URL that replicas share")
	}
	return nil
}
