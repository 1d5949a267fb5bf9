package picture_test

import (
	"bytes"
	"context"
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
	_, _, err = picture.Process(context.Background(), b, picture.Limits{})
	var fe jpegfix.FormatError
	if !errors.Is(err, picture.ErrNotImage) || errors.As(err, &fe) {
		t.Errorf("err = %v, want ErrNotImage and no jpegfix refusal", err)
	}
}

// TestLargeProgressiveCMYKFrameIsDecodedScaled: a 390 KB progressive
// CMYK frame of 7000×7000 cost Go's full-size decoder 17 s and 1.3 GB.
// jpegscale reads it at a reduced scale, keeping of each block only the
// coefficients the reduced IDCT reads, within the memory budget.
func TestLargeProgressiveCMYKFrameIsDecodedScaled(t *testing.T) {
	t.Parallel()
	var admitted int64
	mem := picture.NewMemoryNoting(picture.DefaultMemory, func(n int64) { admitted = max(admitted, n) })
	fit, _, err := picture.Process(t.Context(), camframe.ProgressiveBomb(7000, 7000, 4, 4, false), picture.Limits{Memory: mem})
	if err != nil || !fit.Reencoded || fit.SourceWidth != 7000 {
		t.Fatalf("a 7000×7000 progressive CMYK frame: %v (%d×%d from %d×%d)", err, fit.Width, fit.Height, fit.SourceWidth, fit.SourceHeight)
	}
	if admitted == 0 || admitted > picture.DefaultMemory {
		t.Errorf("admitted %d bytes, want some within the %d of the budget", admitted, picture.DefaultMemory)
	}
	fit, _, err = picture.Process(t.Context(), camframe.ProgressiveBomb(640, 480, 4, 4, false), picture.Limits{})
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
	_, _, err := picture.Salvage(context.Background(), huge, rep, picture.Limits{}, nil)
	if !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "more than any camera sends") {
		t.Errorf("salvaging a frame claiming 20000×20000 pixels: %v", err)
	}
	if _, err := picture.Fit(context.Background(), huge, picture.Limits{}); !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "more than any camera sends") {
		t.Errorf("fitting a frame claiming 20000×20000 pixels: %v", err)
	}
}
