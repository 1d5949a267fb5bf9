package jpegenc

import (
	"bytes"
	"image"
	"testing"
)

// FuzzSameBytes builds a picture from the input (size, type, subsampling,
// origin and samples all chosen by it) and requires image/jpeg's bytes at
// two qualities from one Prepare.
func FuzzSameBytes(f *testing.F) {
	f.Add([]byte{7, 3, 0, 80, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{16, 16, 1, 50, 1, 255, 0, 255, 0})
	f.Add([]byte{33, 17, 2, 1, 2, 128})
	f.Add([]byte{1, 1, 3, 100, 3})
	f.Add([]byte{40, 9, 4, 30, 5, 9, 200, 17, 3})
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 6 {
			return
		}
		w, h := int(in[0])%70+1, int(in[1])%70+1
		kind, q, org := in[2]%9, int(in[3])%102, in[4]
		px := in[5:]
		at := func(i int) uint8 { return px[i%len(px)] + uint8(i/len(px)) }
		// Negative origins only for the types without subsampled planes:
		// image.NewYCbCr gives such a picture chroma planes too small for
		// its own COffset, and image/jpeg fails on it as jpegenc does.
		r := image.Rect(int(org%5)-2, int(org/5%5)-2, 0, 0)
		if kind >= 3 {
			r = image.Rect(int(org%5), int(org/5%5), 0, 0)
		}
		r.Max = r.Min.Add(image.Pt(w, h))
		var m image.Image
		switch kind {
		case 0:
			g := image.NewGray(r)
			for i := range g.Pix {
				g.Pix[i] = at(i)
			}
			m = g
		case 1:
			c := image.NewRGBA(r)
			for i := range c.Pix {
				c.Pix[i] = at(i)
			}
			m = c
		case 2:
			c := image.NewNRGBA(r)
			for i := range c.Pix {
				c.Pix[i] = at(i)
			}
			m = c
		default:
			ratio := image.YCbCrSubsampleRatio(kind - 3)
			c := image.NewYCbCr(r, ratio)
			for i := range c.Y {
				c.Y[i] = at(i)
			}
			for i := range c.Cb {
				c.Cb[i], c.Cr[i] = at(3*i+1), at(5*i+2)
			}
			m = c
		}
		p, err := Prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []int{q, 101 - q} {
			if got, want := p.Append(nil, q), reference(t, m, q); !bytes.Equal(got, want) {
				t.Fatalf("%T %v at quality %d: %d bytes, image/jpeg wrote %d", m, r, q, len(got), len(want))
			}
		}
	})
}
