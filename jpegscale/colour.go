package jpegscale

import (
	"image"
	"image/color"
)

// colourSpace is how a frame's components are to be read, decided as
// libjpeg (jdapimin.c) and image/jpeg decide it.
type colourSpace int

const (
	colourGrey  colourSpace = iota // one component
	colourYCbCr                    // three components, the usual case
	colourRGB                      // three components stored as R, G, B
	colourCMYK                     // four, inverted as Adobe writes them
	colourYCCK                     // four: YCbCr standing for inverted C, M, Y, then inverted K
)

// colour says how the frame's components are read: three are RGB without
// a JFIF header when an Adobe segment names transform 0, or, without an
// Adobe segment, when the components are named R, G and B (libjpeg's
// rule: the Adobe segment's transform wins over the names); four are YCCK when an Adobe segment names a
// transform, CMYK otherwise (with or without an Adobe segment).
func (d *decoder) colour() colourSpace {
	switch d.ncomp {
	case 1:
		return colourGrey
	case 3:
		if d.jfif {
			return colourYCbCr
		}
		if d.adobe {
			// An Adobe segment decides before the components' names are
			// looked at: transform 0 is RGB, any other Y'CbCr.
			if d.adobeTransform == 0 {
				return colourRGB
			}
			return colourYCbCr
		}
		if d.comp[0].id == 'R' && d.comp[1].id == 'G' && d.comp[2].id == 'B' {
			return colourRGB
		}
		return colourYCbCr
	}
	if d.adobe && d.adobeTransform != 0 {
		return colourYCCK
	}
	return colourCMYK
}

// Standard reports whether a JPEG's colour is what every client shows as
// it is: grey, or Y'CbCr at a subsampling image.YCbCr names. RGB, CMYK,
// YCCK and unusual sampling are decoded to 4:4:4 Y'CbCr here, and are best
// sent on re-encoded. Only the headers before the first scan are read.
func Standard(data []byte) bool {
	h, err := ReadHeader(data)
	return err == nil && h.Standard
}

// standardChroma reports whether a three-component frame's sampling is
// one image.YCbCr holds as it is: luma at the full rate, both chroma
// planes alike at a ratio it names.
func (d *decoder) standardChroma() bool {
	y, cb, cr := &d.comp[0], &d.comp[1], &d.comp[2]
	if cb.h != cr.h || cb.v != cr.v || y.h != d.hmax || y.v != d.vmax {
		return false
	}
	_, ok := ratio(y.h/cb.h, y.v/cb.v)
	return ok
}

// convert makes the decoded planes one 4:4:4 Y'CbCr picture of the
// window, whatever the frame's colour space and sampling, so that the
// resize and the encoder take their fast paths: RGB, CMYK and YCCK are
// turned into colour, a subsampled component is repeated over the pixels
// it covers. The planes of components at the full rate are converted in
// place; only a subsampled one costs a new plane.
func (d *decoder) convert(w, h int) image.Image {
	bs := d.bs
	c0 := &d.comp[0]
	mx0, my0 := c0.x0/c0.h, c0.y0/c0.v
	mx1, my1 := c0.x1/c0.h, c0.y1/c0.v
	stride := (mx1 - mx0) * d.hmax * bs
	rows := (my1 - my0) * d.vmax * bs
	// Each output plane is the plane of the component in its place when
	// that one is at the full rate, else a new one.
	var out [3][]byte
	for i := range out {
		if c := &d.comp[i]; c.h == d.hmax && c.v == d.vmax {
			out[i] = c.plane
		} else {
			out[i] = make([]byte, stride*rows)
		}
	}
	r := image.Rect(mx0*d.hmax*bs, my0*d.vmax*bs, mx1*d.hmax*bs, my1*d.vmax*bs).Intersect(image.Rect(0, 0, w, h))
	space := d.colour()
	var src [4]struct {
		plane  []byte
		stride int
		sx, sy int // how many output pixels one sample covers
	}
	for i := 0; i < d.ncomp; i++ {
		c := &d.comp[i]
		src[i].plane, src[i].stride = c.plane, c.stride
		src[i].sx, src[i].sy = d.hmax/c.h, d.vmax/c.v
	}
	for y := 0; y < r.Dy(); y++ {
		var rowOf [4][]byte
		for i := 0; i < d.ncomp; i++ {
			rowOf[i] = src[i].plane[(y/src[i].sy)*src[i].stride:]
		}
		o := y * stride
		for x := 0; x < r.Dx(); x++ {
			var s [4]uint8
			for i := 0; i < d.ncomp; i++ {
				s[i] = rowOf[i][x/src[i].sx]
			}
			var yy, cb, cr uint8
			switch space {
			case colourYCbCr:
				yy, cb, cr = s[0], s[1], s[2]
			case colourRGB:
				yy, cb, cr = color.RGBToYCbCr(s[0], s[1], s[2])
			case colourCMYK:
				// Adobe stores ink inverted: 255 is none.
				yy, cb, cr = color.RGBToYCbCr(mul255(s[0], s[3]), mul255(s[1], s[3]), mul255(s[2], s[3]))
			case colourYCCK:
				cR, cG, cB := color.YCbCrToRGB(s[0], s[1], s[2])
				yy, cb, cr = color.RGBToYCbCr(mul255(255-cR, s[3]), mul255(255-cG, s[3]), mul255(255-cB, s[3]))
			}
			out[0][o+x], out[1][o+x], out[2][o+x] = yy, cb, cr
		}
	}
	for i := 0; i < d.ncomp; i++ {
		d.comp[i].plane = nil
	}
	return &image.YCbCr{
		Y: out[0], Cb: out[1], Cr: out[2],
		YStride: stride, CStride: stride,
		SubsampleRatio: image.YCbCrSubsampleRatio444,
		Rect:           r,
	}
}

// mul255 is a×b/255, rounded: an inverted ink times inverted black.
func mul255(a, b uint8) uint8 {
	t := uint32(a)*uint32(b) + 128
	return uint8((t + t>>8) >> 8)
}
