package picture_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"maison/camera/picture"
	"maison/jpegfix"
	"maison/jpegscale"
)

// outcome is what the camera path makes of a frame of the third corpus.
type outcome int

const (
	passed    outcome = iota // repaired, a strict JPEG, passed on as repaired
	reencoded                // decoded and sent on re-encoded, baseline Y'CbCr
	refused                  // refused from its header, for a setting of the camera
	damaged                  // refused as damaged in its data; the part that decodes is shown
)

// thirdCorpus is every frame of fixtures/jpeg/third.* with what must
// become of it (fixtures/jpeg/README.md says why each is there).
var thirdCorpus = []struct {
	file string
	want outcome
	why  picture.Unusable // for refused
}{
	{"third.twelve-bit.jpeg", refused, picture.UnusableTwelveBit},
	{"third.arithmetic.jpeg", refused, picture.UnusableArithmetic},
	{"third.lossless.jpeg", refused, picture.UnusableLossless},
	{"third.dnl.jpeg", refused, picture.UnusableNoHeight},
	{"third.rgb-adobe.jpeg", reencoded, 0},
	{"third.rgb-no-adobe.jpeg", reencoded, 0},
	{"third.rgb-progressive.jpeg", reencoded, 0},
	{"third.adobe-cmyk.jpeg", reencoded, 0},
	{"third.adobe-cmyk-progressive.jpeg", reencoded, 0},
	{"third.adobe-ycck.jpeg", reencoded, 0},
	{"third.corrupt-rst.jpeg", damaged, 0},
	{"third.mpo-two-frames.jpeg", passed, 0},
	{"third.exif-broken-thumbnail.jpeg", passed, 0},
	{"third.icc-17-chunks.jpeg", passed, 0},
}

// TestThirdCorpus holds every frame of the third corpus to its outcome:
// refused from its header before any data is walked (with the setting to
// blame), re-encoded to a baseline Y'CbCr JPEG, passed on repaired and
// strict, or shown in part as damaged; every picture that leaves is
// strict, under djpeg -strict too where it is installed.
func TestThirdCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "jpeg", "third.*"))
	if len(files) != len(thirdCorpus) {
		t.Errorf("%d third.* fixtures, %d listed here", len(files), len(thirdCorpus))
	}
	for _, c := range thirdCorpus {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "jpeg", c.file))
			if err != nil {
				t.Fatal(err)
			}
			f, rep, err := picture.Repair(raw)
			switch c.want {
			case refused:
				if got := picture.Unusability(err); got != c.why {
					t.Fatalf("refused as %d (%v), want %d", got, err, c.why)
				}
				if !errors.Is(err, picture.ErrNotImage) {
					t.Errorf("%v is not ErrNotImage", err)
				}
				var fe jpegfix.FormatError
				if errors.As(err, &fe) {
					t.Errorf("refused as damaged (%v): a camera setting is not fetched again", err)
				}
				return
			case damaged:
				var fe jpegfix.FormatError
				if !errors.As(err, &fe) || !fe.InData {
					t.Fatalf("repair: %v, want refused for damage in the data", err)
				}
				part, d, err := picture.Salvage(t.Context(), raw, rep, picture.Limits{}, err)
				if err != nil || d.Shown < 0.5 {
					t.Fatalf("salvage: %v, %.0f%% shown", err, 100*d.Shown)
				}
				fit, err := part.Fit(t.Context(), picture.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				strictDjpeg(t, fit.JPEG)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			fit, err := f.Fit(t.Context(), picture.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			switch c.want {
			case passed:
				if fit.Reencoded {
					t.Errorf("re-encoded, want passed on repaired")
				}
			case reencoded:
				if !fit.Reencoded || !jpegscale.Standard(fit.JPEG) || !bytes.Contains(fit.JPEG[:200], []byte{0xff, 0xc0}) {
					t.Errorf("want re-encoded to a baseline Y'CbCr JPEG (re-encoded %v)", fit.Reencoded)
				}
			}
			if err := jpegfix.Check(fit.JPEG); err != nil {
				t.Error(err)
			}
			strictDjpeg(t, fit.JPEG)
		})
	}
}

// strictDjpeg checks b under djpeg -strict, when it is installed.
func strictDjpeg(t *testing.T, b []byte) {
	t.Helper()
	if _, err := exec.LookPath("djpeg"); err != nil {
		t.Log("djpeg not found (libjpeg-turbo-progs): strict libjpeg check skipped")
		return
	}
	cmd := exec.CommandContext(t.Context(), "djpeg", "-strict")
	cmd.Stdin = bytes.NewReader(b)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("djpeg -strict: %v: %.200s", err, out)
	}
}
