package main

// The Home Assistant app (homeassistant-app/): its config.yaml against the
// option schema rules of Home Assistant's app documentation, every option
// against the settings maison reads, its translations and Dockerfile, and its
// run script started as the Supervisor starts it.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"maison/demo"
	"maison/demotest"
	"maison/internal/testkit"
)

const appDir = "../../homeassistant-app"

// knownSettings is every MAISON_* setting maison reads, learnt from the code
// itself: each subcommand's configuration is loaded with an environment that
// records what it is asked for.
func knownSettings(t *testing.T) map[string]bool {
	t.Helper()
	known := map[string]bool{}
	for _, cmd := range []string{"serve", "stdio", "check", "demo"} {
		loadConfig(cmd, nil, func(name string) string {
			if strings.HasPrefix(name, "MAISON_") {
				known[name] = true
			}
			return ""
		})
	}
	for _, must := range []string{"MAISON_HA_URL", "MAISON_HA_TOKEN", "MAISON_LANG"} {
		if !known[must] {
			t.Fatalf("reading the configuration did not ask for %s; the way settings are learnt is broken (asked: %v)", must, keys(known))
		}
	}
	return known
}

// secretSetting says whether a setting's name says it holds a secret.
var secretSetting = regexp.MustCompile(`(^|_)(TOKEN|SECRET|PASSWORD|KEY)(_|$)`)

// settingOf is the maison setting an app option sets, as the run script does.
func settingOf(option string) string { return "MAISON_" + strings.ToUpper(option) }

// haType is one type of Home Assistant's app option schema.
type haType struct {
	base     string // str, bool, int, float, email, url, password, port, match, list, device
	optional bool   // a trailing ?
	min, max *float64
	re       *regexp.Regexp
	choices  []string
}

var (
	// As the Supervisor reads them: whole-number bounds, decimals for float only.
	haRanged = regexp.MustCompile(`^(?:(str|password|int)(?:\(([0-9]*),([0-9]*)\))?|(float)(?:\(([0-9.]*),([0-9.]*)\))?)$`)
	haPlain  = regexp.MustCompile(`^(bool|email|url|port)$`)
	haMatch  = regexp.MustCompile(`^match\((.+)\)$`)
	haList   = regexp.MustCompile(`^list\(([^|()]+(?:\|[^|()]+)*)\)$`)
	haDevice = regexp.MustCompile(`^device(?:\(subsystem=[a-z]+\))?$`)
)

// parseHAType reads a schema type as the app documentation lists them.
func parseHAType(s string) (haType, error) {
	var ty haType
	s, ty.optional = strings.CutSuffix(s, "?")
	switch {
	case haRanged.MatchString(s):
		m := haRanged.FindStringSubmatch(s)
		lo, hi := m[2], m[3]
		ty.base = m[1]
		if m[4] != "" {
			ty.base, lo, hi = m[4], m[5], m[6]
		}
		for i, bound := range []**float64{&ty.min, &ty.max} {
			if v := []string{lo, hi}[i]; v != "" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return ty, fmt.Errorf("%q: bound %q is not a number", s, v)
				}
				*bound = &f
			}
		}
		if ty.min != nil && ty.max != nil && *ty.min > *ty.max {
			return ty, fmt.Errorf("%q: the lower bound is above the upper one", s)
		}
	case haPlain.MatchString(s):
		ty.base = s
	case haMatch.MatchString(s):
		ty.base = "match"
		re, err := regexp.Compile(haMatch.FindStringSubmatch(s)[1])
		if err != nil {
			return ty, fmt.Errorf("%q: %w", s, err)
		}
		ty.re = re
	case haList.MatchString(s):
		ty.base = "list"
		ty.choices = strings.Split(haList.FindStringSubmatch(s)[1], "|")
	case haDevice.MatchString(s):
		ty.base = "device"
	default:
		return ty, fmt.Errorf("%q is not a type of Home Assistant's app schema (str, password, int, float with optional (min,max); bool, email, url, port, match(…), list(…|…), device)", s)
	}
	return ty, nil
}

