package jpegscale

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"maison/internal/camframe"
)

// The frames of the third corpus in colour layouts other than Y'CbCr, and
// generated ones in every layout, baseline and progressive: each decodes,
// at full size, to the colours image/jpeg gives (its RGB, CMYK or YCCK
// turned into 4:4:4 Y'CbCr), and at 1/2, 1/4 and 1/8 to the full-size
// decode box-averaged, as a reduced IDCT should.
func TestEveryColourLayoutDecodesAsImageJPEG(t *testing.T) {
	t.Parallel()
	frames := map[string][]byte{}
	for _, name := range []string{"third.rgb-adobe.jpeg", "third.rgb-no-adobe.jpeg", "third.rgb-progressive.jpeg", "third.adobe-cmyk.jpeg", "third.adobe-cmyk-progressive.jpeg", "third.adobe-ycck.jpeg"} {
		b, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", name))
		if err != nil {
			t.Fatal(err)
		}
		frames[name] = b
	}
	for l, name := range map[camframe.Layout]string{camframe.LayoutRGB: "rgb", camframe.LayoutRGBNoAdobe: "rgb-no-adobe", camframe.LayoutCMYK: "cmyk", camframe.LayoutYCCK: "ycck", camframe.LayoutGrey: "grey", camframe.LayoutYCbCr420: "ycbcr"} {
		frames["generated "+name] = camframe.Baseline(203, 121, l, 4, 7)
	}
	for name, data := range frames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref, err := jpeg.Decode(bytes.NewReader(data))
			if err != nil {
				if name != "third.rgb-no-adobe.jpeg" && name != "generated rgb-no-adobe" {
					t.Fatalf("image/jpeg: %v", err)
				}
				ref = nil // image/jpeg wants a JFIF or Adobe segment to read RGB; libjpeg does not
			}
			full, err := Decode(data, 1)
			if err != nil {
				t.Fatal(err)
			}
			if ref != nil {
				if d := maxRGBDiff(full, ref); d > 3 {
					t.Errorf("full size: differs from image/jpeg by up to %d in a channel (want ≤ 3)", d)
				}
			}
			b := full.Bounds()
			for _, s := range []int{2, 4, 8} {
				small, err := Decode(data, s)
				if err != nil {
					t.Fatalf("1/%d: %v", s, err)
				}
				got, want := lumaOf(small), boxDown(lumaOf(full), s)
				if p := psnr(got, want, s, b.Dx(), b.Dy()); p < 28 {
					t.Errorf("1/%d: luma PSNR %.1f dB against the full decode box-averaged (want ≥ 28)", s, p)
				}
			}
		})
	}
}

// maxRGBDiff is the largest difference in any colour channel of two
// pictures of the same size.
func maxRGBDiff(a, b image.Image) int {
	d := 0
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			for _, v := range []int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8)} {
				d = max(d, v, -v)
			}
		}
	}
	return d
}

// ReadHeader says what a decode holds, before any image data is read:
// DecodeBytes at every scale is at least what the planes and coefficient
// stores the decoder makes add up to.
func TestDecodeBytesCountsWhatTheDecoderHolds(t *testing.T) {
	t.Parallel()
	for name, data := range map[string][]byte{
		"progressive CMYK 700×500": camframe.ProgressiveBomb(700, 500, 4, 2, true),
		"baseline YCCK 333×250":    camframe.Baseline(333, 250, camframe.LayoutYCCK, 2, 1),
		"baseline 4:2:0 640×480":   camframe.Baseline(640, 480, camframe.LayoutYCbCr420, 2, 1),
		"baseline grey 100×60":     camframe.Baseline(100, 60, camframe.LayoutGrey, 2, 1),
	} {
		h, err := ReadHeader(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, s := range []int{1, 2, 4, 8} {
			d := new(decoder)
			img, err := d.decode(data, func(int, int) int { return s })
			if err != nil {
				t.Fatalf("%s at 1/%d: %v", name, s, err)
			}
			var held int64
			for i := range d.ncomp {
				c := &d.comp[i]
				held += int64(len(c.vals))*2 + int64(len(c.nz))*8
			}
			switch m := img.(type) { // the planes of the result, at least
			case *image.YCbCr:
				held += int64(len(m.Y) + len(m.Cb) + len(m.Cr))
			case *image.Gray:
				held += int64(len(m.Pix))
			}
			if got := h.DecodeBytes(s, image.Rectangle{}); got < held {
				t.Errorf("%s at 1/%d: DecodeBytes %d, the decoder holds at least %d", name, s, got, held)
			}
		}
	}
}
