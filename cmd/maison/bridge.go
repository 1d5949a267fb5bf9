package main

import (
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