// check says whether v, from the options, is a value of the type.
func (ty haType) check(v any) error {
	switch ty.base {
	case "bool":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%v is not a boolean", v)
		}
		return nil
	case "int", "port", "float":
		var f float64
		switch n := v.(type) {
		case int:
			f = float64(n)
		case float64:
			if ty.base != "float" && n != float64(int64(n)) {
				return fmt.Errorf("%v is not a whole number", v)
			}
			f = n
		default:
			return fmt.Errorf("%v is not a number", v)
		}
		lo, hi := ty.min, ty.max
		if ty.base == "port" {
			one, top := 1.0, 65535.0
			lo, hi = &one, &top
		}
		if (lo != nil && f < *lo) || (hi != nil && f > *hi) {
			return fmt.Errorf("%v is out of range", v)
		}
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%v is not text", v)
	}
	switch ty.base {
	case "str", "password":
		if (ty.min != nil && float64(len(s)) < *ty.min) || (ty.max != nil && float64(len(s)) > *ty.max) {
			return fmt.Errorf("%q has a length out of range", s)
		}
	case "url":
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return fmt.Errorf("%q is not a URL", s)
		}
	case "email":
		if !strings.Contains(s, "@") {
			return fmt.Errorf("%q is not an email address", s)
		}
	case "match":
		if loc := ty.re.FindStringIndex(s); loc == nil || loc[0] != 0 || loc[1] != len(s) {
			return fmt.Errorf("%q does not match %s", s, ty.re)
		}
	case "list":
		if !slices.Contains(ty.choices, s) {
			return fmt.Errorf("%q is not one of %v", s, ty.choices)
		}
	}
	return nil
}

// appOption is one option of the app: its schema type, whether it is a list
// of that type, and its default when options gives one.
type appOption struct {
	name    string
	ty      haType
	list    bool
	def     any
	hasDef  bool
	element string // the schema text, for messages
}

// readAppConfig reads config.yaml and checks it against the rules of Home
// Assistant's app documentation. It returns the top-level map and the options.
func readAppConfig(t *testing.T) (map[string]any, []appOption) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(appDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf("config.yaml is not YAML: %v", err)
	}
	for _, key := range []string{"name", "version", "slug", "description"} {
		if s, ok := cfg[key].(string); !ok || strings.TrimSpace(s) == "" {
			t.Errorf("config.yaml: %s is required and must be text, got %#v", key, cfg[key])
		}
	}
	if slug, _ := cfg["slug"].(string); !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(slug) {
		t.Errorf("config.yaml: slug %q must be URI friendly (lower-case letters, digits, _)", slug)
	}
	arch, ok := cfg["arch"].([]any)
	if !ok || len(arch) == 0 {
		t.Errorf("config.yaml: arch is required, a list of architectures; got %#v", cfg["arch"])
	}
	seen := map[any]bool{}
	for _, a := range arch {
		// The architectures Home Assistant supports today; armv7, armhf and i386 were dropped.
		if a != "aarch64" && a != "amd64" {
			t.Errorf("config.yaml: arch %v is not one Home Assistant supports (aarch64, amd64)", a)
		}
		if seen[a] {
			t.Errorf("config.yaml: arch %v twice", a)
		}
		seen[a] = true
	}
	// Least privilege: maison needs no Home Assistant or Supervisor API of
	// the app's own, no host access, no folders.
	for _, key := range []string{"homeassistant_api", "hassio_api", "auth_api", "docker_api", "host_network", "host_pid", "host_ipc", "host_dbus", "full_access", "privileged", "devices", "map", "uart", "usb", "gpio", "kernel_modules", "hassio_role", "ingress"} {
		if v, ok := cfg[key]; ok && v != false {
			t.Errorf("config.yaml asks for %s (%v): maison uses its own user's token and needs none of it", key, v)
		}
	}

	schema, ok := cfg["schema"].(map[string]any)
	if !ok {
		t.Fatalf("config.yaml: schema must be a map of option types, got %#v", cfg["schema"])
	}
	options, ok := cfg["options"].(map[string]any)
	if !ok {
		t.Fatalf("config.yaml: options must be a map of defaults, got %#v", cfg["options"])
	}
	for name := range options {
		if _, ok := schema[name]; !ok {
			t.Errorf("config.yaml: option %s has a default but no schema type", name)
		}
	}
	var opts []appOption
	for name, v := range schema {
		o := appOption{name: name}
		switch v := v.(type) {
		case string:
			o.element = v
		case []any:
			s, ok := v[0].(string)
			if len(v) != 1 || !ok {
				t.Errorf("config.yaml: schema %s: a list holds exactly one element type, got %#v", name, v)
				continue
			}
			o.element, o.list = s, true
		default:
			t.Errorf("config.yaml: schema %s: %#v is neither a type nor a list of one (maison uses no nested options)", name, v)
			continue
		}
		ty, err := parseHAType(o.element)
		if err != nil {
			t.Errorf("config.yaml: schema %s: %v", name, err)
			continue
		}
		o.ty = ty
		o.def, o.hasDef = options[name]
		if o.hasDef && ty.optional {
			t.Errorf("config.yaml: option %s is optional (%s) yet has a default, which makes it required; drop one", name, o.element)
		}
		if o.hasDef {
			vals := []any{o.def}
			if o.list {
				l, ok := o.def.([]any)
				if !ok {
					t.Errorf("config.yaml: option %s is a list, its default %#v is not", name, o.def)
				}
				vals = l
			}
			for _, v := range vals {
				if err := ty.check(v); err != nil {
					t.Errorf("config.yaml: the default of %s: %v", name, err)
				}
			}
		}
		opts = append(opts, o)
	}
	slices.SortFunc(opts, func(a, b appOption) int { return strings.Compare(a.name, b.name) })
	return cfg, opts
}

