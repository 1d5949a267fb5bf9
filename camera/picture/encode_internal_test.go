package picture

import (
	"bytes"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// TestEncodeWithinIsImageJPEG holds the fit's encoder to image/jpeg's
// bytes: at each budget the JPEG encodeWithin returns is the one
// image/jpeg writes for a picture of that size at the quality it reports,
// whether it fitted at quality 80, at a lower quality, or only smaller.
func TestEncodeWithinIsImageJPEG(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(12, 12))
	img := image.NewYCbCr(image.Rect(0, 0, 1203, 677), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		x, y := i%img.YStride, i/img.YStride
		img.Y[i] = uint8((x*x+y*3)/97) + uint8(rng.IntN(24))
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(100+i%40), uint8(150-i%23)
	}
	var full bytes.Buffer
	if err := jpeg.Encode(&full, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	n := full.Len()
	seen := map[int]bool{}
	for _, budget := range []int{n, n * 3 / 4, n * 55 / 100, n / 3, n / 20} {
		f, err := encodeWithin(img, budget)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		m := image.Image(img)
		if f.Width != img.Rect.Dx() {
			m = resized(img, max(f.Width, f.Height))
		}
		var want bytes.Buffer
		if err := jpeg.Encode(&want, m, &jpeg.Options{Quality: f.Quality}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.JPEG, want.Bytes()) {
			t.Errorf("budget %d: %d bytes at quality %d, %dx%d; image/jpeg writes %d", budget, len(f.JPEG), f.Quality, f.Width, f.Height, want.Len())
		}
		if len(f.JPEG) > budget {
			t.Errorf("budget %d: %d bytes", budget, len(f.JPEG))
		}
		seen[f.Quality] = true
		t.Logf("budget %d: quality %d at %dx%d, %d bytes", budget, f.Quality, f.Width, f.Height, len(f.JPEG))
	}
	if len(seen) < 3 {
		t.Errorf("the budgets reached only qualities %v; the test means to cover quality 80, a lower one and a smaller size", seen)
	}
}
