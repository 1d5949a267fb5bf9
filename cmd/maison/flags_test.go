package main

import (
	"strings"
	"testing"
)

// Each subcommand takes its own flags and refuses another's with a
// sentence naming the subcommands that take it.
func TestEachSubcommandTakesItsOwnFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" when the flags are taken
	}{
		{[]string{"check", "--listen", ":8765"}, "--listen is a setting of maison serve and maison demo, not of maison check, which only checks Home Assistant and its cameras and listens on no port"},
		{[]string{"serve", "--demo"}, "--demo is a setting of maison stdio and maison check, not of maison serve, which serves the Home Assistant at MAISON_HA_URL; maison demo serves the demo house"},
		{[]string{"stdio", "--no-auth"}, "--no-auth is a setting of maison serve and maison demo, not of maison stdio"},
		{[]string{"token", "--lang", "fr"}, "--lang is a setting of maison serve, maison demo and maison stdio, not of maison token"},
		{[]string{"demo", "--probe-full-api"}, "--probe-full-api is a setting of maison check, not of maison demo"},
		{[]string{"check", "--frobnicate"}, "--frobnicate is not a setting of maison check"},
		{[]string{"demo", "--demo-naming", "prefixed", "--listen", "127.0.0.1:0"}, ""},
		{[]string{"check", "--demo", "--probe-full-api", "--cameras", "camera.garage"}, ""},
		{[]string{"stdio", "--demo", "--lang", "fr", "--result-budget", "50000"}, ""},
		{[]string{"token", "--scope", "house.read", "--ttl", "30d", "--name", "tablet"}, ""},
	} {
		_, err := loadConfig(c.args[0], c.args[1:], func(string) string { return "" })
		switch {
		case c.want == "" && err != nil:
			t.Errorf("maison %s: %v", strings.Join(c.args, " "), err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("maison %s: %v\nwant %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

// Every flag registered is taken by some subcommand, and every flag named
// in takenBy is registered.
func TestEveryFlagHasItsSubcommands(t *testing.T) {
	for _, cmd := range []string{"serve", "demo", "stdio", "check", "token"} {
		if _, err := loadConfig(cmd, nil, func(string) string { return "" }); err != nil && strings.Contains(err.Error(), "disagree") {
			t.Errorf("maison %s: %v", cmd, err)
		}
	}
}
