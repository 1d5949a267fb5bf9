package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"maison/internal/redact"
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
	"allowed-hosts":    {"serve", "demo"},
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
	"serve":   "serves the Home Assistant at MAISON_HA_URL; maison demo serves the demo house",
	"demo":    "always serves its own demo house",
	"stdio":   "speaks MCP over standard input and output and listens on no port",
	"check":   "only checks Home Assistant and its cameras and listens on no port",
	"token":   "only signs a token",
	"jpegfix": "only repairs a JPEG file and takes no setting but -strip",
	"fit":     "takes two files, IN and OUT, and no settings (a file whose name starts with a dash is written ./-name)",
}

// summary is the first line of each subcommand's own help.
var summary = map[string]string{
	"serve": "Usage: maison serve [settings]\n\nServes the Home Assistant at MAISON_HA_URL to MCP clients over HTTP (POST /mcp).",
	"demo":  "Usage: maison demo [settings]\n\nServes a demo house, with its own Home Assistant, to MCP clients over HTTP (POST /mcp).",
	"stdio": "Usage: maison stdio [settings]\n\nSpeaks MCP over standard input and output, for a client that starts maison itself (Claude Desktop, Claude Code).",
	"check": "Usage: maison check [settings]\n\nChecks Home Assistant, the user's privileges and every camera, and says how to fix what does not work.",
	"token": "Usage: maison token [settings]\n\nPrints a long-lived access token signed with MAISON_SECRET.",
}

// errHelp carries a subcommand's help, asked for with -h or --help.
type errHelp struct{ text string }

func (e errHelp) Error() string { return e.text }

// parseFlags parses args with the flags of cmd alone, out of all those
// registered on all, and returns the arguments left after them.
func parseFlags(cmd string, all *flag.FlagSet, args []string) ([]string, error) {
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
		return nil, fmt.Errorf("maison's own flags and takenBy disagree about --%s", strings.Join(untaken, ", --"))
	}
	err := fs.Parse(args)
	if err == nil {
		return fs.Args(), nil
	}
	if errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		b.WriteString(summary[cmd])
		b.WriteString("\n\nSettings (flags win over the environment; secrets come from the environment only, see maison --help):\n")
		fs.VisitAll(func(f *flag.Flag) { // a default read from MAISON_HA_URL may hold a password
			if strings.Contains(f.DefValue, "://") {
				f.DefValue = redact.URL(f.DefValue)
			}
		})
		fs.SetOutput(&b)
		fs.PrintDefaults()
		return nil, errHelp{b.String()}
	}
	name, ok := undefinedFlag(err)
	if !ok {
		return nil, fmt.Errorf("%w (see maison %s --help)", err, cmd)
	}
	return nil, notASetting(cmd, name)
}

// secretEnv names the secret settings, read from the environment only, by
// the flags a person may try for them.
var secretEnv = map[string]string{
	"token":             "MAISON_TOKEN",
	"ha-token":          "MAISON_HA_TOKEN",
	"secret":            "MAISON_SECRET",
	"secret-previous":   "MAISON_SECRET_PREVIOUS",
	"operator-password": "MAISON_OPERATOR_PASSWORD",
	"password":          "MAISON_OPERATOR_PASSWORD",
	"confirm-key":       "MAISON_CONFIRM_KEY",
}

// undefinedFlag returns the name of the flag the flag package refused as
// not defined, from its error.
func undefinedFlag(err error) (string, bool) {
	return strings.CutPrefix(err.Error(), "flag provided but not defined: -")
}

// secretName reduces a flag name tried for a secret to secretEnv's form:
// --MAISON_HA_TOKEN and --ha_token are --ha-token.
func secretName(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "_", "-")
	return strings.TrimPrefix(name, "maison-")
}

// notASetting refuses the flag name given to cmd in one sentence, naming
// the subcommands that take it. It names the flag alone and never its
// value, which may be a secret.
func notASetting(cmd, name string) error {
	owners := takenBy[name]
	if env, ok := secretEnv[secretName(name)]; ok && len(owners) == 0 {
		return fmt.Errorf("--%s is not a flag of maison: %s is read from the environment only, since a flag would show in the process list to every user of the machine (see maison --help)", name, env)
	}
	if len(owners) == 0 {
		return fmt.Errorf("--%s is not a setting of maison %s (see maison %s --help)", name, cmd, cmd)
	}
	names := make([]string, len(owners))
	for i, o := range owners {
		names[i] = "maison " + o
	}
	return fmt.Errorf("--%s is a setting of %s, not of maison %s, which %s (see maison %s --help)", name, voice.English.List(names), cmd, does[cmd], cmd)
}

// flagName returns the name of a flag argument such as --token=VALUE or
// -strip, without its dashes or value.
func flagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name
}
