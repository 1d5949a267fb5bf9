package main

// The release as people install it: scripts/release builds every binary,
// the Claude Desktop bundle and the Home Assistant app repository; the
// bundle is unpacked and started exactly as Claude Desktop does, with the
// official @anthropic-ai/mcpb package, and answers over stdio.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"maison/demotest"
	"maison/internal/longtest"
	"maison/internal/testkit"
)

// releaseVersion is stamped into the release the tests build.
const releaseVersion = "v0.0.0-test"

// release builds every target with scripts/release into a temporary folder.
// MAISON_TEST_RELEASE_DIR names one already built instead (CI builds it
// before the tests); its version is read from its file names.
func release(t *testing.T) (dir, version string) {
	t.Helper()
	lookPathOrSkip(t, "bash", "bash")
	lookPathOrSkip(t, "node", "Debian nodejs")
	lookPathOrSkip(t, "mcpb", "npm @anthropic-ai/mcpb (npm install -g @anthropic-ai/mcpb)")
	if dir := os.Getenv("MAISON_TEST_RELEASE_DIR"); dir != "" {
		matches, _ := filepath.Glob(filepath.Join(dir, "maison-*-linux-amd64"))
		if len(matches) != 1 {
			t.Fatalf("MAISON_TEST_RELEASE_DIR=%s holds no single maison-*-linux-amd64 (%v)", dir, matches)
		}
		name := filepath.Base(matches[0])
		return dir, strings.TrimSuffix(strings.TrimPrefix(name, "maison-"), "-linux-amd64")
	}
	dir = t.TempDir()
	if out, err := exec.Command("bash", "../../scripts/release", "--version", releaseVersion, "--allow-dirty", "--out", dir).CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, out)
	}
	return dir, releaseVersion
}

// TestRelease builds the release once and checks what people install.
func TestRelease(t *testing.T) {
	t.Parallel()
	longtest.Only(t)
	dir, version := release(t)
	t.Run("binaries", func(t *testing.T) { checkReleaseBinaries(t, dir, version) })
	t.Run("Claude Desktop bundle", func(t *testing.T) { checkBundleStartsAsClaudeDesktopDoes(t, dir, version) })
	t.Run("Home Assistant app repository", func(t *testing.T) { checkHomeAssistantAppRepository(t, dir, version) })
	t.Run("ARM boards under emulation", func(t *testing.T) { checkARMBinariesRun(t, dir, version) })
}

// releaseTargets is what each release binary must be.
var releaseTargets = []struct {
	os, arch string
	elf      elf.Machine
	macho    macho.Cpu
}{
	{"linux", "amd64", elf.EM_X86_64, 0},
	{"linux", "arm64", elf.EM_AARCH64, 0},
	{"linux", "armv7", elf.EM_ARM, 0},
	{"darwin", "arm64", 0, macho.CpuArm64},
	{"darwin", "amd64", 0, macho.CpuAmd64},
	{"windows", "amd64", 0, 0},
}

