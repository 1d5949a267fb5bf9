package fuzz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"maison/jpegfix"
)

// FuzzRepairVerdict compares jpegfix's verdict with libjpeg's, the strict
// decoder this project answers to, through djpeg -strict and jpeginfo -c:
//
//   - every frame Repair with VerifyData calls repaired, its data walked
//     whole, must decode under both without a warning;
//   - every input both accept as it is must be repaired, not refused (a
//     strictly valid frame loses nothing), except when its data holds a
//     code no Huffman table defines, which libjpeg-turbo's fast path reads
//     as a zero without a warning and jpegfix refuses as damage.
//
// It needs djpeg (libjpeg-turbo-progs) and jpeginfo (jpeginfo), and skips
// naming them when they are missing. Each input costs a process or two, so
// run it by hand for long, without minimizing new inputs (minimizing a
// 30 KB frame against two decoders stalls a worker for a minute):
//
//	go test ./fuzz -run '^$' -fuzz FuzzRepairVerdict -fuzztime 10m -fuzzminimizetime 0
func FuzzRepairVerdict(f *testing.F) {
	for _, tool := range []struct{ name, pkg string }{{"djpeg", "libjpeg-turbo-progs"}, {"jpeginfo", "jpeginfo"}} {
		if _, err := exec.LookPath(tool.name); err != nil {
			f.Skipf("fuzz: %s not found; install %s", tool.name, tool.pkg)
		}
	}
	// Small frames keep each decoder run short; the committed corpus holds
	// tiny progressive, restart-interval, grey and 4:2:2 and 4:4:4 frames.
	for _, name := range []string{"base.sub-640x480.jpeg", "base.ir-progressive-640x480.jpeg", "esp32cam.missing-eoi.jpeg", "dahua.com-too-short.jpeg"} {
		b, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	dir := f.TempDir()
	count, decoded := tally("FuzzRepairVerdict"), tally("FuzzRepairVerdict.decoded")
	f.Fuzz(func(t *testing.T, in []byte) {
		count()
		out, rep, err := jpegfix.Options{VerifyData: true}.Repair(in)
		if err == nil && rep.Unchecked == "" {
			decoded()
			if why := strictDecoders(t, dir, out); why != "" {
				t.Fatalf("jpegfix called the frame repaired but %s\nfixes: %q", why, rep.Sentences())
			}
			return
		}
		if err == nil || len(in) < 4 || in[0] != 0xff || in[1] != 0xd8 {
			return
		}
		if strings.Contains(err.Error(), "code no Huffman table defines") {
			// Stricter than libjpeg-turbo on purpose: its fast decoding
			// path reads a code no table defines as a zero without a
			// warning, so a damaged frame can pass djpeg -strict. The
			// repair without VerifyData refuses it for the same code
			// when it walks that scan too (its data stops without a
			// marker that may follow it).
			if _, _, err := jpegfix.Repair(in); err == nil || strings.Contains(err.Error(), "code no Huffman table defines") {
				return
			}
		}
		if why := strictDecoders(t, dir, in); why == "" {
			t.Fatalf("libjpeg decodes the input strictly, but jpegfix refused it: %v", err)
		}
	})
}

// strictDecoders runs djpeg -strict and jpeginfo -c on b and returns why
// either refused it, or "".
func strictDecoders(t *testing.T, dir string, b []byte) string {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "djpeg", "-strict", "-outfile", os.DevNull)
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("djpeg: %v", err)
		}
		return "djpeg -strict refuses it: " + strings.TrimSpace(stderr.String())
	}
	path := filepath.Join(dir, "verdict.jpeg")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, "jpeginfo", "-c", path).CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "OK") {
		return "jpeginfo -c refuses it: " + strings.TrimSpace(string(out))
	}
	return ""
}

// tally counts events of a fuzz target in this process when
// MAISON_FUZZ_TALLY names a directory, one file per worker and event. The
// progress line of go test -fuzz stops while a worker minimizes a new
// input (up to -fuzzminimizetime, 60s by default, per input), so the
// figures in BENCHMARKS.md are the sums of these files.
func tally(name string) func() {
	dir := os.Getenv("MAISON_FUZZ_TALLY")
	if dir == "" {
		return func() {}
	}
	path := filepath.Join(dir, name+"."+strconv.Itoa(os.Getpid()))
	n := 0
	return func() {
		n++
		if n%256 == 0 {
			_ = os.WriteFile(path, []byte(strconv.Itoa(n)+"\n"), 0o644)
		}
	}
}
