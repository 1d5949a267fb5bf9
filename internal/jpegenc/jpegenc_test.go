package jpegenc

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"
)

// reference is image/jpeg's encoding of m at quality q.
func reference(tb testing.TB, m image.Image, q int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// same fails unless Prepare and Append give image/jpeg's bytes for m at
// every quality in qs.
func same(tb testing.TB, name string, m image.Image, qs ...int) {
	tb.Helper()
	p, err := Prepare(m)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	for _, q := range qs {
		want := reference(tb, m, q)
		got := p.Append(nil, q)
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			tb.Fatalf("%s at quality %d: %d bytes, image/jpeg wrote %d; first difference at byte %d", name, q, len(got), len(want), i)
		}
	}
}

// content fills a w×h picture of the given kind: random, gradient, flat,
// or random with a few saturated blocks.
func content(kind string, w, h int, rng *rand.Rand) func(x, y int) (r, g, b, a uint8) {
	switch kind {
	case "random":
		return func(x, y int) (uint8, uint8, uint8, uint8) {
			v := rng.Uint32()
			return uint8(v), uint8(v >> 8), uint8(v >> 16), 0xff
		}
	case "gradient":
		return func(x, y int) (uint8, uint8, uint8, uint8) {
			return uint8(x * 255 / max(w, 1)), uint8(y * 255 / max(h, 1)), uint8((x + y) * 3), 0xff
		}
	case "extremes":
		return func(x, y int) (uint8, uint8, uint8, uint8) {
			if (x/8+y/8)%2 == 0 {
				return 0, 0, 0, 0xff
			}
			return 255, 255, 255, 0xff
		}
	}
	return func(x, y int) (uint8, uint8, uint8, uint8) { return 90, 140, 200, 0xff }
}

// images returns the same content as each image type the encoder handles.
func images(kind string, r image.Rectangle, rng *rand.Rand) map[string]image.Image {
	f := content(kind, r.Dx(), r.Dy(), rng)
	rgba := image.NewRGBA(r)
	nrgba := image.NewNRGBA(r)
	gray := image.NewGray(r)
	out := map[string]image.Image{"RGBA": rgba, "NRGBA": nrgba, "Gray": gray}
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio440} {
		out[ratio.String()] = image.NewYCbCr(r, ratio)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := f(x, y)
			if kind == "random" && x%5 == 0 {
				ca = uint8(rng.Uint32())
			}
			rgba.Set(x, y, color.RGBA{cr, cg, cb, 0xff})
			nrgba.Set(x, y, color.NRGBA{cr, cg, cb, ca})
			gray.Set(x, y, color.Gray{cr})
		}
	}
	// The Y'CbCr planes are filled directly, so each subsampling carries
	// its own chroma samples.
	for name, m := range out {
		if yc, ok := m.(*image.YCbCr); ok {
			for i := range yc.Y {
				yc.Y[i] = rgba.Pix[(4*i)%len(rgba.Pix)]
			}
			for i := range yc.Cb {
				yc.Cb[i] = rgba.Pix[(4*i+1)%len(rgba.Pix)]
				yc.Cr[i] = rgba.Pix[(4*i+2)%len(rgba.Pix)]
			}
			_ = name
		}
	}
	return out
}

func TestSameBytesAsImageJPEG(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := [][2]int{{1, 1}, {7, 3}, {8, 8}, {15, 17}, {16, 16}, {17, 15}, {31, 33}, {33, 1}, {1, 40}, {64, 48}, {99, 101}}
	qs := []int{0, 1, 2, 10, 25, 49, 50, 51, 60, 70, 75, 80, 90, 99, 100, 101}
	for _, s := range sizes {
		for _, kind := range []string{"random", "gradient", "flat", "extremes"} {
			for name, m := range images(kind, image.Rect(0, 0, s[0], s[1]), rng) {
				same(t, fmt.Sprintf("%s %s %dx%d", name, kind, s[0], s[1]), m, qs...)
			}
		}
	}
}

func TestEveryQuality(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	qs := make([]int, 100)
	for i := range qs {
		qs[i] = i + 1
	}
	for _, kind := range []string{"random", "gradient"} {
		for name, m := range images(kind, image.Rect(0, 0, 45, 37), rng) {
			same(t, name+" "+kind, m, qs...)
		}
	}
}

func TestOffsetBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range []image.Rectangle{image.Rect(3, 5, 30, 27), image.Rect(-7, -9, 12, 20), image.Rect(1, 1, 2, 2)} {
		for name, m := range images("random", r, rng) {
			same(t, fmt.Sprintf("%s %v", name, r), m, 30, 80)
		}
	}
	// A sub-image shares its parent's planes and strides.
	for name, m := range images("gradient", image.Rect(0, 0, 50, 40), rng) {
		sub := m.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(5, 3, 44, 39))
		same(t, name+" sub-image", sub, 75)
	}
}

func TestFittedSize(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a full-size frame in every type")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for name, m := range images("gradient", image.Rect(0, 0, 1429, 804), rng) {
		same(t, name+" 1429x804", m, 50, 60, 80)
	}
	m := images("random", image.Rect(0, 0, 1429, 804), rng)["YCbCrSubsampleRatio420"]
	same(t, "random YCbCr 1429x804", m, 30, 80, 100)
}

func TestOtherTypes(t *testing.T) {
	t.Parallel()
	// A type read through At, as image/jpeg reads it.
	p := image.NewPaletted(image.Rect(0, 0, 21, 13), color.Palette{color.Black, color.White, color.RGBA{200, 30, 60, 255}, color.NRGBA{10, 200, 30, 128}})
	for i := range p.Pix {
		p.Pix[i] = uint8(i*7) % 4
	}
	same(t, "Paletted", p, 40, 85)
	g := image.NewGray16(image.Rect(0, 0, 19, 9))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 13)
	}
	same(t, "Gray16", g, 80)
	same(t, "empty", image.NewRGBA(image.Rect(0, 0, 0, 5)), 80)
	same(t, "empty gray", image.NewGray(image.Rect(0, 0, 4, 0)), 80)
}

func TestTooLarge(t *testing.T) {
	t.Parallel()
	m := image.NewGray(image.Rect(0, 0, 1<<16, 1))
	if _, err := Prepare(m); err == nil {
		t.Fatal("a 65,536-pixel side was accepted")
	}
}

func TestDivisors(t *testing.T) {
	t.Parallel()
	for q := 1; q <= 255; q++ {
		var tab [64]uint8
		for k := range tab {
			tab[k] = uint8(q)
		}
		d := newDivisors(&tab)
		den := 8 * int32(q)
		for v := int32(-9000); v <= 9000; v++ {
			want := (v + den/2) / den
			if v < 0 {
				want = -((-v + den/2) / den)
			}
			if got := d.quantize(v, 0); got != want {
				t.Fatalf("%d / %d: got %d, want %d", v, den, got, want)
			}
		}
	}
}

func TestConstants(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		got  int32
		want float64
		bits int
	}{
		{c1cos18, math.Cos(math.Pi / 16), 18}, {c1sin18, math.Sin(math.Pi / 16), 18},
		{c3cos18, math.Cos(3 * math.Pi / 16), 18}, {c3sin18, math.Sin(3 * math.Pi / 16), 18},
		{c6cos18, math.Sqrt2 * math.Cos(6*math.Pi/16), 18}, {c6sin18, math.Sqrt2 * math.Sin(6*math.Pi/16), 18},
		{sqrt2q12, math.Sqrt2, 12},
		{c1cos14, math.Cos(math.Pi / 16), 14}, {c1sin14, math.Sin(math.Pi / 16), 14},
		{c3cos14, math.Cos(3 * math.Pi / 16), 14}, {c3sin14, math.Sin(3 * math.Pi / 16), 14},
		{c6cos14, math.Sqrt2 * math.Cos(6*math.Pi/16), 14}, {c6sin14, math.Sqrt2 * math.Sin(6*math.Pi/16), 14},
		{sqrt2q14, math.Sqrt2, 14},
	} {
		if want := int32(math.Round(c.want * float64(int(1)<<c.bits))); c.got != want {
			t.Errorf("constant %d, want %d", c.got, want)
		}
	}
}
