package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"maison/internal/redact"
	"maison/voice"
)

// setting declares one setting: a flag, a MAISON_* variable, or a flag
// with the variable it falls back on; its default, its help (usage for the
// flag in its subcommand's help, doc for the variable in maison --help) and
// the field of config the flag fills (text for a value, on for a switch). A
// subcommand declares the settings it takes beside its run, shared ones as
// groups; everything else here is derived from those declarations. The
// variables alone, secrets among them, are read by loadConfig.
type setting struct {
	name  string // the flag; "" for a variable alone
	env   string // the MAISON_* variable read when the flag is not given; "" for a flag alone
	def   string // the default when neither is given
	usage string
	// doc says what the variable does in maison --help; "" writes its name
	// on the line of the setting before.
	doc  string
	text func(*config) *string
	on   func(*config) *bool
}

// command declares one subcommand: the flags it takes, what maison --help
// and its own help say of it, and how it runs.
type command struct {
	name     string
	args     string // what maison --help writes after its name, such as "[--no-auth]"
	short    string // what it does, in maison --help
	about    string // its own help, under "Usage: maison NAME [settings]"
	does     string // what it does, in the sentence that refuses another's flag
	settings []setting
	run      func(ctx context.Context, cfg config, s streams, logger *slog.Logger) error
	// self runs a subcommand that reads its own arguments (jpegfix, fit)
	// and returns its exit status; it has no flags here and no run.
	self func(args []string, stdout, stderr io.Writer) int
}

// streams are the standard input and outputs a subcommand runs with.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// errHelp carries a subcommand's help, asked for with -h or --help.
type errHelp struct{ text string }

func (e errHelp) Error() string { return e.text }

// commandNamed returns the subcommand of that name.
func commandNamed(name string) (command, bool) {
	i := slices.IndexFunc(commands(), func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return commands()[i], true
}

// takenBy names the subcommands that take each flag, from their declarations.
func takenBy() map[string][]string {
	owners := map[string][]string{}
	for _, c := range commands() {
		for _, f := range c.settings {
			if f.name != "" {
				owners[f.name] = append(owners[f.name], c.name)
			}
		}
	}
	return owners
}

// takes reports whether the subcommand cmd takes the flag name.
func takes(cmd, name string) bool {
	c, _ := commandNamed(cmd)
	return name != "" && slices.ContainsFunc(c.settings, func(f setting) bool { return f.name == name })
}

// allFlags is every flag one of cmds takes, each once. A flag declared
// twice with different variables, defaults or help is refused: shared flags
// are declared once, in a group.
func allFlags(cmds []command) ([]setting, error) {
	var all []setting
	for _, c := range cmds {
		for _, f := range c.settings {
			if f.name == "" {
				continue
			}
			i := slices.IndexFunc(all, func(g setting) bool { return g.name == f.name })
			switch {
			case i < 0:
				all = append(all, f)
			case all[i].env != f.env || all[i].def != f.def || all[i].usage != f.usage:
				return nil, fmt.Errorf("maison's subcommands disagree about --%s: declare it once, in a group they share", f.name)
			}
		}
	}
	return all, nil
}

// usage is maison --help: the subcommands and the MAISON_* variables,
// from their declarations.
func usage() string {
	var b strings.Builder
	b.WriteString("maison bridges Home Assistant and its cameras to MCP clients.\n\nUsage:\n")
	for _, c := range commands() {
		call := "  maison " + strings.TrimSpace(c.name+" "+c.args)
		entry(&b, call, c.short, 28, len(call)+2 > 28)
	}
	entry(&b, "  maison --version", "print the version and platform", 28, false)
	for _, h := range environment {
		fmt.Fprintf(&b, "\n%s\n", h.title)
		var names []string
		var doc string
		for i, s := range h.settings {
			if s.env == "" {
				continue
			}
			if names = append(names, s.env); len(names) == 1 {
				doc = s.doc
			}
			if i+1 < len(h.settings) && h.settings[i+1].env != "" && h.settings[i+1].doc == "" {
				continue // the next is named on this line
			}
			entry(&b, "  "+strings.Join(names, ", "), doc, h.column, len(names) > 1)
			names = nil
		}
	}
	return b.String()
}

// entry writes one entry of maison --help: left, then text from column
// col, on a line of its own when ownLine, at least two spaces after left
// otherwise; the lines text continues on are indented to col.
func entry(b *strings.Builder, left, text string, col int, ownLine bool) {
	b.WriteString(left)
	if ownLine {
		b.WriteString("\n" + strings.Repeat(" ", col))
	} else {
		b.WriteString(strings.Repeat(" ", max(2, col-len(left))))
	}
	b.WriteString(strings.ReplaceAll(text, "\n", "\n"+strings.Repeat(" ", col)) + "\n")
}

// environment is the part of maison --help about the MAISON_* variables:
// each heading with the groups of settings under it, and the column their
// words start at.
var environment = []struct {
	title    string
	column   int
	settings []setting
}{
	{"Settings (flags win over the environment):", 20, slices.Concat(listenSettings, haSettings, cameraSettings, toolSettings, logSettings)},
	{"OAuth, for the Claude app and other connectors (see README):", 28, oauthSettings},
	{"What must be answered once, for maison serve and maison demo (see README, Replicas):", 28, stateSettings},
	{"The door, for maison serve and maison demo (see README, Settings):", 28, doorSettings},
}

// usageColumn is where maison --help writes what a subcommand does.
const usageColumn = 28

// help is a subcommand's own help: its summary, then the flags it takes.
func help(c command, fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: maison %s [settings]\n\n%s\n\nSettings (flags win over the environment; secrets come from the environment only, see maison --help):\n", c.name, c.about)
	fs.VisitAll(func(f *flag.Flag) { // a default read from MAISON_HA_URL may hold a password
		if strings.Contains(f.DefValue, "://") {
			f.DefValue = redact.URL(f.DefValue)
		}
	})
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return b.String()
}

// parseFlags parses args with the flags of cmd alone, out of all those
// registered on all, and returns the arguments left after them.
func parseFlags(cmd command, all *flag.FlagSet, args []string) ([]string, error) {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, own := range cmd.settings {
		if own.name == "" {
			continue
		}
		f := all.Lookup(own.name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	err := fs.Parse(args)
	if err == nil {
		return fs.Args(), nil
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil, errHelp{help(cmd, fs)}
	}
	name, ok := undefinedFlag(err)
	if !ok {
		return nil, fmt.Errorf("%w (see maison %s --help)", err, cmd.name)
	}
	return nil, notASetting(cmd.name, name)
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
	owners := takenBy()[name]
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
	c, _ := commandNamed(cmd)
	return fmt.Errorf("--%s is a setting of %s, not of maison %s, which %s (see maison %s --help)", name, voice.English.List(names), cmd, c.does, cmd)
}

// flagName returns the name of a flag argument such as --token=VALUE or
// -strip, without its dashes or value.
func flagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name
}
