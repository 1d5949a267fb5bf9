package jpegscale

import (
	"errors"
	"image"
	"testing"

	"github.com/disintegration/imaging"
)

func TestResizeKeepsFlatAreasFlat(t *testing.T) {
	src := image.NewYCbCr(image.Rect(0, 0, 301, 97), image.YCbCrSubsampleRatio420)
	for i := range src.Y {
		src.Y[i] = 77
	}
	for i := range src.Cb {
		src.Cb[i], src.Cr[i] = 130, 90
	}
	for _, sz := range []image.Point{{100, 33}, {301, 97}, {640, 200}, {1, 1}} {
		out, err := Resize(src, sz.X, sz.Y)
		if err != nil {
			t.Fatal(err)
		}
		m := out.(*image.YCbCr)
		if m.Bounds() != image.Rect(0, 0, sz.X, sz.Y) || m.SubsampleRatio != src.SubsampleRatio {
			t.Fatalf("%v %v", m.Bounds(), m.SubsampleRatio)
		}
		for _, v := range m.Y {
			if v != 77 {
				t.Fatalf("to %v: luma %d, want 77", sz, v)
			}
		}
		for i := range m.Cb {
			if m.Cb[i] != 130 || m.Cr[i] != 90 {
				t.Fatalf("to %v: chroma %d,%d, want 130,90", sz, m.Cb[i], m.Cr[i])
			}
		}
	}
}

func TestResizeMatchesImagingLanczos(t *testing.T) {
	img, err := Decode(encodeStd(t, scene(960, 540, 5), 90), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range []image.Point{{357, 201}, {480, 270}, {1200, 675}} {
		got, err := Resize(img, sz.X, sz.Y)
		if err != nil {
			t.Fatal(err)
		}
		want := imaging.Resize(img, sz.X, sz.Y, imaging.Lanczos)
		gy, wy := lumaOf(got), lumaOf(want)
		// imaging works in RGB and converts back: small differences in luma
		// are expected; the structure must be the same.
		if p := psnr(gy, wy, 1, gy.w, gy.h); p < 38 {
			t.Errorf("to %v: luma PSNR %.1f dB against imaging.Lanczos, want ≥ 38", sz, p)
		} else {
			t.Logf("to %v: luma PSNR %.1f dB", sz, p)
		}
	}
	g, err := Decode(encodeStd(t, grey(scene(200, 100, 5)), 90), 1)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Resize(g, 50, 25)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.(*image.Gray); !ok || out.Bounds() != image.Rect(0, 0, 50, 25) {
		t.Fatalf("grey resize gave %T %v", out, out.Bounds())
	}
}

func TestResizeRefusesWhatItCannotDo(t *testing.T) {
	for _, c := range []struct {
		img  image.Image
		w, h int
	}{
		{image.NewRGBA(image.Rect(0, 0, 4, 4)), 2, 2},
		{image.NewGray(image.Rect(0, 0, 4, 4)), 0, 2},
		{image.NewGray(image.Rect(0, 0, 0, 0)), 2, 2},
	} {
		if _, err := Resize(c.img, c.w, c.h); !errors.Is(err, ErrResize) {
			t.Errorf("Resize(%T %v to %dx%d) error %v, want ErrResize", c.img, c.img.Bounds(), c.w, c.h, err)
		}
	}
}