func TestHomeAssistantAppOptionsAreMaisonSettings(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)
	_, opts := readAppConfig(t)
	if len(opts) == 0 {
		t.Fatal("the app has no options")
	}
	for _, o := range opts {
		setting := settingOf(o.name)
		if !known[setting] {
			t.Errorf("option %s sets %s, which maison does not read (it reads %v)", o.name, setting, keys(known))
		}
		secret := secretSetting.MatchString(setting)
		if secret && o.ty.base != "password" {
			t.Errorf("option %s sets the secret %s: its type must be password, not %s", o.name, setting, o.element)
		}
		if !secret && o.ty.base == "password" {
			t.Errorf("option %s is a password field but %s is not a secret", o.name, setting)
		}
		if setting == "MAISON_LISTEN" {
			t.Errorf("option %s would move maison off the app's port", o.name)
		}
	}

	// Every value the schema lets a person pick is one maison accepts, and
	// every setting `maison serve` cannot start without is a required option.
	load := func(env map[string]string) error {
		_, err := loadConfig("serve", nil, func(k string) string { return env[k] })
		return err
	}
	base := map[string]string{"MAISON_HA_URL": "http://homeassistant:8123", "MAISON_HA_TOKEN": "a-token"}
	// sample is the default, or the first value a person might type that
	// fits the schema type and that maison accepts.
	sample := func(o appOption) string {
		if o.hasDef {
			if l, ok := o.def.([]any); ok {
				var parts []string
				for _, v := range l {
					parts = append(parts, fmt.Sprint(v))
				}
				return strings.Join(parts, ",")
			}
			return fmt.Sprint(o.def)
		}
		if n := o.ty.min; n != nil && (o.ty.base == "int" || o.ty.base == "float") {
			return strconv.FormatFloat(*n, 'f', -1, 64)
		}
		candidates := append(slices.Clone(o.ty.choices), "http://homeassistant:8123", strings.Repeat("s3cret", 8), "off", "all", "camera.front_door", "GetDateTime", "someone@example.com", "https://my.home-assistant.io/redirect/oauth", "info", "en", "persistent_notification", "x")
		for _, v := range candidates {
			e := copyEnv(base)
			e[settingOf(o.name)] = v
			if o.ty.check(v) == nil && load(e) == nil {
				return v
			}
		}
		t.Fatalf("no value fits option %s (%s) and is accepted by maison", o.name, o.element)
		return ""
	}
	env := map[string]string{}
	for _, o := range opts {
		env[settingOf(o.name)] = sample(o)
	}
	if err := load(env); err != nil {
		t.Fatalf("every option filled in: maison serve refuses: %v", err)
	}
	for _, o := range opts {
		for _, choice := range o.ty.choices {
			e := copyEnv(env)
			e[settingOf(o.name)] = choice
			if err := load(e); err != nil {
				t.Errorf("option %s offers %q, which maison refuses: %v", o.name, choice, err)
			}
		}
		e := copyEnv(env)
		delete(e, settingOf(o.name))
		if err := load(e); err != nil && o.ty.optional {
			t.Errorf("option %s is optional, but maison serve cannot start without it: %v", o.name, err)
		}
	}
}

