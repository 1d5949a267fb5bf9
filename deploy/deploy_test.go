// Package deploy holds no code: its tests read the Dockerfile and the
// Kubernetes manifests, since no container engine runs where they run, and
// build the binary as the Dockerfile builds it to check it is static.
package deploy

import (
	"bufio"
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"maison/internal/longtest"
)

// stages reads a Dockerfile's instructions per stage, continuation lines
// joined.
func stages(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	var cur string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		l, cur = cur+l, ""
		if strings.HasPrefix(strings.ToUpper(l), "FROM ") {
			out = append(out, nil)
		}
		if len(out) == 0 {
			t.Fatalf("an instruction before FROM: %s", l)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

// The image is a static binary in an empty image, run as a non-root user,
// with no shell to run.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	st := stages(t)
	if len(st) < 2 {
		t.Fatalf("want a build stage and a final stage, got %d stages", len(st))
	}
	final := st[len(st)-1]
	if f := strings.Fields(final[0]); len(f) < 2 || f[1] != "scratch" {
		t.Errorf("the final stage is %q: want FROM scratch (no shell, no package manager)", final[0])
	}
	var user, entry, build string
	for _, l := range final {
		switch up := strings.ToUpper(l); {
		case strings.HasPrefix(up, "USER "):
			user = strings.TrimSpace(l[5:])
		case strings.HasPrefix(up, "ENTRYPOINT "):
			entry = strings.TrimSpace(l[11:])
		case strings.HasPrefix(up, "RUN "), strings.HasPrefix(up, "SHELL "):
			t.Errorf("the final stage runs something, which needs a shell: %s", l)
		}
	}
	if !regexp.MustCompile(`^[1-9][0-9]*:[1-9][0-9]*$`).MatchString(user) {
		t.Errorf("USER %q: want a numeric non-root user and group, such as 65532:65532", user)
	}
	if !strings.HasPrefix(entry, `["/maison"`) {
		t.Errorf("ENTRYPOINT %s: want the exec form, [\"/maison\"]", entry)
	}
	for _, l := range st[0] {
		if strings.Contains(l, "go build") {
			build = l
		}
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "./cmd/maison"} {
		if !strings.Contains(build, want) {
			t.Errorf("the build %q lacks %s", build, want)
		}
	}
}

// The binary built as the Dockerfile builds it loads no shared library: it
// runs in an empty image.
func TestStaticBinary(t *testing.T) {
	t.Parallel()
	longtest.Only(t)
	if testing.Short() {
		t.Skip("builds maison; run without -short")
	}
	bin := filepath.Join(t.TempDir(), "maison")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "../cmd/maison")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build: %v\n%s", err, stderr.String())
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the binary has a %v program header: it is not static", p.Type)
		}
	}
}

// manifests reads every document of deploy/kubernetes by kind.
func manifests(t *testing.T) map[string]map[string]any {
	t.Helper()
	files, _ := filepath.Glob("kubernetes/*.yaml")
	out := map[string]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var doc map[string]any
			if dec.Decode(&doc) != nil {
				break
			}
			if kind, _ := doc["kind"].(string); kind != "" {
				out[kind] = doc
			}
		}
	}
	return out
}

// at walks a manifest by keys and list indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func TestKubernetesManifests(t *testing.T) {
	t.Parallel()
	m := manifests(t)
	for _, kind := range []string{"Deployment", "Secret", "NetworkPolicy", "Service"} {
		if m[kind] == nil {
			t.Fatalf("deploy/kubernetes has no %s", kind)
		}
	}
	d := m["Deployment"]
	if r := at(d, "spec", "replicas"); r != 2 {
		t.Errorf("replicas %v, want 2", r)
	}
	c := at(d, "spec", "template", "spec", "containers", 0)
	if p := at(c, "livenessProbe", "httpGet", "path"); p != "/healthz" {
		t.Errorf("liveness probe %v, want /healthz", p)
	}
	if p := at(c, "readinessProbe", "httpGet", "path"); p != "/readyz" {
		t.Errorf("readiness probe %v, want /readyz", p)
	}
	if at(d, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true ||
		at(c, "securityContext", "readOnlyRootFilesystem") != true ||
		at(c, "securityContext", "allowPrivilegeEscalation") != false {
		t.Error("the container must run as non-root, read-only, without privilege escalation")
	}
	if at(c, "envFrom", 0, "secretRef", "name") != at(m["Secret"], "metadata", "name") {
		t.Error("the container does not take its keys from the Secret")
	}
	keys, _ := at(m["Secret"], "stringData").(map[string]any)
	for _, k := range []string{"MAISON_TOKEN", "MAISON_SECRET", "MAISON_CONFIRM_KEY"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("the Secret lacks %s", k)
		}
	}
	grace, _ := at(d, "spec", "template", "spec", "terminationGracePeriodSeconds").(int)
	if grace < 25 {
		t.Errorf("terminationGracePeriodSeconds %d: leave room for MAISON_SHUTDOWN_GRACE (20s) to drain", grace)
	}
	var stateURL any
	env, _ := at(c, "env").([]any)
	for _, e := range env {
		if at(e, "name") == "MAISON_STATE_URL" {
			stateURL = at(e, "value")
		}
	}
	store := m["StatefulSet"]
	args, _ := at(store, "spec", "template", "spec", "containers", 0, "args").([]any)
	text := strings.TrimSpace(strings.Join(strings.Fields(strings.Trim(strings.ReplaceAll(fmt.Sprint(args), "[", " "), "]")), " "))
	if stateURL != "redis://"+fmt.Sprint(at(store, "spec", "serviceName"))+":6379" ||
		!strings.Contains(text, "--appendonly yes") || !strings.Contains(text, "--maxmemory-policy noeviction") {
		t.Errorf("the replicas do not share a store that keeps its data and never evicts: MAISON_STATE_URL %v, the store's args %s", stateURL, text)
	}
	if at(m["NetworkPolicy"], "spec", "podSelector", "matchLabels") == nil || at(m["NetworkPolicy"], "spec", "ingress", 0, "from") == nil {
		t.Error("the NetworkPolicy does not limit who reaches maison")
	}
}