func checkReleaseBinaries(t *testing.T, dir, version string) {
	for _, tg := range releaseTargets {
		name := "maison-" + version + "-" + tg.os + "-" + tg.arch
		if tg.os == "windows" {
			name += ".exe"
		}
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s/%s: %v", tg.os, tg.arch, err)
			continue
		}
		// The version is stamped in, as `maison --version` and serverInfo say
		// it (-trimpath keeps -ldflags out of the build information, so the
		// string itself is looked for), and the build settings are the
		// release's: no cgo (static), no local paths, ARMv7 for 32-bit ARM.
		if !bytes.Contains(data, []byte(version)) {
			t.Errorf("%s does not carry its version %s", name, version)
		}
		bi, err := buildinfo.Read(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: no Go build information: %v", name, err)
			continue
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		want := map[string]string{"CGO_ENABLED": "0", "-trimpath": "true", "GOOS": tg.os, "GOARCH": tg.arch}
		if tg.arch == "armv7" {
			want["GOARCH"], want["GOARM"] = "arm", "7"
		}
		for k, v := range want {
			if !strings.HasPrefix(settings[k], v) {
				t.Errorf("%s was built with %s=%q, want %q", name, k, settings[k], v)
			}
		}
		switch tg.os {
		case "linux":
			f, err := elf.NewFile(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s is not an ELF executable: %v", name, err)
				continue
			}
			if f.Machine != tg.elf {
				t.Errorf("%s is for %v, want %v", name, f.Machine, tg.elf)
			}
			for _, p := range f.Progs {
				if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
					t.Errorf("%s is dynamically linked; release binaries are static", name)
				}
			}
			if f.Class != map[bool]elf.Class{true: elf.ELFCLASS32, false: elf.ELFCLASS64}[tg.arch == "armv7"] {
				t.Errorf("%s is %v", name, f.Class)
			}
		case "darwin":
			f, err := macho.NewFile(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s is not a Mach-O executable: %v", name, err)
				continue
			}
			if f.Cpu != tg.macho || f.Type != macho.TypeExec {
				t.Errorf("%s is a %v %v, want an executable for %v", name, f.Type, f.Cpu, tg.macho)
			}
		case "windows":
			f, err := pe.NewFile(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s is not a PE executable: %v", name, err)
				continue
			}
			oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
			if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
				t.Errorf("%s: machine %#x, want an amd64 console program (stdio)", name, f.Machine)
			}
		}
	}

	// The one this machine runs says its version.
	out, err := exec.Command(filepath.Join(dir, "maison-"+version+"-linux-amd64"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "maison "+version+" (linux/amd64, go") {
		t.Errorf("maison --version: %q, %v", out, err)
	}

	// SHA256SUMS covers every file, and each sum is right.
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q is not in sha256sum's format", line)
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("SHA256SUMS lists %s: %v", name, err)
			continue
		}
		got := sha256.Sum256(data)
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("SHA256SUMS: %s does not match", name)
		}
		listed[name] = true
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && e.Name() != "SHA256SUMS" && !listed[e.Name()] {
			t.Errorf("%s has no checksum", e.Name())
		}
	}
}

