package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"maison/door"
	"maison/homeassistant"
	"maison/internal/scope"
	"maison/tools"
	"maison/voice"
)

// config is every setting of every subcommand, from flags with MAISON_*
// environment fallbacks. A flag given on the command line wins.
type config struct {
	Listen string // MAISON_LISTEN; default 127.0.0.1:8765
	Token  string // MAISON_TOKEN; empty means generate one and show it once
	NoAuth bool   // --no-auth: drop the bearer gate; loopback listen addresses only
	Demo   bool   // --demo for stdio and check: use the built-in demo house
	// DemoAdmin uses the demo house's admin token, to show that maison refuses it.
	DemoAdmin bool
	// DemoPrefixed makes the demo house name its Assist tools as Home
	// Assistant 2026.9 and later do (intent__HassTurnOn).
	DemoPrefixed bool
	// ProbeFullAPI makes `maison check` ask whether /api/mcp refuses the user
	// (Home Assistant counts that 401 as a failed login).
	ProbeFullAPI bool
	HAURL        string // MAISON_HA_URL
	HAToken      string // MAISON_HA_TOKEN
	// ConfirmKey signs confirmations of sensitive actions (MAISON_CONFIRM_KEY);
	// empty means a random key, good only within this process.
	ConfirmKey string
	// Confirming chooses how a sensitive action gets its yes
	// (MAISON_CONFIRM: approval, code or both); empty means approval with a
	// public URL and a sign-in method, code otherwise.
	Confirming tools.Confirming
	Cameras    []string
	Lang       voice.Lang
	// AITask is the ai_task entity that describes camera frames for voice
	// (MAISON_AI_TASK): empty means the first that accepts pictures, "off" none.
	AITask   string
	LogLevel slog.Level
	// Safe are entity ids the operator lists as safe to act on without a
	// person's yes (MAISON_SAFE): scripts, scenes, automations, buttons.
	Safe []string
	// Passthrough chooses which Home Assistant tools maison has no wrapper
	// for are offered as they are (MAISON_PASSTHROUGH: all, off, or a list
	// of Home Assistant's tool names such as GetDateTime,HassSetPosition).
	Passthrough tools.Passthrough
	// ApprovalNotify names where the approval page's links are sent
	// (MAISON_APPROVAL_NOTIFY: notify.<name> and persistent_notification,
	// comma-separated); empty means nowhere, the link is in the answer.
	ApprovalNotify []string

	// The authorization server (see oauth.Config for each).
	PublicURL        string   // MAISON_PUBLIC_URL
	Secret           string   // MAISON_SECRET
	SecretPrevious   string   // MAISON_SECRET_PREVIOUS
	OperatorPassword string   // MAISON_OPERATOR_PASSWORD
	AccessTeam       string   // MAISON_CF_ACCESS_TEAM
	AccessAUD        string   // MAISON_CF_ACCESS_AUD
	AccessEmails     []string // MAISON_CF_ACCESS_EMAILS
	RedirectURIs     []string // MAISON_REDIRECT_URIS
	// ClientMetadataPrivate lets client metadata documents live on private
	// addresses (MAISON_CLIENT_METADATA_PRIVATE=1).
	ClientMetadataPrivate bool
	// ResultBudget bounds every tool result in characters (MAISON_RESULT_BUDGET).
	ResultBudget int
	// StateDir is where the file of used codes, approvals and lockouts
	// lives (MAISON_STATE_DIR); StateURL is the Redis or Valkey server
	// replicas share instead (MAISON_STATE_URL). Neither means memory.
	StateDir, StateURL string

	// The door's limits (see door.Config for each).
	// ClientIPHeader is the one header trusted for the client's address
	// (MAISON_CLIENT_IP_HEADER): empty means the connection's address,
	// CF-Connecting-IP behind a Cloudflare tunnel.
	ClientIPHeader string
	// TrustedProxies are the addresses a trusted header is believed from
	// (MAISON_TRUSTED_PROXIES); nil means loopback and private networks.
	TrustedProxies []netip.Prefix
	// AllowedHosts are host names maison answers to besides loopback ones,
	// IP addresses, the public URL's and this machine's
	// (MAISON_ALLOWED_HOSTS); see door.ParseHosts.
	AllowedHosts []string
	// RateLimit and RatePeriod bound the requests of one client
	// (MAISON_RATE_LIMIT, such as 300/1m, or off); zero means 300 a minute,
	// a negative RateLimit none.
	RateLimit  int
	RatePeriod time.Duration
	// MaxBatch is the most messages in one batch (MAISON_MAX_BATCH); zero means 8.
	MaxBatch int
	// MaxInFlight is the most calls answered at once (MAISON_MAX_IN_FLIGHT); zero means 64.
	MaxInFlight int
	// MaxConnections is the most open connections (MAISON_MAX_CONNECTIONS); zero means 1024.
	MaxConnections int
	// ShutdownGrace bounds how long requests in flight may finish after
	// SIGTERM (MAISON_SHUTDOWN_GRACE); zero means 20s.
	ShutdownGrace time.Duration

	// unexpanded names the settings that held a client's placeholder, such
	// as ${user_config.cameras}, read as empty.
	unexpanded []string

	// maison token
	TokenScopes []string
	TokenTTL    time.Duration
	TokenName   string

	raw rawFlags
}

