package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"maison/bridge"
	"maison/demo"
	"maison/homeassistant"
)

// version is maison's version, set at build time with -ldflags "-X main.version=…".
var version = "dev"

// bridgeConfig is what the bridge is built from: which Home Assistant is
// decided here, once, from --demo (implied by maison demo).
func (c config) bridgeConfig(logger *slog.Logger) bridge.Config {
	bc := bridge.Config{
		URL: c.HAURL, Token: c.HAToken, Cameras: c.Cameras, Lang: c.Lang, AITask: c.AITask,
		Passthrough: c.Passthrough, ConfirmKey: c.ConfirmKey, ResultBudget: c.ResultBudget,
		Version: currentVersion(), ReachLater: true, Logger: logger,
	}
	if c.Demo {
		naming := demo.NamingPlain
		if c.DemoPrefixed {
			naming = demo.NamingPrefixed
		}
		bc.Demo = &demo.Options{ToolNaming: naming, LiveFrames: true}
		bc.DemoAdmin = c.DemoAdmin
	}
	return bc
}

// explain adds Home Assistant's advice to an error, for the operator.
func explain(err error) error {
	var he *homeassistant.Error
	if errors.As(err, &he) {
		return fmt.Errorf("%w\n%s", err, he.Advice())
	}
	return err
}

// untilRefused runs serve until ctx ends or Home Assistant, first reached
// after maison started, refuses it for good (an administrator's token, a
// refused token): then serving stops and the error explains.
func untilRefused(ctx context.Context, b *bridge.Bridge, serve func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-b.Failed():
			cancel()
		case <-ctx.Done():
		}
	}()
	err := serve(ctx)
	if refused := b.Err(); refused != nil {
		return explain(refused)
	}
	return err
}