// desktopManifest is what the tests read of the bundle's manifest.
type desktopManifest struct {
	UserConfig map[string]struct {
		Sensitive bool `json:"sensitive"`
		Required  bool `json:"required"`
	} `json:"user_config"`
	Server struct {
		Type string `json:"type"`
	} `json:"server"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// desktopConfig is how Claude Desktop starts the server; nil when it would not.
type desktopConfig *struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// desktopCase is one platform and the person's answers to user_config.
type desktopCase struct {
	Platform string         `json:"platform"`
	Answers  map[string]any `json:"answers"`
}

// mcpbPackage finds the installed @anthropic-ai/mcpb package from its CLI.
func mcpbPackage(t *testing.T) string {
	t.Helper()
	cli, _ := exec.LookPath("mcpb")
	real, err := filepath.EvalSymlinks(cli)
	if err != nil {
		t.Fatal(err)
	}
	for dir := filepath.Dir(real); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var pkg struct{ Name string }
		if json.Unmarshal(raw, &pkg) == nil && pkg.Name == "@anthropic-ai/mcpb" {
			return dir
		}
	}
	t.Fatalf("the mcpb CLI at %s is not inside the @anthropic-ai/mcpb package", real)
	return ""
}

// startAsDesktop unpacks the bundle once and resolves how Claude Desktop
// starts it in each case, using the official package's own functions. It
// returns the manifest, one config per case, and where the bundle was unpacked.
func startAsDesktop(t *testing.T, bundle string, cases []desktopCase) (desktopManifest, []desktopConfig, string) {
	t.Helper()
	out := t.TempDir()
	raw, _ := json.Marshal(cases)
	cmd := exec.Command("node", "testdata/claude-desktop.mjs", mcpbPackage(t), bundle, out, string(raw))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("resolving the bundle as Claude Desktop does: %v\n%s", err, stderr.String())
	}
	var got struct {
		Manifest desktopManifest `json:"manifest"`
		Configs  []desktopConfig `json:"configs"`
	}
	if err := json.Unmarshal(stdout, &got); err != nil || len(got.Configs) != len(cases) {
		t.Fatalf("%v: %s", err, stdout)
	}
	return got.Manifest, got.Configs, out
}

func checkBundleStartsAsClaudeDesktopDoes(t *testing.T, dir, version string) {
	known := knownSettings(t)
	bundle := filepath.Join(dir, "maison-"+version+".mcpb")
	if info, err := exec.Command("mcpb", "info", bundle).CombinedOutput(); err != nil {
		t.Fatalf("mcpb info %s: %v\n%s", bundle, err, info)
	}

	house, haURL := demoHouse(t)
	answers := map[string]any{
		"ha_url": haURL, "ha_token": house.UserToken(), "lang": "fr",
		"cameras": "camera.front_door, camera.garage",
	}
	platforms := []string{"darwin", "win32", "linux"}
	var cases []desktopCase
	for _, p := range platforms {
		cases = append(cases, desktopCase{p, answers})
	}
	cases = append(cases,
		desktopCase{"linux", map[string]any{"ha_url": haURL}},                                // no token
		desktopCase{"linux", map[string]any{"ha_url": haURL, "ha_token": house.UserToken()}}, // only what is required
	)
	manifest, configs, root := startAsDesktop(t, bundle, cases)
	if manifest.Server.Type != "binary" {
		t.Errorf("server type %q, want binary", manifest.Server.Type)
	}

	// Each platform's command is a native program in the bundle.
	for i, platform := range platforms {
		cfg := configs[i]
		if cfg == nil {
			t.Fatalf("%s: Claude Desktop would not start the bundle with every answer given", platform)
		}
		if !slices.Equal(cfg.Args, []string{"stdio"}) {
			t.Errorf("%s: args %q, want [stdio]", platform, cfg.Args)
		}
		rel, err := filepath.Rel(root, cfg.Command)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s: the command %s is outside the bundle", platform, cfg.Command)
			continue
		}
		data, err := os.ReadFile(cfg.Command)
		if err != nil {
			t.Errorf("%s: %v", platform, err)
			continue
		}
		switch platform {
		case "darwin":
			fat, err := macho.NewFatFile(bytes.NewReader(data))
			if err != nil {
				t.Errorf("darwin: %s is not a universal executable: %v", rel, err)
				continue
			}
			cpus := map[macho.Cpu]bool{}
			for _, a := range fat.Arches {
				cpus[a.Cpu] = true
				if a.Type != macho.TypeExec {
					t.Errorf("darwin: the %v slice is not an executable", a.Cpu)
				}
				if a.Cpu == macho.CpuArm64 && !hasLoadCmd(a.File, 0x1d) { // LC_CODE_SIGNATURE
					t.Error("darwin: the arm64 slice has no code signature; Apple silicon would refuse to run it")
				}
			}
			if !cpus[macho.CpuArm64] || !cpus[macho.CpuAmd64] || len(fat.Arches) != 2 {
				t.Errorf("darwin: slices %v, want arm64 and amd64", cpus)
			}
		case "win32":
			f, err := pe.NewFile(bytes.NewReader(data))
			if err != nil || f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !strings.HasSuffix(rel, ".exe") {
				t.Errorf("win32: %s is not an amd64 .exe (%v)", rel, err)
			}
		case "linux":
			f, err := elf.NewFile(bytes.NewReader(data))
			if err != nil || f.Machine != elf.EM_X86_64 {
				t.Errorf("linux: %s is not an amd64 ELF executable (%v)", rel, err)
			}
		}
		for k := range cfg.Env {
			if !known[k] {
				t.Errorf("%s: the bundle sets %s, which maison does not read", platform, k)
			}
		}
	}

	// The token is asked as a secret, and without it nothing starts.
	if tok := manifest.UserConfig["ha_token"]; !tok.Sensitive || !tok.Required {
		t.Error("the token is not asked as a required, sensitive answer")
	}
	if configs[3] != nil {
		t.Error("Claude Desktop would start the bundle without a token")
	}
	// Optional answers left empty reach maison as empty, not as ${user_config.…}.
	if cfg := configs[4]; cfg == nil {
		t.Error("Claude Desktop would not start the bundle with only the required answers")
	} else {
		for k, v := range cfg.Env {
			if strings.Contains(v, "${") {
				t.Errorf("with only the required answers, %s=%q", k, v)
			}
		}
	}

	// Started as Claude Desktop starts it on this machine, it answers over stdio.
	cfg := configs[2]
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + root}
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr testkit.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "claude-desktop-like", Version: "test"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	if info := cs.InitializeResult().ServerInfo; info.Name != "maison" || info.Version != version {
		t.Errorf("serverInfo %s %s, want maison %s", info.Name, info.Version, version)
	}
	demotest.UntilActionsOffered(t, cs)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v\n%s", err, stderr.String())
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range wantTools {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list from the bundle lacks %s (has %v)", want, names)
		}
	}
	// The manifest shows Claude Desktop's users maison's own tools, all of
	// them (Home Assistant's passed-through ha_… tools depend on the house).
	var declared, own []string
	for _, tl := range manifest.Tools {
		declared = append(declared, tl.Name)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "ha_") {
			own = append(own, n)
		}
	}
	slices.Sort(declared)
	slices.Sort(own)
	if !slices.Equal(declared, own) {
		t.Errorf("the manifest declares the tools %v; maison has %v", declared, own)
	}
	said := demotest.Text(demotest.Call(t, cs, "list_cameras", nil))
	if !strings.Contains(said, "Garage") || strings.Contains(said, "Backyard") || !strings.Contains(said, "caméra") {
		t.Errorf("list_cameras from the bundle, with cameras front door and garage in French: %s", said)
	}
	if s := stderr.String(); strings.Contains(s, house.UserToken()) {
		t.Error("the bundle's log shows the token")
	}
}

// hasLoadCmd reports whether a Mach-O file has a load command of that kind.
func hasLoadCmd(f *macho.File, cmd uint32) bool {
	for _, l := range f.Loads {
		raw := l.Raw()
		if len(raw) >= 4 && f.ByteOrder.Uint32(raw) == cmd {
			return true
		}
	}
	return false
}

func checkHomeAssistantAppRepository(t *testing.T, dir, version string) {
	f, err := os.Open(filepath.Join(dir, "maison-"+version+"-homeassistant-app.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	modes := map[string]int64{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		data, _ := io.ReadAll(tr)
		files[name], modes[name] = data, h.Mode
	}
	var repo map[string]any
	if err := yaml.Unmarshal(files["repository.yaml"], &repo); err != nil || repo["name"] == nil {
		t.Errorf("repository.yaml must name the repository: %v %v", repo, err)
	}
	var cfg struct {
		Version string   `yaml:"version"`
		Arch    []string `yaml:"arch"`
		Slug    string   `yaml:"slug"`
	}
	if err := yaml.Unmarshal(files["maison/config.yaml"], &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != strings.TrimPrefix(version, "v") {
		t.Errorf("the app's version is %q, want %q", cfg.Version, strings.TrimPrefix(version, "v"))
	}
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}
	for _, a := range cfg.Arch {
		name := "maison/maison-linux-" + a
		data, ok := files[name]
		if !ok {
			t.Errorf("arch %s: %s is not in the app", a, name)
			continue
		}
		ef, err := elf.NewFile(bytes.NewReader(data))
		if err != nil || ef.Machine != machine[dockerArch[a]] {
			t.Errorf("%s is not a %s executable (%v)", name, a, err)
		}
		if modes[name]&0o111 == 0 {
			t.Errorf("%s is not executable", name)
		}
	}
	for _, name := range []string{"maison/Dockerfile", "maison/DOCS.md", "maison/icon.png", "maison/logo.png", "maison/translations/en.yaml", "maison/translations/fr.yaml"} {
		if len(files[name]) == 0 {
			t.Errorf("%s is missing from the app", name)
		}
	}
	for _, name := range []string{"maison/rootfs/etc/services.d/maison/run", "maison/rootfs/etc/services.d/maison/finish"} {
		if modes[name]&0o111 == 0 {
			t.Errorf("%s is missing or not executable", name)
		}
	}
	if n := regexp.MustCompile(`(?m)^version:`).FindAll(files["maison/config.yaml"], -1); len(n) != 1 {
		t.Errorf("the app's config.yaml has %d version lines", len(n))
	}
}

// checkARMBinariesRun runs the Raspberry Pi class binaries under qemu-user:
// they say their version, serve the demo house's tools over stdio, and fit
// pictures to the very bytes the amd64 binary makes (32-bit ARM computes the
// IDCT in 64-bit integers too).
func checkARMBinariesRun(t *testing.T, dir, version string) {
	host := filepath.Join(dir, "maison-"+version+"-linux-amd64")
	pictures := []string{"../../fixtures/jpeg/base.main-1920x1080.jpeg", "../../fixtures/jpeg/base.progressive-1280x720.jpeg", fourK(t)}
	fit := func(t *testing.T, argv []string, in string) []byte {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.jpeg")
		cmd := exec.Command(argv[0], append(argv[1:], "fit", in, out)...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v fit %s: %v\n%s", argv, in, err, msg)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, arm := range []struct{ arch, qemu, goarch string }{{"armv7", "qemu-arm", "arm"}, {"arm64", "qemu-aarch64", "arm64"}} {
		t.Run(arm.arch, func(t *testing.T) {
			qemu := lookPathOrSkip(t, arm.qemu, "Debian qemu-user")
			argv := []string{qemu, filepath.Join(dir, "maison-"+version+"-linux-"+arm.arch)}
			out, err := exec.Command(argv[0], append(argv[1:], "--version")...).Output()
			if err != nil || !strings.HasPrefix(string(out), "maison "+version+" (linux/"+arm.goarch+", go") {
				t.Errorf("--version under %s: %q, %v", arm.qemu, out, err)
			}
			for _, in := range pictures {
				if !bytes.Equal(fit(t, argv, in), fit(t, []string{host}, in)) {
					t.Errorf("%s fits %s to other bytes than linux/amd64 does", arm.arch, filepath.Base(in))
				}
			}
			cmd := exec.Command(argv[0], append(argv[1:], "stdio", "--demo")...)
			var stderr testkit.Buffer
			cmd.Stderr = &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: "pi-check", Version: "test"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("stdio --demo under %s: %v\n%s", arm.qemu, err, stderr.String())
			}
			defer cs.Close()
			tools, err := cs.ListTools(t.Context(), nil)
			if err != nil || !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "camera_snapshot" }) {
				t.Errorf("tools/list under %s: %v", arm.qemu, err)
			}
		})
	}
}

// fourK writes a 3840x2160 picture with detail everywhere, as a 4K camera
// sends: fitting it decodes at reduced scale, through the reduced IDCTs.
func fourK(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3840, 2160))
	for y := 0; y < 2160; y++ {
		for x := 0; x < 3840; x++ {
			v := uint32(x*7+y*13) ^ uint32(x*y)
			img.Pix[y*img.Stride+x*4+0] = uint8(v)
			img.Pix[y*img.Stride+x*4+1] = uint8(x / 15)
			img.Pix[y*img.Stride+x*4+2] = uint8(y / 9)
			img.Pix[y*img.Stride+x*4+3] = 255
		}
	}
	path := filepath.Join(t.TempDir(), "4k.jpeg")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReleaseKeepsWhatIsNotItsOwn builds into a folder that already holds a
// person's files, some named maison-…, and a name with a space: only the
// release's own files are replaced, and SHA256SUMS lists only them.
func TestReleaseKeepsWhatIsNotItsOwn(t *testing.T) {
	t.Parallel()
	longtest.Only(t)
	lookPathOrSkip(t, "bash", "bash")
	out := filepath.Join(t.TempDir(), "my releases")
	keep := map[string]string{
		"maison-load/main.go":      "package main\n", // as in the repository's root
		"maison-notes.txt":         "notes\n",
		"notes.txt":                "notes\n",
		"maison-old-linux-amd64/x": "a folder, not a release file\n",
	}
	for name, content := range keep {
		os.MkdirAll(filepath.Join(out, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An earlier release's file is replaced.
	old := filepath.Join(out, "maison-v0.0.1-linux-amd64")
	os.WriteFile(old, []byte("an earlier release"), 0o755)
	cmd := exec.Command("bash", "../../scripts/release", "--version", "v0.0.2", "--allow-dirty", "--out", out, "--targets", "linux/amd64", "--no-bundle", "--no-app")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, b)
	}
	for name, content := range keep {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != content {
			t.Errorf("%s was removed or changed by the release (%v)", name, err)
		}
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("an earlier release's binary was left beside the new one")
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(sums)), "\n")
	if len(lines) != 1 || !strings.HasSuffix(lines[0], "  maison-v0.0.2-linux-amd64") {
		t.Errorf("SHA256SUMS lists what the release did not make:\n%s", sums)
	}
}

// TestReleaseOfADirtyTree: a tree with changes no commit holds (a file
// changed, or a new one, which go build compiles too) is never stamped with a
// release's version, and its default version says -dirty.
func TestReleaseOfADirtyTree(t *testing.T) {
	t.Parallel()
	longtest.Only(t)
	lookPathOrSkip(t, "bash", "bash")
	git := lookPathOrSkip(t, "git", "Debian git")
	clone := filepath.Join(t.TempDir(), "maison")
	if b, err := exec.Command(git, "clone", "--quiet", "--shared", "../..", clone).CombinedOutput(); err != nil {
		t.Skipf("this test clones the repository it runs in: %v\n%s", err, b)
	}
	// The script under test is this tree's, committed in the clone.
	script, err := os.ReadFile("../../scripts/release")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(clone, "scripts/release"), script, 0o755)
	if b, err := exec.Command(git, "-C", clone, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "--quiet", "--allow-empty", "-am", "this tree's scripts/release").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	// A new, untracked file in a package the release builds.
	if err := os.WriteFile(filepath.Join(clone, "cmd/maison/extra.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(clone, "scripts/release"), "--version", "v1.0.0", "--out", out, "--targets", "linux/amd64", "--no-bundle", "--no-app")
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "not in any commit") || !strings.Contains(string(b), "--allow-dirty") {
		t.Errorf("a release v1.0.0 of a tree with a new file: %v\n%s", err, b)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "maison-v1.0.0-*")); len(m) > 0 {
		t.Errorf("the dirty tree was stamped v1.0.0: %v", m)
	}
	cmd = exec.Command("bash", filepath.Join(clone, "scripts/release"), "--out", out, "--targets", "linux/amd64", "--no-bundle", "--no-app")
	b, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the default version of a dirty tree: %v\n%s", err, b)
	}
	// An untagged commit's version cannot be ordered for updates: said.
	if !strings.Contains(string(b), "is not a version such as v0.3.0") {
		t.Errorf("an untagged version is not said to be one:\n%s", b)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "maison-*-dirty-linux-amd64")); len(m) != 1 {
		entries, _ := os.ReadDir(out)
		t.Errorf("the default version of a tree with a new file does not say -dirty: %v", entries)
	}
}

// TestReleaseWithoutMcpbFailsBeforeCompiling: with no mcpb CLI on PATH, a
// release that would build the Claude Desktop bundle stops at once, before
// compiling anything, naming the npm package and --no-bundle in one sentence.
func TestReleaseWithoutMcpbFailsBeforeCompiling(t *testing.T) {
	t.Parallel()
	lookPathOrSkip(t, "bash", "bash")
	// PATH as it is, less any folder holding mcpb, behind a go that records
	// being run: it must not be.
	fake := t.TempDir()
	ran := filepath.Join(fake, "go-was-run")
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >>%q\nexit 1\n", ran)
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	path := []string{fake}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "mcpb")); err != nil {
			path = append(path, dir)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "../../scripts/release", "--version", "v0.0.3", "--allow-dirty", "--out", out)
	cmd.Env = append(os.Environ(), "PATH="+strings.Join(path, string(filepath.ListSeparator)))
	b, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("scripts/release without mcpb succeeded:\n%s", b)
	}
	var sentence string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "mcpb") {
			sentence = line
		}
	}
	for _, want := range []string{"npm install -g @anthropic-ai/mcpb", "--no-bundle"} {
		if !strings.Contains(sentence, want) {
			t.Errorf("the line about mcpb lacks %q:\n%s", want, b)
		}
	}
	if log, err := os.ReadFile(ran); err == nil {
		t.Errorf("go was run before the missing mcpb was said: go %s", log)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "maison-*")); len(m) > 0 {
		t.Errorf("something was built: %v", m)
	}
}
