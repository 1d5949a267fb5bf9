package jpegscale

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sync"
)

// ErrResize is returned (wrapped) by Resize for an image type or size it does
// not handle.
var ErrResize = errors.New("jpegscale: cannot resize")

// Resize scales an image returned by Decode (an *image.YCbCr or *image.Gray)
// to w x h, plane by plane, keeping the chroma subsampling, so that
// image/jpeg's encoder takes its fast path. The filter is Lanczos with three
// lobes, widened to the downscaling ratio, as imaging.Lanczos. It is meant
// for the last, small step after a DCT-domain reduction; the work is one
// pass per axis over 8-bit samples with 14-bit fixed-point weights.
func Resize(img image.Image, w, h int) (image.Image, error) {
	if w <= 0 || h <= 0 || w > 1<<16 || h > 1<<16 {
		return nil, fmt.Errorf("%w to %dx%d", ErrResize, w, h)
	}
	switch m := img.(type) {
	case *image.Gray:
		b := m.Bounds()
		if b.Empty() {
			return nil, fmt.Errorf("%w an empty image", ErrResize)
		}
		dst := image.NewGray(image.Rect(0, 0, w, h))
		resizePlane(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, b.Dx(), b.Dy(), dst.Pix, dst.Stride, w, h)
		return dst, nil
	case *image.YCbCr:
		b := m.Bounds()
		if b.Empty() || b.Min.X%4 != 0 || b.Min.Y%2 != 0 {
			return nil, fmt.Errorf("%w this image (empty or chroma-misaligned)", ErrResize)
		}
		dst := image.NewYCbCr(image.Rect(0, 0, w, h), m.SubsampleRatio)
		scw, sch := chromaDims(b.Dx(), b.Dy(), m.SubsampleRatio)
		dcw, dch := chromaDims(w, h, m.SubsampleRatio)
		co := m.COffset(b.Min.X, b.Min.Y)
		// Chroma on a second goroutine: the planes share nothing.
		var wg sync.WaitGroup
		wg.Go(func() {
			resizePlane(m.Cb[co:], m.CStride, scw, sch, dst.Cb, dst.CStride, dcw, dch)
			resizePlane(m.Cr[co:], m.CStride, scw, sch, dst.Cr, dst.CStride, dcw, dch)
		})
		resizePlane(m.Y[m.YOffset(b.Min.X, b.Min.Y):], m.YStride, b.Dx(), b.Dy(), dst.Y, dst.YStride, w, h)
		wg.Wait()
		return dst, nil
	}
	return nil, fmt.Errorf("%w a %T", ErrResize, img)
}

// chromaDims is the size of the chroma planes of a w x h image.
func chromaDims(w, h int, r image.YCbCrSubsampleRatio) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
}

// weights holds, for each output sample, the first source index and taps
// weights (summing to 1<<14) over consecutive source samples.
type weights struct {
	taps  int
	start []int32
	w     []int16
}

// lanczos3 is the Lanczos kernel with three lobes.
func lanczos3(x float64) float64 {
	if x < 0 {
		x = -x
	}
	if x >= 3 {
		return 0
	}
	if x < 1e-9 {
		return 1
	}
	px := math.Pi * x
	return 3 * math.Sin(px) * math.Sin(px/3) / (px * px)
}

// makeWeights computes the filter taps from n source samples to m outputs.
func makeWeights(n, m int) weights {
	ratio := float64(n) / float64(m)
	scale := max(ratio, 1)
	support := 3 * scale
	taps := int(2*support) + 2
	ws := weights{taps: taps, start: make([]int32, m), w: make([]int16, m*taps)}
	fw := make([]float64, taps)
	for i := 0; i < m; i++ {
		center := (float64(i)+0.5)*ratio - 0.5
		first := int(math.Floor(center-support)) + 1
		first = min(max(first, 0), max(n-taps, 0))
		sum := 0.0
		for t := range fw {
			j := first + t
			v := lanczos3((float64(j) - center) / scale)
			if j >= n {
				v = 0
			}
			fw[t] = v
			sum += v
		}
		if sum == 0 {
			// Only possible at an edge with n < taps: take the nearest.
			fw[min(max(int(center+0.5)-first, 0), taps-1)] = 1
			sum = 1
		}
		ws.start[i] = int32(first)
		acc := 0
		for t, v := range fw {
			q := int(v/sum*(1<<14) + 0.5)
			ws.w[i*taps+t] = int16(q)
			acc += q
		}
		// Put the rounding remainder on the largest tap so that flat
		// areas stay exactly flat.
		big := 0
		for t := range fw {
			if math.Abs(fw[t]) > math.Abs(fw[big]) {
				big = t
			}
		}
		ws.w[i*taps+big] += int16(1<<14 - acc)
	}
	return ws
}

// resizePlane scales one sw x sh plane into a dw x dh plane.
func resizePlane(src []byte, sstride, sw, sh int, dst []byte, dstride, dw, dh int) {
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
