package jpegfix_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"maison/internal/camframe"
	"maison/jpegfix"
)

const fixtureDir = "../fixtures/jpeg"

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// needTool skips the test when an outside tool is missing.
func needTool(t testing.TB, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("jpegfix: %s not found; install %s", tool, pkg)
	}
}

// djpeg decodes b with libjpeg in strict mode (the first warning is an
// error) and returns the PPM/PGM pixels.
func djpeg(t testing.TB, b []byte) ([]byte, error) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "djpeg", "-strict", "-ppm")
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New(strings.TrimSpace(stderr.String()) + ": " + err.Error())
	}
	return out, nil
}

// jpeginfo runs jpeginfo -c on b through a temporary file.
func jpeginfo(t testing.TB, b []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frame.jpeg")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), "jpeginfo", "-c", path).CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "OK") {
		return errors.New(strings.TrimSpace(string(out)))
	}
	return nil
}

// strip removes the APPn segments that metadata stripping drops, walking
// the header independently of jpegfix: every APPn but APP0 JFIF, APP2
// ICC_PROFILE and APP14 Adobe.
func strip(t *testing.T, b []byte) []byte {
	t.Helper()
	out := append([]byte(nil), b[:2]...)
	p := 2
	for b[p+1] != 0xda {
		l := int(b[p+2])<<8 | int(b[p+3])
		seg := b[p : p+2+l]
		id := string(seg[4:min(len(seg), 16)])
		keep := true
		if c := seg[1]; c >= 0xe0 && c <= 0xef {
			keep = c == 0xe0 && strings.HasPrefix(id, "JFIF\x00") ||
				c == 0xe2 && strings.HasPrefix(id, "ICC_PROFILE\x00") ||
				c == 0xee && strings.HasPrefix(id, "Adobe")
		}
		if keep {
			out = append(out, seg...)
		}
		p += 2 + l
	}
	return append(out, b[p:]...)
}

// TestFixturesRepairToTheirCleanFrame checks every fixture against the clean
// frame its defect was injected into: byte for byte, through libjpeg in
// strict mode and jpeginfo, and by libjpeg's decoded pixels.
func TestFixturesRepairToTheirCleanFrame(t *testing.T) {
	t.Parallel()
	for _, c := range camframe.Cases {
		name := c.File
		if c.Strip {
			name += "/strip"
		}
		if c.Verify {
			name += "/verify"
		}
		t.Run(name, func(t *testing.T) {
			in := readFixture(t, c.File)
			out, rep, err := jpegfix.Options{StripMetadata: c.Strip, VerifyData: c.Verify}.Repair(in)
			if c.Want == camframe.WantRefused {
				var fe jpegfix.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("Repair: got err %v, want a FormatError (%s)", err, c.Problem)
				}
				if fe.Problem.String() != c.Problem {
					t.Errorf("Problem = %q, want %q (%v)", fe.Problem, c.Problem, err)
				}
				if out != nil {
					t.Errorf("refused but returned %d bytes", len(out))
				}
				if !strings.HasPrefix(err.Error(), "jpegfix: ") || strings.ToLower(err.Error()[:12]) != err.Error()[:12] {
					t.Errorf("error %q: want lowercase and prefixed", err)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatalf("Repair: %v", err)
			}
			for _, s := range rep.Sentences() {
				t.Log(s)
			}
			if rep.Defects() == 0 {
				t.Errorf("Defects() = 0 for a damaged fixture")
			}
			if rep.InBytes != len(in) || rep.OutBytes != len(out) {
				t.Errorf("report sizes %d→%d, want %d→%d", rep.InBytes, rep.OutBytes, len(in), len(out))
			}
			base := readFixture(t, c.Base)
			want := base
			if c.Want == camframe.WantBaseStripped {
				want = strip(t, base)
				if len(want) == len(base) {
					t.Fatal("the base has nothing to strip")
				}
			}
			if !bytes.Equal(out, want) {
				t.Errorf("output (%d bytes) differs from the clean frame (%d bytes)", len(out), len(want))
			}
			if err := jpegfix.Check(out); err != nil {
				t.Errorf("Check: %v", err)
			}
			if c.Strip {
				for _, id := range []string{"Exif\x00", "http://ns.adobe.com/xap", "MAISON-TEST-0001"} {
					if bytes.Contains(out, []byte(id)) {
						t.Errorf("stripped output still holds %q", id)
					}
				}
				if !bytes.Contains(out, []byte("ICC_PROFILE\x00")) {
					t.Error("stripped output lost the ICC profile")
				}
			}
			needTool(t, "djpeg", "libjpeg-turbo-progs")
			needTool(t, "jpeginfo", "jpeginfo")
			if _, err := djpeg(t, in); err == nil && c.Want == camframe.WantBase {
				t.Logf("note: djpeg -strict accepts the damaged input")
			}
			got, err := djpeg(t, out)
			if err != nil {
				t.Fatalf("djpeg -strict on the output: %v", err)
			}
			clean, err := djpeg(t, base)
			if err != nil {
				t.Fatalf("djpeg -strict on the clean frame: %v", err)
			}
			if !bytes.Equal(got, clean) {
				t.Error("libjpeg decodes the output to other pixels than the clean frame")
			}
			if err := jpeginfo(t, out); err != nil {
				t.Errorf("jpeginfo -c: %v", err)
			}
		})
	}
}

