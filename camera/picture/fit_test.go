package picture_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"testing"

	"maison/camera/picture"
	"maison/internal/testkit"
)

// The fast fit path must look like the naive one: SSIM on luma of at least
// 0.97 on the demo's 4K and 1080p frames.
func TestFitLooksLikeTheNaivePath(t *testing.T) {
	t.Parallel()
	house := sharedHouse()
	for _, id := range []string{"camera.backyard", "camera.front_door"} {
		_, clean, _ := house.Frame(id)
		fast, err := picture.Fit(context.Background(), clean, picture.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := jpeg.Decode(bytes.NewReader(fast.JPEG))
		if err != nil {
			t.Fatal(err)
		}
		// The naive path at exactly the same size (imaging.Fit rounds one
		// pixel differently on the 4K frame).
		b, err := jpeg.Decode(bytes.NewReader(testkit.NaiveFit(t, clean, fast.Width, fast.Height)))
		if err != nil {
			t.Fatal(err)
		}
		if a.Bounds() != b.Bounds() {
			t.Fatalf("%s: fast %v, naive %v", id, a.Bounds(), b.Bounds())
		}
		s := testkit.SSIM(a, b)
		t.Logf("%s: SSIM on luma %.4f", id, s)
		if s < 0.97 {
			t.Errorf("%s: SSIM %.4f against the naive path, want at least 0.97", id, s)
		}
	}
}
