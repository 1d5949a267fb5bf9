package picture_test

import (
	"bytes"
	"image/jpeg"
	"testing"

	"github.com/disintegration/imaging"

	"maison/camera/picture"
	"maison/internal/cputime"
)

// naiveFit is the anchor: the standard decoder, imaging.Fit with Lanczos to
// the same budget, and the standard encoder at quality 80.
func naiveFit(tb testing.TB, src []byte) []byte {
	img, err := jpeg.Decode(bytes.NewReader(src))
	if err != nil {
		tb.Fatal(err)
	}
	fitted := imaging.Fit(img, 1429, 1429, imaging.Lanczos)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, fitted, &jpeg.Options{Quality: 80}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkFit compares maison's fit path with the naive path on the demo's
// camera frames, in the same run.
func BenchmarkFit(b *testing.B) {
	house := sharedHouse()
	for _, id := range []string{"camera.backyard", "camera.front_door"} {
		_, clean, ok := house.Frame(id)
		if !ok {
			b.Fatalf("no frame for %s", id)
		}
		b.Run(id+"/maison", func(b *testing.B) {
			b.SetBytes(int64(len(clean)))
			cputime.Loop(b, func() {
				if _, err := picture.Fit(clean, picture.Limits{}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(id+"/naive", func(b *testing.B) {
			b.SetBytes(int64(len(clean)))
			cputime.Loop(b, func() { naiveFit(b, clean) })
		})
	}
}
