package picture_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"

	"github.com/disintegration/imaging"

	"maison/camera/picture"
)

// lumaPlane returns the Y values of an image as float64s.
func lumaPlane(img image.Image) ([]float64, int, int) {
	b := img.Bounds()
	out := make([]float64, 0, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			out = append(out, (0.299*float64(r)+0.587*float64(g)+0.114*float64(bl))/257)
		}
	}
	return out, b.Dx(), b.Dy()
}

// ssim is the mean structural similarity of two luma planes over 8x8
// windows with stride 4, with the usual constants for 8-bit samples.
func ssim(a, b []float64, w, h int) float64 {
	const c1, c2 = (0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255)
	var sum float64
	var n int
	for y := 0; y+8 <= h; y += 4 {
		for x := 0; x+8 <= w; x += 4 {
			var ma, mb, va, vb, cov float64
			for j := range 8 {
				for i := range 8 {
					p, q := a[(y+j)*w+x+i], b[(y+j)*w+x+i]
					ma += p
					mb += q
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

// The fast fit path must look like the naive one: SSIM on luma of at least
// 0.97 on the demo's 4K and 1080p frames.
func TestFitLooksLikeTheNaivePath(t *testing.T) {
	house := sharedHouse()
	for _, id := range []string{"camera.backyard", "camera.front_door"} {
		_, clean, _ := house.Frame(id)
		fast, err := picture.Fit(clean, picture.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := jpeg.Decode(bytes.NewReader(fast.JPEG))
		if err != nil {
			t.Fatal(err)
		}
		// The naive path at exactly the same size (imaging.Fit rounds one
		// pixel differently on the 4K frame).
		full, err := jpeg.Decode(bytes.NewReader(clean))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		jpeg.Encode(&buf, imaging.Resize(full, fast.Width, fast.Height, imaging.Lanczos), &jpeg.Options{Quality: 80})
		b, err := jpeg.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if a.Bounds() != b.Bounds() {
			t.Fatalf("%s: fast %v, naive %v", id, a.Bounds(), b.Bounds())
		}
		pa, w, h := lumaPlane(a)
		pb, _, _ := lumaPlane(b)
		s := ssim(pa, pb, w, h)
		t.Logf("%s: SSIM on luma %.4f", id, s)
		if s < 0.97 {
			t.Errorf("%s: SSIM %.4f against the naive path, want at least 0.97", id, s)
		}
	}
}
