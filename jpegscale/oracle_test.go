package jpegscale

import (
	"bytes"
	"image/jpeg"
	"math"
	"testing"
)

// bandLimit is the reference for the reduced IDCT, in floating point: the
// forward DCT of each whole 8x8 block of a full-size plane, its n x n lowest
// frequencies, and their n-point inverse DCT (T.81 A.3.3 with 16 replaced by
// 2n). Blocks cut by the plane's edge are marked absent, and so are blocks
// holding a 0 or 255 sample: the full decode clamped there, so its DCT is not
// the one the file holds.
func bandLimit(p plane, n int) (out plane, whole []bool) {
	bw, bh := p.w/8, p.h/8
	out = plane{w: bw * n, h: bh * n, pix: make([]byte, bw*n*bh*n)}
	whole = make([]bool, bw*bh)
	c := func(k int) float64 {
		if k == 0 {
			return 1 / math.Sqrt2
		}
		return 1
	}
	var f [8][8]float64
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			whole[by*bw+bx] = true
			for y := 0; y < 8; y++ {
				for x := 0; x < 8; x++ {
					if v := p.at(bx*8+x, by*8+y); v == 0 || v == 255 {
						whole[by*bw+bx] = false
					}
				}
			}
			for v := 0; v < n; v++ {
				for u := 0; u < n; u++ {
					s := 0.0
					for y := 0; y < 8; y++ {
						for x := 0; x < 8; x++ {
							s += (float64(p.at(bx*8+x, by*8+y)) - 128) *
								math.Cos(float64(2*x+1)*float64(u)*math.Pi/16) *
								math.Cos(float64(2*y+1)*float64(v)*math.Pi/16)
						}
					}
					f[v][u] = s * c(u) * c(v) / 4
				}
			}
			for m := 0; m < n; m++ {
				for l := 0; l < n; l++ {
					s := 0.0
					for v := 0; v < n; v++ {
						for u := 0; u < n; u++ {
							s += c(u) * c(v) * f[v][u] *
								math.Cos(float64(2*l+1)*float64(u)*math.Pi/float64(2*n)) *
								math.Cos(float64(2*m+1)*float64(v)*math.Pi/float64(2*n))
						}
					}
					out.pix[(by*n+m)*out.w+bx*n+l] = clampF(s/4 + 128)
				}
			}
		}
	}
	return out, whole
}

func TestReducedScalesMatchFloatBandLimit(t *testing.T) {
	t.Parallel()
	imgs := append(stdImages(t), cjpegImages(t)...)
	for _, ti := range imgs {
		full, err := jpeg.Decode(bytes.NewReader(ti.data))
		if err != nil {
			continue
		}
		fp := planes(t, full)
		for _, s := range []int{2, 4, 8} {
			t.Run(ti.name+"/scale"+itoa(s), func(t *testing.T) {
				got, err := Decode(ti.data, s)
				if err != nil {
					t.Fatal(err)
				}
				gp := planes(t, got)
				n := 8 / s
				for i := range gp {
					ref, whole := bandLimit(fp[i], n)
					worst := 0
					for y := 0; y < ref.h; y++ {
						for x := 0; x < ref.w; x++ {
							if !whole[(y/n)*(ref.w/n)+x/n] {
								continue
							}
							d := int(gp[i].at(x, y)) - int(ref.at(x, y))
							worst = max(worst, d, -d)
						}
					}
					t.Logf("plane %d: max diff %d", i, worst)
					if worst > 2 {
						t.Errorf("plane %d: differs from the floating-point band limit of image/jpeg's decode by up to %d (want ≤ 2)", i, worst)
					}
				}
			})
		}
	}
}
