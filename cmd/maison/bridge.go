package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"maison/bridge"
	"maison/demo"
	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// version is maison's version, set at build time with -ldflags "-X main.version=…".
var version = "dev"

// bridgeConfig is what the bridge is built from: which Home Assistant is
// decided here, once, from --demo (implied by maison demo).
func (c config) bridgeConfig(logger *slog.Logger) bridge.Config {
	bc := bridge.Config{
		URL: c.HAURL, Token: c.HAToken, Cameras: c.Cameras, Lang: c.Lang, AITask: c.AITask,
		Passthrough: c.Passthrough, Safe: c.Safe, ConfirmKey: c.ConfirmKey, Confirming: c.Confirming, ResultBudget: c.ResultBudget,
		Version: currentVersion(), ReachLater: true, Logger: logger, PictureMemory: pictureMemory(),
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

// servingBridgeConfig is bridgeConfig for maison serving HTTP (serve,
// demo), where the approval page may be on.
func (c config) servingBridgeConfig(logger *slog.Logger) (bridge.Config, error) {
	bc := c.bridgeConfig(logger)
	var err error
	bc.ApprovalOrigin, err = c.approvalOrigin(true)
	bc.ApprovalNotify = c.ApprovalNotify
	return bc, err
}

// explain adds Home Assistant's advice to an error, for the operator, in
// English as maison's command line and log are.
func explain(err error) error {
	var he *homeassistant.Error
	if errors.As(err, &he) {
		return fmt.Errorf("%w\n%s", err, words.Advice(voice.English, he.Kind, he.Case(), false))
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

// haSettings name the Home Assistant to bridge (serve, stdio, check; its
// token comes from MAISON_HA_TOKEN alone).
var haSettings = []setting{
	{name: "ha-url", env: "MAISON_HA_URL",
		doc:   "Home Assistant's URL, e.g. http://homeassistant.local:8123",
		usage: "Home Assistant URL (MAISON_HA_URL)",
		text:  func(c *config) *string { return &c.HAURL }},
	{env: "MAISON_HA_TOKEN", doc: "long-lived token of a non-admin, local-only Home Assistant user"},
}

// cameraSettings choose the cameras offered and who describes their frames,
// for every subcommand that starts a bridge.
var cameraSettings = []setting{
	{name: "cameras", env: "MAISON_CAMERAS",
		doc:   "comma-separated camera entity ids to offer (default: those exposed to Assist)",
		usage: "camera entity ids to offer (MAISON_CAMERAS)",
		text:  func(c *config) *string { return &c.raw.cameras }},
	{name: "ai-task", env: "MAISON_AI_TASK",
		doc:   "ai_task entity that describes frames for voice, or off (default: the first that accepts pictures)",
		usage: "ai_task entity describing frames for voice, or off (MAISON_AI_TASK)",
		text:  func(c *config) *string { return &c.AITask }},
}

// toolSettings shape what the tools answer, for the subcommands that serve
// them (serve, demo, stdio).
var toolSettings = []setting{
	{name: "lang", env: "MAISON_LANG", def: "en",
		doc:   "en, fr or de (default en)",
		usage: "language of answers, en, fr or de (MAISON_LANG)",
		text:  func(c *config) *string { return &c.raw.lang }},
	{name: "passthrough", env: "MAISON_PASSTHROUGH", def: "all",
		doc:   "Home Assistant tools maison has no wrapper for, offered as ha_…: all, off,\nor a list such as GetDateTime,HassSetPosition (default all)",
		usage: "Home Assistant tools without a wrapper to offer: all, off, or a list such as GetDateTime,HassSetPosition (MAISON_PASSTHROUGH)",
		text:  func(c *config) *string { return &c.raw.passthrough }},
	{name: "safe", env: "MAISON_SAFE",
		doc:   "entity ids of scripts, scenes, automations or buttons to run without asking a person,\nsuch as script.goodnight (default none: their effects cannot be read, so a person approves)",
		usage: "entity ids safe to act on without a person's yes, such as script.goodnight (MAISON_SAFE)",
		text:  func(c *config) *string { return &c.raw.safe }},
	{env: "MAISON_CONFIRM_KEY", doc: "key signing confirmations, the same on every replica (default: random per process)"},
	{env: "MAISON_CONFIRM", doc: "how unlocking and opening get their yes: approval (a person on maison's page),\ncode or both (default approval with a public URL and a sign-in method, else code)"},
	{env: "MAISON_APPROVAL_NOTIFY", doc: "where approval links are sent through Home Assistant: notify actions or entities\n(notify.mobile_app_your_phone) and persistent_notification, comma-separated (default nowhere)"},
	{name: "result-budget", env: "MAISON_RESULT_BUDGET",
		doc:   "most characters of one tool result, pictures included (default 140000)",
		usage: "most characters of one tool result (MAISON_RESULT_BUDGET)",
		text:  func(c *config) *string { return &c.raw.budget }},
}

// demoSetting swaps the Home Assistant at MAISON_HA_URL for the demo house
// (stdio, check; maison demo always serves it).
var demoSetting = []setting{
	{name: "demo", usage: "use the built-in demo house", on: func(c *config) *bool { return &c.Demo }},
}

// demoHouseSettings shape the demo house, for the subcommands that may start it.
var demoHouseSettings = []setting{
	{name: "demo-admin",
		usage: "use the demo house's admin token (maison refuses it)",
		on:    func(c *config) *bool { return &c.DemoAdmin }},
	{name: "demo-naming", def: "plain",
		usage: "the demo house's Assist tool names: plain (Home Assistant up to 2026.8) or prefixed (2026.9 and later)",
		text:  func(c *config) *string { return &c.raw.naming }},
}