func copyEnv(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func TestHomeAssistantAppTranslations(t *testing.T) {
	t.Parallel()
	cfg, opts := readAppConfig(t)
	ports, _ := cfg["ports"].(map[string]any)
	for _, lang := range []string{"en", "fr", "de"} {
		raw, err := os.ReadFile(filepath.Join(appDir, "translations", lang+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var tr struct {
			Configuration map[string]struct {
				Name        string `yaml:"name"`
				Description string `yaml:"description"`
			} `yaml:"configuration"`
			Network map[string]string `yaml:"network"`
		}
		if err := yaml.Unmarshal(raw, &tr); err != nil {
			t.Fatalf("translations/%s.yaml: %v", lang, err)
		}
		for _, o := range opts {
			e, ok := tr.Configuration[o.name]
			if !ok || strings.TrimSpace(e.Name) == "" || strings.TrimSpace(e.Description) == "" {
				t.Errorf("translations/%s.yaml: option %s needs a name and a description", lang, o.name)
			}
		}
		for name := range tr.Configuration {
			if !slices.ContainsFunc(opts, func(o appOption) bool { return o.name == name }) {
				t.Errorf("translations/%s.yaml: %s is not an option of config.yaml", lang, name)
			}
		}
		for port := range ports {
			if strings.TrimSpace(tr.Network[port]) == "" {
				t.Errorf("translations/%s.yaml: port %s needs a description", lang, port)
			}
		}
		for port := range tr.Network {
			if _, ok := ports[port]; !ok {
				t.Errorf("translations/%s.yaml: port %s is not in config.yaml", lang, port)
			}
		}
	}
}

// dockerArch is the Docker (and Go) name of a Home Assistant architecture.
var dockerArch = map[string]string{"aarch64": "arm64", "amd64": "amd64"}

func TestHomeAssistantAppImage(t *testing.T) {
	t.Parallel()
	cfg, _ := readAppConfig(t)
	raw, err := os.ReadFile(filepath.Join(appDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	docker := string(raw)
	from := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(docker, -1)
	if len(from) != 1 || !regexp.MustCompile(`^ghcr\.io/home-assistant/base:[0-9]+\.[0-9]+$`).MatchString(from[0][1]) {
		t.Errorf("Dockerfile: want one FROM on the official base image, pinned to an Alpine version (ghcr.io/home-assistant/base:3.x), got %v", from)
	}
	// The Supervisor passes BUILD_ARCH (amd64, aarch64) to every build;
	// TARGETARCH is set only by BuildKit, which older Supervisors do not use
	// (their Docker API builds leave it empty, and COPY maison-linux- fails).
	if !strings.Contains(docker, "ARG BUILD_ARCH\n") || !strings.Contains(docker, "COPY maison-linux-${BUILD_ARCH} /usr/bin/maison") || strings.Contains(docker, "TARGETARCH") {
		t.Error("Dockerfile: maison's binary is not copied by the Supervisor's BUILD_ARCH")
	}
	if regexp.MustCompile(`(?m)^RUN `).MatchString(docker) {
		t.Error("Dockerfile: a RUN step needs emulation to build for another CPU; copy files only")
	}
	release, err := os.ReadFile("../../scripts/release")
	if err != nil {
		t.Fatal(err)
	}
	arch, _ := cfg["arch"].([]any)
	for _, a := range arch {
		name := "maison-linux-" + fmt.Sprint(a)
		if !strings.Contains(string(release), `/maison/`+name+`"`) {
			t.Errorf("arch %v: scripts/release does not put %s in the app", a, name)
		}
	}
	for _, script := range []string{"run", "finish"} {
		fi, err := os.Stat(filepath.Join(appDir, "rootfs/etc/services.d/maison", script))
		if err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("rootfs/etc/services.d/maison/%s must exist and be executable (%v)", script, err)
		}
	}
	for name, square := range map[string]bool{"icon.png": true, "logo.png": false} {
		f, err := os.Open(filepath.Join(appDir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		c, err := png.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Errorf("%s is not a PNG: %v", name, err)
		} else if square && c.Width != c.Height {
			t.Errorf("%s is %dx%d; Home Assistant wants a square icon", name, c.Width, c.Height)
		}
	}
	for _, doc := range []string{"DOCS.md", "README.md"} {
		if b, err := os.ReadFile(filepath.Join(appDir, doc)); err != nil || len(strings.TrimSpace(string(b))) == 0 {
			t.Errorf("%s is missing or empty (%v)", doc, err)
		}
	}
}

// lookPathOrSkip finds a program or skips, naming the package that brings it.
func lookPathOrSkip(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed: install the %s package", name, pkg)
	}
	return p
}

// appRun starts the app's run script as the Supervisor does, with the
// options written to options.json, and maison (this test binary) on PATH
// behind a wrapper that records each subcommand's environment in dir.
type appRun struct {
	cmd    *exec.Cmd
	out    *testkit.Buffer
	dir    string
	done   chan struct{} // closed when the script has exited
	err    error         // how it exited, once done is closed
	listen string
}

func startAppRun(t *testing.T, options func(listen string) map[string]any) *appRun {
	t.Helper()
	bash := lookPathOrSkip(t, "bash", "bash")
	lookPathOrSkip(t, "jq", "Debian jq")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	wrapper := fmt.Sprintf("#!/bin/sh\nenv >%q/env-\"$1\"\nMAISON_TEST_RUN_MAIN=1 exec %q \"$@\"\n", dir, exe)
	if err := os.WriteFile(filepath.Join(bin, "maison"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen := ln.Addr().String()
	ln.Close()
	raw, _ := json.Marshal(options(listen))
	optionsPath := filepath.Join(dir, "options.json")
	if err := os.WriteFile(optionsPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	r := &appRun{out: &testkit.Buffer{}, dir: dir, done: make(chan struct{}), listen: listen}
	r.cmd = exec.Command(bash, filepath.Join(appDir, "rootfs/etc/services.d/maison/run"), optionsPath)
	// What the Supervisor gives every app; the run script must not pass it on.
	r.cmd.Env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + dir,
		"SUPERVISOR_TOKEN=the-supervisor-token",
		"HASSIO_TOKEN=the-supervisor-token",
		"MAISON_LISTEN=" + listen, // the app's 0.0.0.0:8765, moved to loopback for the test
	}
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.err = r.cmd.Wait(); close(r.done) }()
	t.Cleanup(func() {
		r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			r.cmd.Process.Kill()
		}
	})
	return r
}

// waitServing waits until maison serves, or fails with what the app logged.
func (r *appRun) waitServing(t *testing.T) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(r.out.String(), "maison is serving") {
		select {
		case <-r.done:
			t.Fatalf("the app stopped (%v) before serving; its log:\n%s", r.err, r.out.String())
		case <-deadline:
			t.Fatalf("the app did not serve; its log:\n%s", r.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// env reads the environment maison got for one subcommand.
func (r *appRun) env(t *testing.T, sub string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(r.dir, "env-"+sub))
	if err != nil {
		t.Fatalf("maison %s was not started: %v", sub, err)
	}
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	return env
}

// demoHouse serves a demo Home Assistant on loopback for the test. Its
// frames are drawn only if fetched: the tests using it list cameras, and
// never fetch one.
func demoHouse(t *testing.T) (*demo.House, string) {
	t.Helper()
	house := demotest.NewHouse(t, demotest.Options{House: demo.Options{Logger: slog.New(slog.DiscardHandler)}, LazyFrames: true})
	return house.House, house.URL
}

func TestHomeAssistantAppRunsWithItsOwnUser(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)
	house, haURL := demoHouse(t)
	const clientToken = "a-client-token-for-claude-code-on-the-lan"
	const password = "a passphrase of several words"
	r := startAppRun(t, func(listen string) map[string]any {
		return map[string]any{
			"ha_url": haURL, "ha_token": house.UserToken(), "token": clientToken,
			"cameras": []string{"camera.front_door", "camera.garage"}, "lang": "fr", "log_level": "info",
			"passthrough": "", "public_url": "http://" + listen, "operator_password": password,
			"redirect_uris": []string{"https://my.home-assistant.io/redirect/oauth"},
		}
	})
	r.waitServing(t)
	log := r.out.String()
	for _, want := range []string{
		"maison dev (", "checking Home Assistant at " + haURL, `ok    connecté en tant que "Maison", qui n'est pas administrateur`, // the check speaks MAISON_LANG
		"made a signing secret", "OAuth for the Claude app and other connectors: add http://" + r.listen + "/mcp as a custom connector",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the app's log lacks %q:\n%s", want, log)
		}
	}
	secret, err := os.ReadFile(filepath.Join(r.dir, "oauth-secret"))
	if err != nil {
		t.Fatalf("no signing secret kept in the app's storage: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(r.dir, "oauth-secret")); fi.Mode().Perm() != 0o600 {
		t.Errorf("the signing secret is readable by others: %v", fi.Mode())
	}
	for _, s := range []string{house.UserToken(), clientToken, password, strings.TrimSpace(string(secret))} {
		if strings.Contains(log, s) {
			t.Errorf("the app's log shows a secret (%.6s…)", s)
		}
	}
	for _, sub := range []string{"check", "serve"} {
		env := r.env(t, sub)
		if _, ok := env["SUPERVISOR_TOKEN"]; ok {
			t.Errorf("maison %s was given the Supervisor's token", sub)
		}
		if _, ok := env["HASSIO_TOKEN"]; ok {
			t.Errorf("maison %s was given the Supervisor's token (HASSIO_TOKEN)", sub)
		}
		want := map[string]string{
			"MAISON_HA_URL": haURL, "MAISON_HA_TOKEN": house.UserToken(), "MAISON_TOKEN": clientToken,
			"MAISON_CAMERAS": "camera.front_door,camera.garage", "MAISON_LANG": "fr", "MAISON_LOG_LEVEL": "info",
			"MAISON_PUBLIC_URL": "http://" + r.listen, "MAISON_OPERATOR_PASSWORD": password,
			"MAISON_SECRET": strings.TrimSpace(string(secret)), "MAISON_REDIRECT_URIS": "https://my.home-assistant.io/redirect/oauth",
		}
		for k, v := range want {
			if env[k] != v {
				t.Errorf("maison %s: %s=%q, want %q", sub, k, env[k], v)
			}
		}
		if v, ok := env["MAISON_PASSTHROUGH"]; ok {
			t.Errorf("an empty option reached maison as MAISON_PASSTHROUGH=%q; maison's default should apply", v)
		}
		for k := range env {
			if strings.HasPrefix(k, "MAISON_") && !known[k] && k != "MAISON_TEST_RUN_MAIN" {
				t.Errorf("maison %s was given %s, a setting it does not read", sub, k)
			}
		}
	}

	// A client on the network, with the token from the options, sees the
	// cameras the options list and hears French.
	cs := connect(t, "http://"+r.listen+"/mcp", clientToken, "")
	demotest.UntilActionsOffered(t, cs)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "camera_snapshot" }) {
		t.Errorf("tools/list through the app lacks camera_snapshot")
	}
	said := demotest.Text(demotest.Call(t, cs, "list_cameras", nil))
	if !strings.Contains(said, "Garage") || strings.Contains(said, "Backyard") || !strings.Contains(said, "caméra") {
		t.Errorf("list_cameras through the app, with cameras front door and garage in French: %s", said)
	}
}

func TestHomeAssistantAppRefusesAnAdminToken(t *testing.T) {
	t.Parallel()
	house, haURL := demoHouse(t)
	r := startAppRun(t, func(string) map[string]any {
		return map[string]any{"ha_url": haURL, "ha_token": house.AdminToken(), "lang": "en", "log_level": "info", "cameras": []string{}}
	})
	select {
	case <-r.done:
		if r.err == nil {
			t.Fatalf("the app exited 0 with an admin token; its log:\n%s", r.out.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the app kept running with an admin token; its log:\n%s", r.out.String())
	}
	log := r.out.String()
	if strings.Contains(log, "maison is serving") {
		t.Errorf("maison served with an admin token:\n%s", log)
	}
	if !strings.Contains(log, "FAIL  Home Assistant at "+haURL+": admin token refused") || !strings.Contains(log, "Settings › People") {
		t.Errorf("the app's log does not say why and what to do:\n%s", log)
	}
}

func TestHomeAssistantAppSaysWhatIsMissing(t *testing.T) {
	t.Parallel()
	bash := lookPathOrSkip(t, "bash", "bash")
	lookPathOrSkip(t, "jq", "Debian jq")
	dir := t.TempDir()
	for name, tc := range map[string]struct{ content, want string }{
		"no options": {"", "the app's options are missing"},
		"not JSON":   {"{ha_url:", "cannot be read"},
		"NUL":        {`{"ha_token":"a\u0000b"}`, "holds a NUL character"},
		"bad name":   {`{"Ha-Url":"x"}`, `option "Ha-Url" is not one of maison's`},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		if tc.content != "" {
			os.WriteFile(path, []byte(tc.content), 0o600)
		}
		cmd := exec.Command(bash, filepath.Join(appDir, "rootfs/etc/services.d/maison/run"), path)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: exit %v, said %q; want a failure saying %q", name, err, out, tc.want)
		}
	}
}

func TestHomeAssistantAppKeepsItsSigningSecret(t *testing.T) {
	t.Parallel()
	bash := lookPathOrSkip(t, "bash", "bash")
	lookPathOrSkip(t, "jq", "Debian jq")
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	// A stand-in maison that only records what it was given.
	fake := fmt.Sprintf("#!/bin/sh\nenv >%q/env-\"$1\"\n", dir)
	if err := os.WriteFile(filepath.Join(bin, "maison"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	start := func(options string) string {
		path := filepath.Join(dir, "options.json")
		os.WriteFile(path, []byte(options), 0o600)
		cmd := exec.Command(bash, filepath.Join(appDir, "rootfs/etc/services.d/maison/run"), path)
		cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the run script failed: %v\n%s", err, out)
		}
		r := &appRun{dir: dir}
		return r.env(t, "serve")["MAISON_SECRET"]
	}
	const withSignIn = `{"ha_url":"http://homeassistant:8123","ha_token":"t","public_url":"https://maison.example.com","operator_password":"a passphrase of words"}`
	first := start(withSignIn)
	if len(first) < 40 {
		t.Fatalf("MAISON_SECRET=%q: want a made-up secret of 32 random bytes", first)
	}
	if again := start(withSignIn); again != first {
		t.Errorf("the signing secret changed at restart (%q, then %q): every connected app would be revoked", first, again)
	}
	if own := start(`{"ha_url":"http://homeassistant:8123","ha_token":"t","public_url":"https://maison.example.com","secret":"the operator's own secret, long enough"}`); own != "the operator's own secret, long enough" {
		t.Errorf("the secret option was not used: MAISON_SECRET=%q", own)
	}
	if none := start(`{"ha_url":"http://homeassistant:8123","ha_token":"t"}`); none != "" {
		t.Errorf("without sign-in, MAISON_SECRET=%q was set", none)
	}
}

// TestHASchemaTypes pins the reading of schema types to the Supervisor's.
func TestHASchemaTypes(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"str", "str(3,)", "password", "password(12,)", "int(20000,10000000)?", "float(0.5,2)", "port", "bool?", "email", "url", "device", "device(subsystem=tty)", "list(a|b)", "match(^x$)"} {
		if _, err := parseHAType(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"int(-1,3)", "int(1.5,)", "int(5,1)", "string", "list()", "device(tty)", "passwd", "match(()"} {
		if _, err := parseHAType(s); err == nil {
			t.Errorf("%s was accepted", s)
		}
	}
}

// TestHomeAssistantAppHostileOptions fills the options as a careless or
// hostile installer might: each stops the app with a sentence in its log
// saying what is wrong, never quotes a secret, and no option value is run by
// the shell.
func TestHomeAssistantAppHostileOptions(t *testing.T) {
	t.Parallel()
	house, haURL := demoHouse(t)
	u, _ := url.Parse(haURL)
	pwned := filepath.Join(t.TempDir(), "pwned")
	base := func() map[string]any {
		return map[string]any{"ha_url": haURL, "ha_token": house.UserToken(), "lang": "en", "log_level": "info", "cameras": []string{}}
	}
	for name, tc := range map[string]struct {
		set    map[string]any
		want   string
		secret string
	}{
		"a URL with a password":  {map[string]any{"ha_url": "http://maison:hunter2@" + u.Host}, "without credentials", "hunter2"},
		"the Supervisor's proxy": {map[string]any{"ha_url": "http://supervisor/core"}, "takes only the Supervisor's own token", ""},
		"no token":               {map[string]any{"ha_token": ""}, "MAISON_HA_TOKEN is not set", ""},
		"a token with a newline": {map[string]any{"ha_token": house.UserToken() + "\n" + house.UserToken()}, "contains whitespace", house.UserToken()},
		"a huge token":           {map[string]any{"ha_token": strings.Repeat(house.UserToken(), 4000)}, "is too long", house.UserToken()},
		"a public URL in http":   {map[string]any{"public_url": "http://maison.example.com", "operator_password": "a passphrase of several words"}, "use https", "a passphrase of several words"},
		"a short password":       {map[string]any{"public_url": "https://maison.example.com", "operator_password": "hunter2hunt"}, "too short", "hunter2hunt"},
		"an unknown language":    {map[string]any{"lang": "es"}, "set MAISON_LANG to en, de or fr", ""},
		"a log level":            {map[string]any{"log_level": "verbose"}, "use debug, info, warn or error", ""},
		"a shell in an option":   {map[string]any{"passthrough": "$(touch " + pwned + ")`touch " + pwned + "`;touch " + pwned}, "MAISON_PASSTHROUGH", ""},
		"a shell in a list":      {map[string]any{"cameras": []string{"camera.a\"$(touch " + pwned + ")", "x'`touch " + pwned + "`"}, "ai_task": "ai_task.x\n$(touch " + pwned + ")"}, "is not a camera's entity id", ""},
		"a shell in the AI task": {map[string]any{"ai_task": "x$(touch " + pwned + ")`touch " + pwned + "`"}, "MAISON_AI_TASK", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startAppRun(t, func(string) map[string]any {
				o := base()
				for k, v := range tc.set {
					o[k] = v
				}
				return o
			})
			select {
			case <-r.done:
			case <-time.After(2 * time.Minute):
				t.Fatalf("the app kept running; its log:\n%s", r.out.String())
			}
			log := r.out.String()
			if r.err == nil || strings.Contains(log, "maison is serving") {
				t.Errorf("the app served or exited 0 (%v):\n%s", r.err, log)
			}
			if !strings.Contains(log, tc.want) {
				t.Errorf("the app's log does not say %q:\n%s", tc.want, log)
			}
			if tc.secret != "" && strings.Contains(log, tc.secret) {
				t.Errorf("the app's log quotes a secret:\n%.2000s", log)
			}
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("an option's value was run by the shell")
			}
		})
	}
}

// TestHomeAssistantAppWithWhatTheDocsAsk starts the app with only what its
// Documentation tab asks for in step 2 (the token, the URL, the language, no
// cameras): it serves, keeps the door shut to clients without a token, says
// how to let one in, and prints no token.
func TestHomeAssistantAppWithWhatTheDocsAsk(t *testing.T) {
	t.Parallel()
	house, haURL := demoHouse(t)
	r := startAppRun(t, func(string) map[string]any {
		return map[string]any{"ha_url": haURL, "ha_token": house.UserToken(), "lang": "en", "log_level": "info", "cameras": []string{}, "allowed_hosts": []string{"ha.home"}}
	})
	r.waitServing(t)
	log := r.out.String()
	if !strings.Contains(log, "Bearer token for local clients") {
		t.Errorf("the log does not say how to let a client on the network in:\n%s", log)
	}
	token := r.env(t, "serve")["MAISON_TOKEN"]
	if len(token) < minTokenLength {
		t.Fatalf("maison serve was started with MAISON_TOKEN=%q", token)
	}
	if strings.Contains(log, token) || strings.Contains(log, house.UserToken()) {
		t.Errorf("the log shows a token:\n%s", log)
	}
	if again := r.env(t, "check")["MAISON_TOKEN"]; again != token {
		t.Error("check and serve were given different tokens")
	}
	// Clients on the network call the machine homeassistant.local (the
	// DOCS' example), or a name the options add; other names are refused.
	for host, want := range map[string]int{"homeassistant.local:8765": 200, "homeassistant:8765": 200, "ha.home:8765": 200, "evil.example.com:8765": 403} {
		req, _ := http.NewRequest("POST", "http://"+r.listen+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}
