package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func jpegfixFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "jpeg", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runJpegfixIn copies a fixture into a temporary directory as name and runs
// the command with args, where "IN" stands for the copy's path.
func runJpegfixIn(t *testing.T, fixture, name string, args ...string) (dir string, code int, stdout, stderr string) {
	t.Helper()
	dir = t.TempDir()
	in := filepath.Join(dir, name)
	if err := os.WriteFile(in, jpegfixFixture(t, fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		if a == "IN" {
			args[i] = in
		}
	}
	var out, errw bytes.Buffer
	code = runJpegfix(args, &out, &errw)
	return dir, code, out.String(), errw.String()
}

func TestJpegfixRepairsNextToTheInput(t *testing.T) {
	t.Parallel()
	dir, code, stdout, stderr := runJpegfixIn(t, "dahua.com-too-short.jpeg", "garage.jpg", "IN")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "garage.repaired.jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, jpegfixFixture(t, "base.sub-640x480.jpeg")) {
		t.Error("the repaired file is not the clean frame")
	}
	for _, want := range []string{
		"had 1 defect, now repaired: 35,923 bytes became 31,198 bytes",
		"At byte 2, a comment segment announced 4,094 bytes but really spanned 4,702; it was removed.\n",
		"comments are never kept.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout %q lacks %q", stdout, want)
		}
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}
}

func TestJpegfixWritesOutAndStrips(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "porch-clean.jpeg")
	_, code, stdout, stderr := runJpegfixIn(t, "exif.com-too-short.jpeg", "porch.jpeg", "IN", out, "-strip")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte("Exif\x00")) || bytes.Contains(got, []byte("MAISON-TEST-0001")) {
		t.Error("metadata left in the output")
	}
	if !strings.Contains(stdout, "Exif metadata segment (APP1)") || !strings.Contains(stdout, "to strip metadata") {
		t.Errorf("stdout %q does not mention the stripped Exif", stdout)
	}
}

func TestJpegfixRefusesWithTheReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ fixture, reason string }{
		{"reolink.truncated.jpeg", "cut off inside its image data"},
		{"reolink.html-error.jpeg", "HTML"},
		{"restart.rst-out-of-order.jpeg", "restart marker 4 stands at byte 12,040 where restart marker 3 belongs, so the image data between bytes 10,212 and 12,040, about 6% to 8% of the way down the picture, is damaged"},
		{"restart.bytes-lost-in-interval.jpeg", "restart interval 22 of the scan at byte 615, about 46% to 48% of the way down the picture, is missing data: it stops at byte 51,534"},
		{"progressive-restart.truncated.jpeg", "cut off inside its image data"},
	} {
		dir, code, stdout, stderr := runJpegfixIn(t, tc.fixture, "frame.jpeg", "IN")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", tc.fixture, code)
		}
		if !strings.Contains(stderr, "cannot be repaired without loss") || !strings.Contains(stderr, tc.reason) {
			t.Errorf("%s: stderr %q lacks the reason %q", tc.fixture, stderr, tc.reason)
		}
		if !strings.Contains(stderr, "Nothing was written") || !strings.Contains(stderr, "never re-encodes") {
			t.Errorf("%s: stderr %q does not say that nothing was written and why", tc.fixture, stderr)
		}
		if stdout != "" {
			t.Errorf("%s: stdout %q", tc.fixture, stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, "frame.repaired.jpeg")); err == nil {
			t.Errorf("%s: an output was written", tc.fixture)
		}
	}
}

// TestJpegfixWalksTheImageData: extra bytes a webcam leaves before a restart
// marker are found only by walking the data, and dropped.
func TestJpegfixWalksTheImageData(t *testing.T) {
	t.Parallel()
	dir, code, stdout, stderr := runJpegfixIn(t, "c270.extra-bytes-before-rst.jpeg", "webcam.jpg", "IN")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "webcam.repaired.jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, jpegfixFixture(t, "base.restart-1280x720.jpeg")) {
		t.Error("the repaired file is not the clean frame")
	}
	if !strings.Contains(stdout, "2 bytes inside the image data that no block uses were removed.") {
		t.Errorf("stdout %q", stdout)
	}
}

func TestJpegfixCleanFileWritesNothing(t *testing.T) {
	t.Parallel()
	dir, code, stdout, _ := runJpegfixIn(t, "base.sub-640x480.jpeg", "clean.jpeg", "IN")
	if code != 0 || !strings.Contains(stdout, "nothing to repair") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want only the input", len(entries))
	}
}

func TestJpegfixUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		says string
	}{
		{nil, "Usage: maison jpegfix"},
		{[]string{"a", "b", "c"}, "Usage: maison jpegfix"},
		{[]string{"-nope", "a"}, "--nope is not a setting of maison jpegfix (see maison jpegfix --help)"},
	} {
		var out, errw bytes.Buffer
		if code := runJpegfix(c.args, &out, &errw); code != 2 || !strings.Contains(errw.String(), c.says) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, code, errw.String(), c.says)
		}
	}
	var out, errw bytes.Buffer
	if code := runJpegfix([]string{"-h"}, &out, &errw); code != 0 || !strings.Contains(out.String(), "NAME.repaired.jpeg") {
		t.Errorf("-h: exit %d, stdout %q", code, out.String())
	}
	if code := runJpegfix([]string{filepath.Join(t.TempDir(), "missing.jpeg")}, &out, &errw); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
}
