package jpegscale

import (
	"image"
	"math/rand/v2"
	"testing"
)

// TestDecodeRegionIsDecodeCut decodes parts of every test image, at every
// scale, and compares them sample for sample with the same part of the
// whole image decoded at that scale: the region is Decode, cut.
func TestDecodeRegionIsDecodeCut(t *testing.T) {
	t.Parallel()
	images := stdImages(t)
	images = append(images, cjpegImages(t)...)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ti := range images {
		for _, scale := range []int{1, 2, 4, 8} {
			whole, err := Decode(ti.data, scale)
			if err != nil {
				t.Fatalf("%s: %v", ti.name, err)
			}
			b := whole.Bounds()
			w, h := b.Dx()*scale, b.Dy()*scale // the full size, rounded up
			regions := []image.Rectangle{
				image.Rect(0, 0, w, h),
				image.Rect(w/2, 0, w, h/2),
				image.Rect(w/4, h/4, 3*w/4, 3*h/4),
				image.Rect(w-1, h-1, w, h),
				image.Rect(0, 0, 1, 1),
			}
			for range 4 {
				x0, y0 := rng.IntN(w), rng.IntN(h)
				regions = append(regions, image.Rect(x0, y0, x0+1+rng.IntN(w-x0), y0+1+rng.IntN(h-y0)))
			}
			for _, r := range regions {
				part, err := DecodeRegion(ti.data, scale, r)
				if err != nil {
					t.Errorf("%s 1/%d %v: %v", ti.name, scale, r, err)
					continue
				}
				want := image.Rect(r.Min.X/scale, r.Min.Y/scale, ceilDiv(r.Max.X, scale), ceilDiv(r.Max.Y, scale)).Intersect(b)
				if part.Bounds() != want {
					t.Errorf("%s 1/%d %v: bounds %v, want %v", ti.name, scale, r, part.Bounds(), want)
					continue
				}
				if x, y, ok := partMatches(whole, part); !ok {
					t.Errorf("%s 1/%d %v: differs from the whole decode at %d,%d", ti.name, scale, r, x, y)
				}
			}
		}
	}
}

// partMatches compares part with whole over part's bounds, in each plane.
func partMatches(whole, part image.Image) (int, int, bool) {
	b := part.Bounds()
	switch p := part.(type) {
	case *image.Gray:
		w := whole.(*image.Gray)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if p.GrayAt(x, y) != w.GrayAt(x, y) {
					return x, y, false
				}
			}
		}
	case *image.YCbCr:
		w := whole.(*image.YCbCr)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if p.YCbCrAt(x, y) != w.YCbCrAt(x, y) {
					return x, y, false
				}
			}
		}
	default:
		return 0, 0, false
	}
	return 0, 0, true
}

func TestDecodeRegionRefusesNothingToDraw(t *testing.T) {
	t.Parallel()
	data := stdImages(t)[0].data
	for _, r := range []image.Rectangle{{}, image.Rect(500, 500, 600, 600), image.Rect(-10, -10, -1, -1)} {
		if _, err := DecodeRegion(data, 1, r); err == nil {
			t.Errorf("region %v: no error", r)
		}
	}
	if _, err := DecodeRegion(data, 3, image.Rect(0, 0, 8, 8)); err == nil {
		t.Error("scale 3: no error")
	}
}
