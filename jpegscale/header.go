package jpegscale

import "image"

// Header is what a JPEG's headers, up to its first scan, tell of a decode
// of it: its size, and the memory a decode at a scale holds. Reading one
// costs a walk of the segments, never of the image data.
type Header struct {
	Width, Height int
	// Standard is Standard's answer: grey, or Y'CbCr at a subsampling
	// image.YCbCr names.
	Standard    bool
	Progressive bool
	ncomp       int
	h, v        [4]int
	hmax, vmax  int
}

// ReadHeader reads the headers of data up to its first scan. A coding
// this package does not decode is an UnsupportedError, as Decode would
// return it.
func ReadHeader(data []byte) (Header, error) {
	d := &decoder{headers: true}
	if _, err := d.decode(data, func(int, int) int { return 8 }); err != nil {
		return Header{}, err
	}
	if !d.sof {
		return Header{}, FormatError("missing SOF marker")
	}
	h := Header{Width: d.width, Height: d.height, Progressive: d.progressive, ncomp: d.ncomp, hmax: d.hmax, vmax: d.vmax}
	for i := 0; i < d.ncomp; i++ {
		h.h[i], h.v[i] = d.comp[i].h, d.comp[i].v
	}
	sp := d.colour()
	h.Standard = sp == colourGrey || sp == colourYCbCr && d.standardChroma()
	return h, nil
}

// DecodeBytes is the memory a decode at 1/scale holds at its peak, in
// bytes: the planes of the window around r (the whole picture when r is
// empty), for a progressive frame the coefficients kept until the last
// scan, and the planes a colour conversion adds. It counts what allocate
// and convert make, no less.
func (h Header) DecodeBytes(scale int, r image.Rectangle) int64 {
	bs := int64(8 / max(1, min(scale, 8)))
	mcusX, mcusY := ceilDiv(h.Width, 8*h.hmax), ceilDiv(h.Height, 8*h.vmax)
	mx0, my0, mx1, my1 := 0, 0, mcusX, mcusY
	if w := r.Intersect(image.Rect(0, 0, h.Width, h.Height)); !r.Empty() && !w.Empty() {
		mw, mh := 8*h.hmax, 8*h.vmax
		mx0, my0, mx1, my1 = w.Min.X/mw, w.Min.Y/mh, ceilDiv(w.Max.X, mw), ceilDiv(w.Max.Y, mh)
	}
	wx, wy := int64(mx1-mx0), int64(my1-my0)
	kept := int64(lastKept[logOf(scale)] + 1)
	var n int64
	for i := 0; i < h.ncomp; i++ {
		blocks := wx * int64(h.h[i]) * wy * int64(h.v[i])
		n += blocks * bs * bs
		if h.Progressive {
			n += int64(mcusX*h.h[i]*mcusY*h.v[i])*8 + blocks*kept*2
		}
	}
	if !h.Standard && h.ncomp > 1 {
		// convert: a new full-rate plane for each subsampled component
		// of the three it writes; at most three.
		full := wx * int64(h.hmax) * bs * wy * int64(h.vmax) * bs
		for i := range 3 {
			if h.h[i] != h.hmax || h.v[i] != h.vmax {
				n += full
			}
		}
	}
	return n
}

// logOf is log2 of a scale of 1, 2, 4 or 8.
func logOf(scale int) int {
	switch scale {
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	return 0
}
