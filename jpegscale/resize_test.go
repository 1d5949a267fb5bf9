package jpegscale

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
)

func TestResizeKeepsFlatAreasFlat(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestResizePlaneUnchanged holds resizePlane to the samples it gave before
// it was made faster, on noisy planes shrunk, enlarged and kept, small and
// large enough to be shared between goroutines.
func TestResizePlaneUnchanged(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	sizes := [][4]int{{1920, 1080, 1429, 804}, {960, 540, 715, 402}, {640, 480, 1429, 804}, {301, 97, 100, 33}, {5, 3, 1, 1}, {2, 2, 7, 9}, {1, 1, 3, 2}, {700, 400, 699, 401}}
	for range 20 {
		sizes = append(sizes, [4]int{1 + r.IntN(300), 1 + r.IntN(300), 1 + r.IntN(300), 1 + r.IntN(300)})
	}
	for _, sz := range sizes {
		sw, sh, dw, dh := sz[0], sz[1], sz[2], sz[3]
		stride := sw + r.IntN(9)
		src := make([]byte, stride*sh)
		for i := range src {
			src[i] = byte(r.IntN(256))
		}
		want := make([]byte, dw*dh)
		resizePlaneBefore(src, stride, sw, sh, want, dw, dw, dh)
		got := make([]byte, dw*dh)
		resizePlane(src, stride, sw, sh, got, dw, dw, dh)
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: the samples changed", fmt.Sprint(sz))
		}
	}
}

// resizePlaneBefore is resizePlane as it was before its sums were trimmed
// and shared between goroutines (issue 12): the outputs must not change.
func resizePlaneBefore(src []byte, sstride, sw, sh int, dst []byte, dstride, dw, dh int) {
	hw := makeWeights(sw, dw)
	vw := makeWeights(sh, dh)
	// Horizontal pass into tmp (dw x sh), then vertical into dst.
	tmp := make([]byte, dw*sh)
	taps := hw.taps
	for y := 0; y < sh; y++ {
		row := src[y*sstride : y*sstride+sw]
		out := tmp[y*dw : y*dw+dw]
		for x := range out {
			s := int(hw.start[x])
			ww := hw.w[x*taps : x*taps+taps]
			acc := int32(1 << 13)
			if s+taps <= len(row) {
				r := row[s : s+taps]
				r = r[:len(ww)]
				for t, wt := range ww {
					acc += int32(wt) * int32(r[t])
				}
			} else {
				for t, wt := range ww {
					if s+t < len(row) {
						acc += int32(wt) * int32(row[s+t])
					}
				}
			}
			out[x] = clamp8(int64(acc >> 14))
		}
	}
	acc := make([]int32, dw)
	for y := 0; y < dh; y++ {
		for x := range acc {
			acc[x] = 1 << 13
		}
		s := int(vw.start[y])
		ww := vw.w[y*vw.taps : y*vw.taps+vw.taps]
		for t, wt := range ww {
			if wt == 0 || s+t >= sh {
				continue
			}
			in := tmp[(s+t)*dw : (s+t)*dw+dw]
			a := acc[:len(in)]
			w32 := int32(wt)
			for x, v := range in {
				a[x] += w32 * int32(v)
			}
		}
		out := dst[y*dstride : y*dstride+dw]
		for x := range out {
			out[x] = clamp8(int64(acc[x] >> 14))
		}
	}
}
