package jpegscale

import (
	"image"
	"image/color"
	"testing"
)

// lumaOf returns the luma plane of any image (Y itself for YCbCr).
func lumaOf(m image.Image) plane {
	b := m.Bounds()
	p := plane{w: b.Dx(), h: b.Dy(), pix: make([]byte, b.Dx()*b.Dy())}
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			switch m := m.(type) {
			case *image.YCbCr:
				p.pix[y*p.w+x] = m.Y[m.YOffset(b.Min.X+x, b.Min.Y+y)]
			default:
				p.pix[y*p.w+x] = color.GrayModel.Convert(m.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
			}
		}
	}
	return p
}

// ssim is the mean structural similarity of two planes of the same size
// over 8x8 windows stepping by 4, with the usual constants
// C1 = (0.01·255)², C2 = (0.03·255)².
func ssim(a, b plane) float64 {
	const (
		c1  = (0.01 * 255) * (0.01 * 255)
		c2  = (0.03 * 255) * (0.03 * 255)
		win = 8
	)
	var total float64
	n := 0
	for y := 0; y+win <= a.h; y += 4 {
		for x := 0; x+win <= a.w; x += 4 {
			var sa, sb, saa, sbb, sab float64
			for j := 0; j < win; j++ {
				for i := 0; i < win; i++ {
					va, vb := float64(a.at(x+i, y+j)), float64(b.at(x+i, y+j))
					sa += va
					sb += vb
					saa += va * va
					sbb += vb * vb
					sab += va * vb
				}
			}
			const k = win * win
			ma, mb := sa/k, sb/k
			va, vb := saa/k-ma*ma, sbb/k-mb*mb
			cov := sab/k - ma*mb
			total += (2*ma*mb + c1) * (2*cov + c2) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return total / float64(n)
}

func TestSSIMOfIdenticalPlanesIsOne(t *testing.T) {
	m := lumaOf(scene(64, 48, 2))
	if s := ssim(m, m); s < 0.9999 {
		t.Fatalf("ssim(x, x) = %v, want 1", s)
	}
	// A plane against its inverse is far from similar.
	inv := plane{w: m.w, h: m.h, pix: make([]byte, len(m.pix))}
	for i, v := range m.pix {
		inv.pix[i] = 255 - v
	}
	if s := ssim(m, inv); s > 0.5 {
		t.Fatalf("ssim(x, 255-x) = %v, want well below 1", s)
	}
}
