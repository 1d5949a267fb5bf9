package picture_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"maison/camera/picture"
	"maison/internal/camframe"
	"maison/jpegfix"
)

// TestFrameWithoutHeightIsNotAPicture: a frame header of height 0 (the
// height left to a DNL segment, which libjpeg and Go do not read) is
// repaired with its data unchecked; the camera path then decoded it to
// nothing and refused its own re-encoded frame as "zero pixels wide",
// a jpegfix refusal that sent it fetching again. It is not a picture.
func TestFrameWithoutHeightIsNotAPicture(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../fixtures/jpeg/base.sub-640x480.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	sof := bytes.Index(b, []byte{0xff, 0xc0})
	b = bytes.Clone(b)
	b[sof+5], b[sof+6] = 0, 0
	_, _, err = picture.Process(b, picture.Limits{})
	var fe jpegfix.FormatError
	if !errors.Is(err, picture.ErrNotImage) || errors.As(err, &fe) {
		t.Errorf("err = %v, want ErrNotImage and no jpegfix refusal", err)
	}
}

// TestLargeProgressiveFrameLeftToGoIsRefused: a frame jpegscale does not
// decode (four components) goes to Go's decoder at full size, which keeps
// 256 bytes of coefficients per block of a progressive frame: a 390 KB
// progressive CMYK frame of 7000×7000 cost it 17 s and 1.3 GB. Such a
// frame is refused from its header beyond 8 megapixels; a smaller one is
// still shown.
func TestLargeProgressiveFrameLeftToGoIsRefused(t *testing.T) {
	t.Parallel()
	_, _, err := picture.Process(camframe.ProgressiveBomb(7000, 7000, 4, 4, false), picture.Limits{})
	if !errors.Is(err, picture.ErrNotImage) {
		t.Errorf("err = %v, want ErrNotImage", err)
	}
	fit, _, err := picture.Process(camframe.ProgressiveBomb(640, 480, 4, 4, false), picture.Limits{})
	if err != nil || len(fit.JPEG) == 0 {
		t.Errorf("a small progressive CMYK frame: %v", err)
	}
}

// TestFrameClaimingTooManyPixelsIsNotDecoded: a frame whose header claims
// 400 megapixels is refused before a decoder allocates for it, on the
// salvage path as on the fit path.
func TestFrameClaimingTooManyPixelsIsNotDecoded(t *testing.T) {
	t.Parallel()
	_, clean, _ := sharedFrame(t, "camera.garage")
	huge := bytes.Clone(clean)
	sof := bytes.Index(huge, []byte{0xff, 0xc0})
	huge[sof+5], huge[sof+6], huge[sof+7], huge[sof+8] = 0x4e, 0x20, 0x4e, 0x20 // 20000×20000
	_, rep, _ := jpegfix.Repair(huge)
	_, _, err := picture.Salvage(huge, rep, picture.Limits{}, nil)
	if !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "more than any camera sends") {
		t.Errorf("salvaging a frame claiming 20000×20000 pixels: %v", err)
	}
	if _, err := picture.Fit(huge, picture.Limits{}); !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "more than any camera sends") {
		t.Errorf("fitting a frame claiming 20000×20000 pixels: %v", err)
	}
}
