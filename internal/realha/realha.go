// Package realha finds the real Home Assistant that `scripts/realha up`
// started, for the tests that check maison against it.
package realha

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// EnvVar names the file `scripts/realha up` wrote.
const EnvVar = "MAISON_REAL_HA"

// House is a running real Home Assistant and its tokens.
type House struct {
	URL        string // MAISON_HA_URL
	Token      string // MAISON_HA_TOKEN: maison's user, not an administrator, local only
	OwnerToken string // REALHA_OWNER_TOKEN: the owner's, for tests that change the house
	Version    string // REALHA_VERSION
	Script     string // REALHA_SCRIPT: scripts/realha, for restart
	Cache      string // REALHA_CACHE: where the script keeps the environment and the house
	Port       string // REALHA_PORT: Home Assistant's port on 127.0.0.1
}

// Command runs scripts/realha with verb (restart, down) on this house: the
// cache and port it was started with, whatever the caller's environment says.
func (h House) Command(ctx context.Context, verb string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, h.Script, verb)
	cmd.Env = append(os.Environ(), "REALHA_CACHE="+h.Cache, "REALHA_PORT="+h.Port)
	return cmd
}

// Load reads the file MAISON_REAL_HA names, or skips the test saying how to
// bring a real Home Assistant up.
func Load(t testing.TB) House {
	t.Helper()
	path := os.Getenv(EnvVar)
	if path == "" {
		t.Skip("needs a real Home Assistant: run `scripts/realha up` as root (with sudo where you have it), then set MAISON_REAL_HA to the file it names")
	}
	h, err := Read(path)
	if err != nil {
		t.Fatalf("MAISON_REAL_HA=%s: %v", path, err)
	}
	return h
}

// Read parses the KEY=value lines `scripts/realha up` wrote.
func Read(path string) (House, error) {
	f, err := os.Open(filepath.Clean(path))
	if err != nil {
		return House{}, fmt.Errorf("reading the real house's file: %w", err)
	}
	defer f.Close()
	vals := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if ok {
			vals[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		return House{}, fmt.Errorf("reading the real house's file: %w", err)
	}
	h := House{
		URL: vals["MAISON_HA_URL"], Token: vals["MAISON_HA_TOKEN"], OwnerToken: vals["REALHA_OWNER_TOKEN"],
		Version: vals["REALHA_VERSION"], Script: vals["REALHA_SCRIPT"],
		Cache: vals["REALHA_CACHE"], Port: vals["REALHA_PORT"],
	}
	for k, v := range map[string]string{
		"MAISON_HA_URL": h.URL, "MAISON_HA_TOKEN": h.Token, "REALHA_OWNER_TOKEN": h.OwnerToken, "REALHA_VERSION": h.Version,
		"REALHA_SCRIPT": h.Script, "REALHA_CACHE": h.Cache, "REALHA_PORT": h.Port,
	} {
		if v == "" {
			return House{}, fmt.Errorf("%s is missing from %s: run `scripts/realha up` again", k, path)
		}
	}
	return h, nil
}