// rawFlags holds the flags read as text, before loadConfig reads them into
// config's fields.
type rawFlags struct {
	cameras, lang, logLevel, passthrough, budget, safe  string
	hosts, proxies, rate, batch, inflight, conns, grace string
	naming, scopes, ttl                                 string
}

// loadConfig reads the settings of the subcommand cmd: the flags it takes
// (see command.settings) from args, the MAISON_* environment whatever the
// subcommand.
func loadConfig(cmd string, args []string, getenv func(string) string) (config, error) {
	c := config{Demo: cmd == "demo"}
	env := func(name, def string) string {
		v := strings.TrimSpace(getenv(name))
		if unexpanded.MatchString(v) {
			c.unexpanded = append(c.unexpanded, name)
			v = ""
		}
		if v != "" {
			return v
		}
		return def
	}
	specs, err := allFlags(commands())
	if err != nil {
		return c, err
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	for _, f := range specs {
		def := f.def
		if f.env != "" {
			def = env(f.env, def)
		}
		if f.on != nil {
			fs.BoolVar(f.on(&c), f.name, *f.on(&c), f.usage)
			continue
		}
		fs.StringVar(f.text(&c), f.name, def, f.usage)
	}
	own, _ := commandNamed(cmd)
	rest, perr := parseFlags(own, fs, args)
	if perr != nil {
		return c, perr
	}
	switch c.raw.naming {
	case "plain":
	case "prefixed":
		c.DemoPrefixed = true
	default:
		return c, fmt.Errorf("--demo-naming %q: use plain or prefixed", c.raw.naming)
	}
	if len(rest) > 0 {
		meant := ""
		if takes(cmd, strings.TrimLeft(rest[0], "-")) {
			meant = ", so perhaps --" + strings.TrimLeft(rest[0], "-") + " was meant"
		}
		return c, fmt.Errorf("%q is not a setting: this command takes settings alone, each written --name or --name value%s (see maison %s --help)", rest[0], meant, cmd)
	}
	// Secrets come from the environment only: a flag would show in ps.
	c.Token = env("MAISON_TOKEN", "")
	if c.Token != "" && len(c.Token) < minTokenLength {
		return c, fmt.Errorf("MAISON_TOKEN is too short (%d characters): anyone who can reach maison could guess a short token. Use at least %d random characters, for example the output of: openssl rand -base64 32", len(c.Token), minTokenLength)
	}
	c.ConfirmKey = env("MAISON_CONFIRM_KEY", "")
	if c.ConfirmKey != "" && len(c.ConfirmKey) < 32 {
		return c, errors.New("MAISON_CONFIRM_KEY is too short: use at least 32 random characters, the same on every replica (e.g. openssl rand -base64 32)")
	}
	switch m := tools.Confirming(strings.ToLower(env("MAISON_CONFIRM", ""))); m {
	case "", tools.ByApproval, tools.ByCode, tools.ByEither:
		c.Confirming = m
	default:
		return c, fmt.Errorf("MAISON_CONFIRM %q: give approval (a person approves on maison's page), code (the client asks, or the model carries a code) or both", string(m))
	}
	c.ApprovalNotify = list(env("MAISON_APPROVAL_NOTIFY", ""))
	for _, t := range c.ApprovalNotify {
		if !homeassistant.ValidNotifyTarget(t) {
			return c, fmt.Errorf("MAISON_APPROVAL_NOTIFY %.80q: name where approval links go, separated by commas: a notify action or entity of Home Assistant such as notify.mobile_app_your_phone (Developer tools › Actions lists them), or persistent_notification for Home Assistant's own notifications", t)
		}
	}
	c.HAToken = env("MAISON_HA_TOKEN", "")
	c.Secret = env("MAISON_SECRET", "")
	c.SecretPrevious = env("MAISON_SECRET_PREVIOUS", "")
	c.OperatorPassword = getenv("MAISON_OPERATOR_PASSWORD") // spaces may belong to a passphrase
	c.AccessTeam = env("MAISON_CF_ACCESS_TEAM", "")
	c.AccessAUD = env("MAISON_CF_ACCESS_AUD", "")
	c.AccessEmails = list(env("MAISON_CF_ACCESS_EMAILS", ""))
	c.RedirectURIs = list(env("MAISON_REDIRECT_URIS", ""))
	c.ClientMetadataPrivate = env("MAISON_CLIENT_METADATA_PRIVATE", "") == "1"
	if err := c.readState(env); err != nil {
		return c, err
	}
	if c.raw.budget != "" {
		n, err := strconv.Atoi(strings.ReplaceAll(c.raw.budget, "_", ""))
		if err != nil || n < 20_000 || n > 10_000_000 {
			return c, fmt.Errorf("MAISON_RESULT_BUDGET %q: give a number of characters between 20000 and 10000000 (default 140000)", c.raw.budget)
		}
		c.ResultBudget = n
	}
	allowed, err := door.ParseHosts(c.raw.hosts)
	if err != nil {
		return c, fmt.Errorf("MAISON_ALLOWED_HOSTS: %w", err)
	}
	c.AllowedHosts = allowed
	if err := c.readLimits(c.raw.proxies, c.raw.rate, c.raw.batch, c.raw.inflight, c.raw.conns, c.raw.grace); err != nil {
		return c, err
	}
	switch p := strings.TrimSpace(c.raw.passthrough); strings.ToLower(p) {
	case "all", "":
	case "off", "none":
		c.Passthrough.Off = true
	default:
		for _, name := range strings.Split(p, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if strings.ContainsAny(name, " ./") {
				return c, fmt.Errorf("MAISON_PASSTHROUGH %q: give all, off, or Home Assistant tool names separated by commas, such as GetDateTime,HassSetPosition", c.raw.passthrough)
			}
			c.Passthrough.Only = append(c.Passthrough.Only, name)
		}
	}
	for _, id := range strings.FieldsFunc(c.raw.safe, func(r rune) bool { return r == ',' || r == ' ' }) {
		if !entityID.MatchString(id) {
			return c, fmt.Errorf("MAISON_SAFE %q: give entity ids separated by commas, such as script.goodnight,scene.movie_night", c.raw.safe)
		}
		c.Safe = append(c.Safe, id)
	}
	if cmd == "token" {
		for _, sc := range strings.FieldsFunc(c.raw.scopes, func(r rune) bool { return r == ',' || r == ' ' }) {
			if sc == "both" { // as maison token --help offers it
				c.TokenScopes = append(c.TokenScopes, scope.All()...)
				continue
			}
			c.TokenScopes = append(c.TokenScopes, sc)
		}
		d, err := parseTTL(c.raw.ttl)
		if err != nil {
			return c, err
		}
		c.TokenTTL = d
	}
	// Entity ids hold no spaces: a list separated by spaces is read as one.
	c.Cameras = strings.FieldsFunc(c.raw.cameras, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	for _, id := range c.Cameras {
		if !cameraID.MatchString(id) {
			return c, fmt.Errorf("MAISON_CAMERAS %.80q is not a camera's entity id: give ids such as camera.front_door, separated by commas (Settings › Entities in Home Assistant shows them), or leave it empty for the cameras exposed to Assist", id)
		}
	}
	if c.Lang, err = voice.ParseLang(c.raw.lang); err != nil {
		return c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(c.raw.logLevel)); err != nil {
		return c, fmt.Errorf("MAISON_LOG_LEVEL %q: use debug, info, warn or error", c.raw.logLevel)
	}
	if c.AITask != "" && c.AITask != "off" && !strings.HasPrefix(c.AITask, "ai_task.") {
		return c, fmt.Errorf("MAISON_AI_TASK %q: give an ai_task entity id such as ai_task.openai, or off", c.AITask)
	}
	return c, c.validate(cmd)
}

// minTokenLength is the shortest MAISON_TOKEN accepted: the door never
// refuses a right token, so the token's length is what stops guessing.
const minTokenLength = 32

// readLimits reads the door's limits from their settings.
func (c *config) readLimits(proxies, rate, batch, inflight, conns, grace string) error {
	if c.ClientIPHeader != "" {
		if _, err := door.ClientAddress(c.ClientIPHeader, nil); err != nil {
			return fmt.Errorf("MAISON_CLIENT_IP_HEADER %q: only %s is supported (Cloudflare sets it itself; X-Forwarded-For's first hop is whatever the client wrote); leave it empty to use the connection's address", c.ClientIPHeader, door.TrustedHeader)
		}
	}
	if proxies != "" {
		p, err := door.ParsePrefixes(proxies)
		if err != nil {
			return fmt.Errorf("MAISON_TRUSTED_PROXIES: %w", err)
		}
		c.TrustedProxies = p
	}
	switch r := strings.ToLower(strings.TrimSpace(rate)); r {
	case "":
	case "off", "none":
		c.RateLimit = -1
	default:
		bad := fmt.Errorf("MAISON_RATE_LIMIT %q: give requests per period, such as 30/10s or 600/1m, or off", rate)
		n, per, ok := strings.Cut(r, "/")
		count, err := strconv.Atoi(n)
		if !ok || err != nil || count < 1 {
			return bad
		}
		if per != "" && (per[0] < '0' || per[0] > '9') {
			per = "1" + per
		}
		d, err := time.ParseDuration(per)
		if err != nil || d < time.Second || d > time.Hour {
			return bad
		}
		c.RateLimit, c.RatePeriod = count, d
	}
	for _, n := range []struct {
		name, v  string
		min, max int
		to       *int
	}{
		{"MAISON_MAX_BATCH", batch, 1, 100, &c.MaxBatch},
		{"MAISON_MAX_IN_FLIGHT", inflight, 1, 10_000, &c.MaxInFlight},
		{"MAISON_MAX_CONNECTIONS", conns, 8, 1_000_000, &c.MaxConnections},
	} {
		if n.v == "" {
			continue
		}
		v, err := strconv.Atoi(n.v)
		if err != nil || v < n.min || v > n.max {
			return fmt.Errorf("%s %q: give a whole number from %d to %d", n.name, n.v, n.min, n.max)
		}
		*n.to = v
	}
	if grace != "" {
		d, err := time.ParseDuration(grace)
		if err != nil || d < 0 || d > 10*time.Minute {
			return fmt.Errorf("MAISON_SHUTDOWN_GRACE %q: give a duration such as 20s, at most 10m", grace)
		}
		c.ShutdownGrace = d
	}
	return nil
}

func (c config) validate(cmd string) error {
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("MAISON_LISTEN %q: want host:port, e.g. 127.0.0.1:8765", c.Listen)
	}
	if c.NoAuth && !isLoopback(c.Listen) {
		return fmt.Errorf("--no-auth refused: %s is not a loopback address; listen on 127.0.0.1 or [::1]", c.Listen)
	}
	if c.NoAuth && (c.OperatorPassword != "" || c.AccessTeam != "") {
		return errors.New("--no-auth and the sign-in page (MAISON_OPERATOR_PASSWORD or MAISON_CF_ACCESS_TEAM) exclude each other: drop one")
	}
	if !c.Demo && (cmd == "serve" || cmd == "stdio" || cmd == "check") {
		if c.HAURL == "" {
			demo := "maison " + cmd + " --demo"
			if cmd == "serve" {
				demo = "maison demo"
			}
			return errors.New("MAISON_HA_URL is not set: give Home Assistant's URL, e.g. http://homeassistant.local:8123 (or try the demo house: " + demo + ")" + c.placeholderHint("MAISON_HA_URL"))
		}
		if c.HAToken == "" {
			return errors.New("MAISON_HA_TOKEN is not set: create a long-lived token for a non-admin, local-only user (see README, Connect a real Home Assistant)" + c.placeholderHint("MAISON_HA_TOKEN"))
		}
	}
	return nil
}

// unexpanded matches a client's placeholder left as it is, such as
// ${user_config.cameras}: Claude Desktop and other bundle clients may pass an
// optional field left empty that way.
var unexpanded = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_.]*\}$`)

// placeholderHint says, when the setting came as an unexpanded placeholder,
// where it is filled in.
func (c config) placeholderHint(name string) string {
	if !slices.Contains(c.unexpanded, name) {
		return ""
	}
	return ". The client passed it as an unexpanded placeholder: fill it in the extension's settings (Claude Desktop: Settings, Extensions, maison, Configure)"
}

// cameraID is a camera's entity id as Home Assistant writes them, and as
// the app's option schema asks for them.
var cameraID = regexp.MustCompile(`^camera\.[a-z0-9_]{1,200}$`)

// isLoopback reports whether a listen address can only be reached from this machine.
func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// list splits a comma-separated setting.
func list(v string) []string {
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// parseTTL reads a lifetime such as 90d, 12h or 30m.
// entityID is the shape of a Home Assistant entity id.
var entityID = regexp.MustCompile(`^[a-z0-9_]+\.[a-z0-9_]+$`)

func parseTTL(v string) (time.Duration, error) {
	bad := fmt.Errorf("--ttl %q: give a lifetime such as 12h, 30d or 90d, at most 400d", v)
	var d time.Duration
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil {
			return 0, bad
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return 0, bad
		}
	}
	if d < time.Minute || d > 400*24*time.Hour {
		return 0, bad
	}
	return d, nil
}
