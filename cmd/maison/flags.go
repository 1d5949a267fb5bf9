package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"maison/voice"
)

// takenBy names the subcommands that take each flag. Every flag is
// registered once in loadConfig; a subcommand parses only its own, and
// refuses another's with a sentence naming the subcommands that take it.
// The MAISON_* environment is read whatever the subcommand.
var takenBy = map[string][]string{
	"listen":           {"serve", "demo"},
	"no-auth":          {"serve", "demo"},
	"public-url":       {"serve", "demo", "token"},
	"client-ip-header": {"serve", "demo"},
	"trusted-proxies":  {"serve", "demo"},
	"rate-limit":       {"serve", "demo"},
	"max-batch":        {"serve", "demo"},
	"max-in-flight":    {"serve", "demo"},
	"max-connections":  {"serve", "demo"},
	"shutdown-grace":   {"serve", "demo"},
	"ha-url":           {"serve", "stdio", "check"},
	"cameras":          {"serve", "demo", "stdio", "check"},
	"ai-task":          {"serve", "demo", "stdio", "check"},
	"log-level":        {"serve", "demo", "stdio", "check"},
	"lang":             {"serve", "demo", "stdio"},
	"passthrough":      {"serve", "demo", "stdio"},
	"result-budget":    {"serve", "demo", "stdio"},
	"demo":             {"stdio", "check"},
	"demo-admin":       {"demo", "stdio", "check"},
	"demo-naming":      {"demo", "stdio", "check"},
	"probe-full-api":   {"check"},
	"scope":            {"token"},
	"ttl":              {"token"},
	"name":             {"token"},
}

// does says what a subcommand does, for the sentence that refuses another's flag.
var does = map[string]string{
	"serve": "serves the Home Assistant at MAISON_HA_URL; maison demo serves the demo house",
	"demo":  "always serves its own demo house",
	"stdio": "speaks MCP over standard input and output and listens on no port",
	"check": "only checks Home Assistant and its cameras and listens on no port",
	"token": "only signs a token",
}

// parseFlags parses args with the flags of cmd alone, out of all those
// registered on all.
func parseFlags(cmd string, all *flag.FlagSet, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var untaken []string
	all.VisitAll(func(f *flag.Flag) {
		if len(takenBy[f.Name]) == 0 {
			untaken = append(untaken, f.Name)
		}
		if slices.Contains(takenBy[f.Name], cmd) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	for name := range takenBy {
		if all.Lookup(name) == nil {
			untaken = append(untaken, name)
		}
	}
	if len(untaken) > 0 { // a flag added without its subcommands, or one removed: caught by any test
		return fmt.Errorf("maison's own flags and takenBy disagree about --%s", strings.Join(untaken, ", --"))
	}
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		if err != nil {
			return fmt.Errorf("%w (see maison --help)", err)
		}
		return nil
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return fmt.Errorf("%w (see maison --help)", err)
	}
	owners := takenBy[name]
	if len(owners) == 0 {
		return fmt.Errorf("--%s is not a setting of maison %s (see maison --help)", name, cmd)
	}
	names := make([]string, len(owners))
	for i, o := range owners {
		names[i] = "maison " + o
	}
	return fmt.Errorf("--%s is a setting of %s, not of maison %s, which %s (see maison --help)", name, voice.English.List(names), cmd, does[cmd])
}
