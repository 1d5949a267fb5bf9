package main

import (
	"slices"
	"strings"
	"testing"
)

// Each subcommand takes its own flags and refuses another's with a
// sentence naming the subcommands that take it.
func TestEachSubcommandTakesItsOwnFlags(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	for _, cmd := range []string{"serve", "demo", "stdio", "check", "token"} {
		if _, err := loadConfig(cmd, nil, func(string) string { return "" }); err != nil && strings.Contains(err.Error(), "disagree") {
			t.Errorf("maison %s: %v", cmd, err)
		}
	}
}

// Every subcommand answers -h and --help with its own help on stdout and
// exit 0, listing its own settings and no other's; a default read from the
// environment is shown without the password a URL may hold.
func TestEverySubcommandHasItsOwnHelp(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		if k == "MAISON_HA_URL" {
			return "http://maison:hunter2@homeassistant.local:8123"
		}
		return ""
	}
	for _, cmd := range []string{"serve", "demo", "stdio", "check", "token", "jpegfix", "fit"} {
		for _, h := range []string{"-h", "--help"} {
			var stdout, stderr strings.Builder
			code := run(t.Context(), []string{cmd, h}, strings.NewReader(""), &stdout, &stderr, env)
			out := stdout.String()
			if code != 0 || stderr.Len() > 0 || !strings.Contains(out, "Usage: maison "+cmd) {
				t.Errorf("maison %s %s: exit %d, stdout %q, stderr %q", cmd, h, code, out, stderr.String())
			}
			if strings.Contains(out, "hunter2") {
				t.Errorf("maison %s %s shows the password in MAISON_HA_URL: %s", cmd, h, out)
			}
			for name, owners := range takenBy() {
				if got, want := strings.Contains(out, "  -"+name+" ") || strings.Contains(out, "  -"+name+"\n"), slices.Contains(owners, cmd); got != want && strings.Contains(out, "Settings") {
					t.Errorf("maison %s %s: lists --%s %v, want %v", cmd, h, name, got, want)
				}
			}
		}
	}
}

// The commands that parse their own arguments (jpegfix, fit) refuse
// another subcommand's flag with the same sentence as the others, and a
// flag tried for a secret says the secret comes from the environment; a
// flag's value is never shown.
func TestEveryCommandRefusesFlagsInOneSentence(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"jpegfix", "--listen=:1", "in.jpg"}, "maison jpegfix: --listen is a setting of maison serve and maison demo, not of maison jpegfix, which only repairs a JPEG file"},
		{[]string{"fit", "--lang", "fr", "in.jpg", "out.jpg"}, "maison fit: --lang is a setting of maison serve, maison demo and maison stdio, not of maison fit"},
		{[]string{"serve", "--ha-token=SECRETVALUE"}, "maison serve: --ha-token is not a flag of maison: MAISON_HA_TOKEN is read from the environment only"},
		{[]string{"jpegfix", "-secret=SECRETVALUE", "in.jpg"}, "maison jpegfix: --secret is not a flag of maison: MAISON_SECRET is read from the environment only"},
		{[]string{"stdio", "--operator-password", "SECRETVALUE"}, "MAISON_OPERATOR_PASSWORD is read from the environment only"},
		{[]string{"serve", "--MAISON_TOKEN=SECRETVALUE"}, "MAISON_TOKEN is read from the environment only"},
		{[]string{"serve", "--password", "SECRETVALUE"}, "MAISON_OPERATOR_PASSWORD is read from the environment only"},
		{[]string{"stdio", "demo"}, `maison stdio: "demo" is not a setting: this command takes settings alone, each written --name or --name value, so perhaps --demo was meant`},
		{[]string{"check", "--demo", "stray"}, `maison check: "stray" is not a setting`},
		{[]string{"serve"}, "MAISON_HA_URL is not set: give Home Assistant's URL, e.g. http://homeassistant.local:8123 (or try the demo house: maison demo)"},
	} {
		var stdout, stderr strings.Builder
		code := run(t.Context(), c.args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
		if code != 2 || !strings.Contains(stderr.String(), c.want) || strings.Contains(stderr.String()+stdout.String(), "SECRETVALUE") {
			t.Errorf("maison %s: exit %d, said %q\nwant exit 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
}

// maison --help, asked for, goes to stdout with exit 0, so that it can be
// paged; maison alone prints it to stderr with exit 2.
func TestTopLevelHelp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args     []string
		code     int
		onStdout bool
	}{
		{nil, 2, false},
		{[]string{"--help"}, 0, true},
		{[]string{"-h"}, 0, true},
		{[]string{"help"}, 0, true},
	} {
		var stdout, stderr strings.Builder
		code := run(t.Context(), c.args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
		out := stderr.String()
		if c.onStdout {
			out = stdout.String()
		}
		if code != c.code || !strings.Contains(out, "Usage:") {
			t.Errorf("maison %v: exit %d, stdout %d bytes, stderr %d bytes", c.args, code, stdout.Len(), stderr.Len())
		}
	}
}

// maison --help's line for each subcommand names only flags it takes.
func TestUsageLinesNameOwnFlags(t *testing.T) {
	for _, c := range commands() {
		for _, word := range strings.Fields(c.args) {
			name, ok := strings.CutPrefix(strings.Trim(word, "[]"), "--")
			if ok && !takes(c.name, name) {
				t.Errorf("maison --help shows maison %s %s, but maison %s does not take --%s", c.name, c.args, c.name, name)
			}
		}
		if c.run == nil && c.self == nil || c.short == "" || c.does == "" {
			t.Errorf("maison %s lacks a run, its line in maison --help or its does", c.name)
		}
	}
}

// A flag two subcommands declare apart, with different help, is refused:
// a shared flag is declared once, in a group both include.
func TestFlagDeclaredTwiceDifferentlyIsRefused(t *testing.T) {
	lang := func(usage string) setting {
		return setting{name: "lang", env: "MAISON_LANG", def: "en", usage: usage, text: func(c *config) *string { return &c.raw.lang }}
	}
	same := []command{{name: "a", settings: []setting{lang("en or fr")}}, {name: "b", settings: []setting{lang("en or fr")}}}
	if all, err := allFlags(same); err != nil || len(all) != 1 {
		t.Errorf("one flag shared: %d flags, %v", len(all), err)
	}
	apart := []command{{name: "a", settings: []setting{lang("en or fr")}}, {name: "b", settings: []setting{lang("language")}}}
	if _, err := allFlags(apart); err == nil || !strings.Contains(err.Error(), "disagree about --lang") {
		t.Errorf("one flag declared twice apart: %v", err)
	}
}
