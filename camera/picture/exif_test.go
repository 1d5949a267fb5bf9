package picture

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"maison/internal/camframe"
)

// withOrientation inserts an Exif APP1 carrying orientation o after SOI.
func withOrientation(t testing.TB, img image.Image, o uint16, order string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	seg := camframe.OrientationExif(o, order)
	out := append([]byte{0xFF, 0xD8}, seg...)
	return append(out, buf.Bytes()[2:]...)
}

func TestOrientationIsHonoured(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := 0; x < 20; x++ { // the left half is bright
		for y := 0; y < 20; y++ {
			img.Set(x, y, color.White)
		}
	}
	for _, order := range []string{"II", "MM"} {
		src := withOrientation(t, img, 6, order)
		if got := orientation(t, src); got != 6 {
			t.Fatalf("%s: orientation = %d, want 6", order, got)
		}
		fit, err := Fit(context.Background(), src, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if fit.Width != 20 || fit.Height != 40 || !fit.Reencoded {
			t.Errorf("%s: orientation 6 gave %dx%d (re-encoded %v), want 20x40 re-encoded", order, fit.Width, fit.Height, fit.Reencoded)
		}
		out, err := jpeg.Decode(bytes.NewReader(fit.JPEG))
		if err != nil {
			t.Fatal(err)
		}
		// Rotated 90° clockwise to show upright: the bright left half becomes the top.
		if r, _, _, _ := out.At(10, 5).RGBA(); r < 0xC000 {
			t.Errorf("%s: top of the upright image is dark; rotation went the wrong way", order)
		}
	}
	if got := orientation(t, withOrientation(t, img, 1, "II")); got != 1 {
		t.Errorf("orientation 1 read as %d", got)
	}
}

func FuzzOrientation(f *testing.F) {
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	f.Add(withOrientation(f, img, 6, "II"))
	f.Add(withOrientation(f, img, 3, "MM"))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x02})
	f.Fuzz(func(t *testing.T, b []byte) {
		// The camera path reads the orientation in its repair pass, and
		// only of a frame with a header.
		f, _, err := Repair(b)
		if o := f.info.Orientation; err == nil && f.IsJPEG() && (o < 1 || o > 8) {
			t.Fatalf("orientation %d out of range", o)
		}
	})
}

// orientation is the Exif orientation the camera path reads of src.
func orientation(t *testing.T, src []byte) int {
	t.Helper()
	f, _, err := Repair(src)
	if err != nil || !f.IsJPEG() {
		t.Fatalf("the frame does not repair: %v", err)
	}
	return f.info.Orientation
}