// TestBaseFramesPassThrough checks that clean frames, with their legal
// oddities (progressive scans, restart markers, an Exif thumbnail holding
// FF D8 and FF D9, an ICC profile), come out byte for byte with no fix.
func TestBaseFramesPassThrough(t *testing.T) {
	t.Parallel()
	for _, b := range camframe.Bases {
		t.Run(b.File, func(t *testing.T) {
			in := readFixture(t, b.File)
			out, rep, err := jpegfix.Repair(in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, in) || len(rep.Fixes) != 0 {
				t.Errorf("clean frame changed: %d→%d bytes, fixes %v", len(in), len(out), rep.Sentences())
			}
			if err := jpegfix.Check(in); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

// TestFixturesAreReproducible checks that each committed defect file is what
// its builder makes from the committed base frame, that the README names
// every file, and that no file goes undocumented.
func TestFixturesAreReproducible(t *testing.T) {
	t.Parallel()
	readme := string(readFixture(t, "README.md"))
	known := map[string]bool{}
	for _, b := range camframe.Bases {
		known[b.File] = true
		if !strings.Contains(readme, "`"+b.File+"`") {
			t.Errorf("README does not describe %s", b.File)
		}
	}
	for _, c := range camframe.Cases {
		known[c.File] = true
		if !strings.Contains(readme, "`"+c.File+"`") {
			t.Errorf("README does not describe %s", c.File)
		}
		if c.Build == nil {
			continue
		}
		var base []byte
		if c.Base != "" {
			base = readFixture(t, c.Base)
		}
		if !bytes.Equal(c.Build(base), readFixture(t, c.File)) {
			t.Errorf("%s differs from what its builder makes; run go generate ./jpegfix", c.File)
		}
	}
	for name, sc := range camframe.Scenes() {
		if strings.Contains(name, "progressive") || strings.Contains(name, "restart") || strings.Contains(name, "exif") {
			continue // encoded by cjpeg, or assembled with metadata
		}
		q := 80
		if strings.HasPrefix(name, "base.sub-") {
			q = 75
		}
		if !bytes.Equal(sc.JPEG(q), readFixture(t, name)) {
			t.Errorf("%s differs from its scene; run go generate ./jpegfix", name)
		}
	}
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		// The third corpus (third.*) is made by its own script and held
		// to its outcomes by camera/picture's TestThirdCorpus.
		if name != "README.md" && !known[name] && !strings.HasPrefix(name, "third.") {
			t.Errorf("%s is neither a base frame nor a listed case", name)
		}
	}
}

// TestFrame4KWithLyingComment repairs the 3840×2160 frame drawn at test time
// after injecting the Dahua comment pair.
func TestFrame4KWithLyingComment(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("draws and encodes a 4K frame")
	}
	base := camframe.Frame4K()
	in := slices.Concat(base[:2], camframe.DahuaComments(4094, 608), base[2:])
	out, rep, err := jpegfix.Repair(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, base) {
		t.Fatalf("output differs from the clean frame; fixes: %v", rep.Sentences())
	}
	if rep.Defects() != 1 || len(rep.Fixes) != 2 {
		t.Errorf("fixes %v, want the lying comment and the valid one", rep.Sentences())
	}
	needTool(t, "djpeg", "libjpeg-turbo-progs")
	if _, err := djpeg(t, out); err != nil {
		t.Errorf("djpeg -strict: %v", err)
	}
}
