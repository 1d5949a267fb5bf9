package main

import (
	"bytes"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maison/demotest"
)

func TestFitCommand(t *testing.T) {
	t.Parallel()
	house := demotest.NewHouse(t, demotest.Options{})
	dir := t.TempDir()
	served, clean, _ := house.Frame("camera.garage")
	in, out := filepath.Join(dir, "garage.jpeg"), filepath.Join(dir, "garage.out.jpeg")
	os.WriteFile(in, served, 0o644)
	var stdout, stderr bytes.Buffer
	if code := runFit([]string{in, out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, clean) || !strings.Contains(stdout.String(), "a comment segment announced 4,094 bytes") {
		t.Errorf("garage through maison fit: %d bytes (clean is %d): %s", len(got), len(clean), stdout.String())
	}
	_, big, _ := house.Frame("camera.backyard")
	os.WriteFile(in, big, 0o644)
	if code := runFit([]string{in, out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ = os.ReadFile(out)
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(got))
	if err != nil || cfg.Width != 1429 || cfg.Height != 804 {
		t.Errorf("4K through maison fit: %+v %v", cfg, err)
	}
	os.WriteFile(in, []byte("<html>camera error</html>"), 0o644)
	if code := runFit([]string{in, out}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "not a picture") {
		t.Errorf("an HTML body: exit %d: %s", code, stderr.String())
	}
}

// A setting given to maison fit, which takes none, is refused by name and
// its value, which may be a secret, is never shown.
func TestFitRefusesSettingsWithoutEchoingThem(t *testing.T) {
	t.Parallel()
	var stdout, stderr strings.Builder
	if code := runFit([]string{"--token=SECRETVALUE", "out.jpg"}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if strings.Contains(stderr.String()+stdout.String(), "SECRETVALUE") || !strings.Contains(stderr.String(), "--token is not a flag of maison: MAISON_TOKEN is read from the environment only") {
		t.Errorf("said %q", stderr.String())
	}
}
