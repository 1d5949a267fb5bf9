package testkit

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/disintegration/imaging"
)

// Luma returns the luma of m over its bounds, row by row, and its size: Y
// itself for a YCbCr image, the grey of any other.
func Luma(m image.Image) (pix []float64, w, h int) {
	b := m.Bounds()
	w, h = b.Dx(), b.Dy()
	pix = make([]float64, 0, w*h)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			switch m := m.(type) {
			case *image.YCbCr:
				pix = append(pix, float64(m.Y[m.YOffset(x, y)]))
			default:
				pix = append(pix, float64(color.GrayModel.Convert(m.At(x, y)).(color.Gray).Y))
			}
		}
	}
	return pix, w, h
}

// SSIM is the mean structural similarity of the lumas of a and b, which
// have the same size, over 8×8 windows stepping by 4, with the usual
// constants for 8-bit samples, C1 = (0.01·255)² and C2 = (0.03·255)².
func SSIM(a, b image.Image) float64 {
	pa, w, h := Luma(a)
	pb, _, _ := Luma(b)
	return ssim(pa, pb, w, h)
}

// ssim is SSIM on two luma planes of w×h.
func ssim(a, b []float64, w, h int) float64 {
	const c1, c2 = (0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255)
	var sum float64
	var n int
	for y := 0; y+8 <= h; y += 4 {
		for x := 0; x+8 <= w; x += 4 {
			var ma, mb, va, vb, cov float64
			for j := range 8 {
				for i := range 8 {
					ma += a[(y+j)*w+x+i]
					mb += b[(y+j)*w+x+i]
				}
			}
			ma /= 64
			mb /= 64
			for j := range 8 {
				for i := range 8 {
					p, q := a[(y+j)*w+x+i]-ma, b[(y+j)*w+x+i]-mb
					va += p * p
					vb += q * q
					cov += p * q
				}
			}
			va /= 63
			vb /= 63
			cov /= 63
			sum += ((2*ma*mb + c1) * (2*cov + c2)) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return sum / float64(n)
}

// NaiveFit is the path the fit is measured against: the standard decoder,
// imaging's Lanczos resize to exactly w×h, the standard encoder at
// quality 80. (imaging.Fit would round one edge differently from the
// camera pipeline's own size arithmetic; the work is the same.)
func NaiveFit(tb testing.TB, src []byte, w, h int) []byte {
	tb.Helper()
	img, err := jpeg.Decode(bytes.NewReader(src))
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, imaging.Resize(img, w, h, imaging.Lanczos), &jpeg.Options{Quality: 80}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
