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

// resizePlane scales one sw x sh plane into a dw x dh plane: a horizontal
// pass into a dw x sh plane, then a vertical one. Each output sample sums
// only its taps of nonzero weight; rows of the first pass and of the
// second are shared between two goroutines when the plane is large.
func resizePlane(src []byte, sstride, sw, sh int, dst []byte, dstride, dw, dh int) {
	hw := makeWeights(sw, dw).trim()
	vw := makeWeights(sh, dh).trim()
	tmp := make([]byte, dw*sh)
	halves(sh, dw*sh, func(y0, y1 int) {
		y := y0
		for ; y+4 <= y1; y += 4 {
			hw.rows4(src[y*sstride:], sstride, sw, tmp[y*dw:y*dw+4*dw], dw)
		}
		for ; y < y1; y++ {
			hw.row(src[y*sstride:y*sstride+sw], tmp[y*dw:y*dw+dw])
		}
	})
	halves(dh, dw*dh, func(y0, y1 int) {
		acc := make([]int32, dw)
		for y := y0; y < y1; y++ {
			vw.column(tmp, dw, y, acc, dst[y*dstride:y*dstride+dw])
		}
	})
}

// halves runs f over rows [0, n), split in two halves on two goroutines
// when the work (samples) is worth it.
func halves(n, samples int, f func(from, to int)) {
	if samples < 1<<18 || n < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { f(n/2, n) })
	f(0, n/2)
	wg.Wait()
}

// span is an output sample's taps of nonzero weight: from the source
// index first, the weights w.
type span struct {
	first int
	w     []int32
}

// spans are the trimmed taps of every output sample.
type spans []span

// trim drops each output's leading and trailing taps of zero weight (which
// include every tap past the end of the source), so that the sums read
// only source samples that count.
func (ws weights) trim() spans {
	out := make(spans, len(ws.start))
	all := make([]int32, len(ws.w))
	for i, v := range ws.w {
		all[i] = int32(v)
	}
	for i := range out {
		w := all[i*ws.taps : (i+1)*ws.taps]
		lo, hi := 0, len(w)
		for lo < hi && w[lo] == 0 {
			lo++
		}
		for hi > lo && w[hi-1] == 0 {
			hi--
		}
		out[i] = span{first: int(ws.start[i]) + lo, w: w[lo:hi:hi]}
	}
	return out
}

// row filters one source row into one output row.
func (sp spans) row(in, out []byte) {
	for x := range out {
		s := &sp[x]
		w := s.w
		r := in[s.first : s.first+len(w)]
		acc := int32(1 << 13)
		t := 0
		for ; t+1 < len(w); t += 2 {
			acc += w[t]*int32(r[t]) + w[t+1]*int32(r[t+1])
		}
		if t < len(w) {
			acc += w[t] * int32(r[t])
		}
		out[x] = clamp8(int64(acc >> 14))
	}
}

// rows4 filters four source rows, stride apart and sw samples long, into
// four output rows of out, dw apart: the weights are read once for the
// four.
func (sp spans) rows4(in []byte, stride, sw int, out []byte, dw int) {
	r0, r1, r2, r3 := in[:sw], in[stride:stride+sw], in[2*stride:2*stride+sw], in[3*stride:3*stride+sw]
	o0, o1, o2, o3 := out[:dw], out[dw:2*dw], out[2*dw:3*dw], out[3*dw:4*dw]
	for x := range o0 {
		s := &sp[x]
		w := s.w
		f, l := s.first, s.first+len(w)
		a0, a1, a2, a3 := r0[f:l], r1[f:l], r2[f:l], r3[f:l]
		a1, a2, a3 = a1[:len(w)], a2[:len(w)], a3[:len(w)]
		a0 = a0[:len(w)]
		c0, c1, c2, c3 := int32(1<<13), int32(1<<13), int32(1<<13), int32(1<<13)
		for t, wt := range w {
			c0 += wt * int32(a0[t])
			c1 += wt * int32(a1[t])
			c2 += wt * int32(a2[t])
			c3 += wt * int32(a3[t])
		}
		o0[x], o1[x], o2[x], o3[x] = clamp8(int64(c0>>14)), clamp8(int64(c1>>14)), clamp8(int64(c2>>14)), clamp8(int64(c3>>14))
	}
}

// column filters the rows of tmp (dw samples each) into output row y,
// using acc (dw sums) as scratch.
func (sp spans) column(tmp []byte, dw, y int, acc []int32, out []byte) {
	s := &sp[y]
	w := s.w
	for x := range acc {
		acc[x] = 1 << 13
	}
	t := 0
	for ; t+1 < len(w); t += 2 {
		a := tmp[(s.first+t)*dw : (s.first+t)*dw+dw]
		b := tmp[(s.first+t+1)*dw : (s.first+t+1)*dw+dw]
		w0, w1 := w[t], w[t+1]
		acc := acc[:len(a)]
		b = b[:len(a)]
		for x, v := range a {
			acc[x] += w0*int32(v) + w1*int32(b[x])
		}
	}
	if t < len(w) {
		a := tmp[(s.first+t)*dw : (s.first+t)*dw+dw]
		w0 := w[t]
		acc := acc[:len(a)]
		for x, v := range a {
			acc[x] += w0 * int32(v)
		}
	}
	out = out[:len(acc)]
	for x, v := range acc {
		out[x] = clamp8(int64(v >> 14))
	}
}
