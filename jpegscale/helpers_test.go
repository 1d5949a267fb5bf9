package jpegscale

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// scene draws a camera-like frame: a sky gradient, a lit wall with edges,
// a window grid, thin wires, a textured lawn and sensor noise.
func scene(w, h int, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 0x5ca1e))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		fy := float64(y) / float64(h)
		for x := 0; x < w; x++ {
			fx := float64(x) / float64(w)
			var r, g, b float64
			switch {
			case fy < 0.35: // sky
				r, g, b = 90+80*fy, 140+100*fy, 230-40*fx
			case fy < 0.75 && fx > 0.15 && fx < 0.7: // house wall
				r, g, b = 200-60*fx, 170-40*fx, 140
				// windows: dark rectangles with bright frames
				wx, wy := math.Mod(fx*12, 1), math.Mod(fy*10, 1)
				if wx > 0.2 && wx < 0.8 && wy > 0.25 && wy < 0.8 {
					r, g, b = 40, 50, 70
				} else if wx > 0.15 && wx < 0.85 && wy > 0.2 && wy < 0.85 {
					r, g, b = 245, 245, 240
				}
			default: // lawn with texture
				// grass: a texture with a period of about 10 pixels
				t := math.Sin(float64(x)*0.6+math.Sin(float64(y)*0.1)*3) * math.Sin(float64(y)*0.7)
				r, g, b = 60+20*t, 120+40*t+30*fy, 50+10*t
			}
			// wires
			if math.Abs(fy-0.2-0.1*fx*fx) < 1.5/float64(h) {
				r, g, b = 20, 20, 20
			}
			// a disc (a ball on the lawn)
			dx, dy := fx-0.8, (fy-0.8)*float64(h)/float64(w)
			if dx*dx+dy*dy < 0.003 {
				r, g, b = 230, 40, 30
			}
			n := rng.NormFloat64() * 4
			img.Pix[y*img.Stride+4*x+0] = clampF(r + n)
			img.Pix[y*img.Stride+4*x+1] = clampF(g + n)
			img.Pix[y*img.Stride+4*x+2] = clampF(b + n)
			img.Pix[y*img.Stride+4*x+3] = 255
		}
	}
	return img
}

func clampF(v float64) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v + 0.5)
}

func grey(m *image.RGBA) *image.Gray {
	g := image.NewGray(m.Bounds())
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			g.Set(x, y, color.GrayModel.Convert(m.At(x, y)))
		}
	}
	return g
}

func encodeStd(t testing.TB, m image.Image, q int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cjpeg encodes m with libjpeg-turbo's cjpeg and the given flags, skipping
// the test when cjpeg is not installed.
func cjpeg(t *testing.T, m image.Image, flags ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("cjpeg"); err != nil {
		t.Skip("jpegscale: cjpeg not found; install libjpeg-turbo-progs")
	}
	out, err := runCjpeg(t.Context(), t.TempDir(), m, flags...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runCjpeg runs cjpeg on m written as PNM in dir.
func runCjpeg(ctx context.Context, dir string, m image.Image, flags ...string) ([]byte, error) {
	in := filepath.Join(dir, "in.pnm")
	if err := os.WriteFile(in, pnm(m), 0o600); err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, "cjpeg", append(flags, in)...).Output()
	if err != nil {
		return nil, fmt.Errorf("cjpeg %v: %w", flags, err)
	}
	return out, nil
}

// pnm writes a binary PPM (RGB) or PGM (grey) file.
func pnm(m image.Image) []byte {
	var buf bytes.Buffer
	b := m.Bounds()
	if g, ok := m.(*image.Gray); ok {
		fmt.Fprintf(&buf, "P5\n%d %d\n255\n", b.Dx(), b.Dy())
		for y := b.Min.Y; y < b.Max.Y; y++ {
			buf.Write(g.Pix[g.PixOffset(b.Min.X, y):g.PixOffset(b.Max.X, y)])
		}
		return buf.Bytes()
	}
	fmt.Fprintf(&buf, "P6\n%d %d\n255\n", b.Dx(), b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := m.At(x, y).RGBA()
			buf.Write([]byte{byte(r >> 8), byte(g >> 8), byte(bb >> 8)})
		}
	}
	return buf.Bytes()
}

// plane is one channel of samples.
type plane struct {
	w, h int
	pix  []byte // stride w
}

func (p plane) at(x, y int) byte { return p.pix[y*p.w+x] }

// planes extracts the channels of a decoded image over its bounds: Y (and
// Cb, Cr at their own resolution) or grey.
func planes(t testing.TB, m image.Image) []plane {
	t.Helper()
	switch m := m.(type) {
	case *image.Gray:
		b := m.Bounds()
		p := plane{w: b.Dx(), h: b.Dy()}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				p.pix = append(p.pix, m.Pix[m.PixOffset(x, y)])
			}
		}
		return []plane{p}
	case *image.YCbCr:
		b := m.Bounds()
		yp := plane{w: b.Dx(), h: b.Dy()}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				yp.pix = append(yp.pix, m.Y[m.YOffset(x, y)])
			}
		}
		cw, ch := chromaDims(b.Dx(), b.Dy(), m.SubsampleRatio)
		cb, cr := plane{w: cw, h: ch}, plane{w: cw, h: ch}
		for y := 0; y < ch; y++ {
			for x := 0; x < cw; x++ {
				cb.pix = append(cb.pix, m.Cb[y*m.CStride+x])
				cr.pix = append(cr.pix, m.Cr[y*m.CStride+x])
			}
		}
		return []plane{yp, cb, cr}
	}
	t.Fatalf("unexpected image type %T", m)
	return nil
}

// boxDown shrinks a plane by s, averaging each s x s cell (partial cells at
// the right and bottom edges average what they have).
func boxDown(p plane, s int) plane {
	out := plane{w: (p.w + s - 1) / s, h: (p.h + s - 1) / s}
	out.pix = make([]byte, out.w*out.h)
	for y := 0; y < out.h; y++ {
		for x := 0; x < out.w; x++ {
			sum, n := 0, 0
			for yy := y * s; yy < min(p.h, y*s+s); yy++ {
				for xx := x * s; xx < min(p.w, x*s+s); xx++ {
					sum += int(p.at(xx, yy))
					n++
				}
			}
			out.pix[y*out.w+x] = byte((sum + n/2) / n)
		}
	}
	return out
}

// maxDiff returns the largest absolute sample difference.
func maxDiff(a, b plane) int {
	d := 0
	for i := range a.pix {
		v := int(a.pix[i]) - int(b.pix[i])
		d = max(d, v, -v)
	}
	return d
}

// psnr in dB between two planes of the same size, over the samples whose
// s x s source cell lies wholly inside the source plane of width fw and
// height fh. Cells cut by the image edge are left out: the reduced IDCT
// averages the encoder's padding there, the box only what is inside. NaN
// when there is no whole cell.
func psnr(a, b plane, s, fw, fh int) float64 {
	var se float64
	n := 0
	for y := 0; y < a.h && (y+1)*s <= fh; y++ {
		for x := 0; x < a.w && (x+1)*s <= fw; x++ {
			v := float64(a.at(x, y)) - float64(b.at(x, y))
			se += v * v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

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
