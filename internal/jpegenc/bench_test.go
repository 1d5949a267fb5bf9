package jpegenc

import (
	"bytes"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// fitted is a picture like the camera fit's: 1429×804, 4:2:0, smooth with
// noise.
func fitted() *image.YCbCr {
	rng := rand.New(rand.NewPCG(1, 1))
	m := image.NewYCbCr(image.Rect(0, 0, 1429, 804), image.YCbCrSubsampleRatio420)
	for i := range m.Y {
		x, y := i%m.YStride, i/m.YStride
		m.Y[i] = uint8((x+2*y)/9) + uint8(rng.IntN(32))
	}
	for i := range m.Cb {
		m.Cb[i], m.Cr[i] = uint8(110+i%29), uint8(140+rng.IntN(9))
	}
	return m
}

// BenchmarkTwoQualities encodes the picture at quality 80 and then 60, as
// the fit does when quality 80 is over its budget: image/jpeg twice, and
// jpegenc with one Prepare.
func BenchmarkTwoQualities(b *testing.B) {
	m := fitted()
	b.Run("image-jpeg", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			for _, q := range []int{80, 60} {
				buf.Reset()
				if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("jpegenc", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			p, err := Prepare(m)
			if err != nil {
				b.Fatal(err)
			}
			for _, q := range []int{80, 60} {
				buf = p.Append(buf[:0], q)
			}
		}
	})
	b.Run("jpegenc/prepare", func(b *testing.B) {
		for b.Loop() {
			if _, err := Prepare(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jpegenc/append-q80", func(b *testing.B) {
		p, _ := Prepare(m)
		var buf []byte
		for b.Loop() {
			buf = p.Append(buf[:0], 80)
		}
	})
}
