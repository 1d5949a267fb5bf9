package jpegscale

import (
	"image"

	"maison/internal/huffman"
)

// Marker codes (the byte after 0xFF), named as in ITU-T T.81 Table B.1.
const (
	markerSOF0  = 0xC0 // baseline DCT
	markerSOF1  = 0xC1 // extended sequential DCT, Huffman coding
	markerSOF2  = 0xC2 // progressive DCT, Huffman coding
	markerSOF3  = 0xC3 // lossless, Huffman coding
	markerDHT   = 0xC4 // define Huffman tables
	markerJPG   = 0xC8 // reserved for JPEG extensions
	markerSOF15 = 0xCF // last SOFn (differential lossless, arithmetic)
	markerDAC   = 0xCC // define arithmetic coding conditioning
	markerRST0  = 0xD0 // restart with modulo 8 count 0
	markerRST7  = 0xD7 // restart with modulo 8 count 7
	markerSOI   = 0xD8 // start of image
	markerEOI   = 0xD9 // end of image
	markerSOS   = 0xDA // start of scan
	markerDQT   = 0xDB // define quantization tables
	markerDNL   = 0xDC // define number of lines
	markerDRI   = 0xDD // define restart interval
	markerAPP0  = 0xE0 // application segment 0 (JFIF)
	markerAPP14 = 0xEE // application segment 14 (Adobe)
	markerTEM   = 0x01 // for temporary private use in arithmetic coding
)

// zigzag maps a zig-zag sequence index to the natural (row-major) index of
// an 8x8 block, from T.81 Figure A.6.
var zigzag = [64]uint8{
	0, 1, 8, 16, 9, 2, 3, 10,
	17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34,
	27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36,
	29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46,
	53, 60, 61, 54, 47, 55, 62, 63,
}

// keepTables[i] maps a zig-zag index to the natural index of the coefficient
// in the block buffer when the reduced IDCT of scale 1<<i reads it (the
// (8>>i)² lowest frequencies), or to 64, a slot nobody reads.
var keepTables = makeKeepTables()

// lastKept[i] is the highest zig-zag index that the reduced IDCT of scale
// 1<<i reads. Progressive scans whose band starts above it can be skipped.
var lastKept = [4]int{63, 24, 4, 0}

func makeKeepTables() (t [4][64]uint8) {
	for i := range t {
		n := 8 >> i
		for k, z := range zigzag {
			if int(z)/8 < n && int(z)%8 < n {
				t[i][k] = z
			} else {
				t[i][k] = 64
			}
		}
	}
	return t
}

// component is one image component of the frame (T.81 B.2.2).
type component struct {
	id     uint8
	index  int
	h, v   int // sampling factors
	tq     uint8
	bw, bh int // blocks in the MCU-padded grid
	cw, ch int // blocks that hold image samples (non-interleaved scan extent)
	plane  []byte
	stride int
	// x0, y0, x1, y1 are the blocks the plane holds: all of them, or the
	// window around the region asked for (DecodeRegion).
	x0, y0, x1, y1 int
	// Progressive: the coefficients a later scan or the reduced IDCT
	// needs. vals holds the first kept (zig-zag order) of each block of
	// the window, the only ones the IDCT reads; nz says, for every block
	// of the component, which of its 64 coefficients are not zero, which
	// is all a refinement scan needs to know of the others. A 1/8 decode
	// keeps 10 bytes a block rather than 128.
	vals []int16
	nz   []uint64
	q    [64]int32
	pred int32 // DC predictor
	seen bool  // covered by a scan (a DC scan when progressive)
}

// decoder holds the state of one decode. It is not reused between images.
type decoder struct {
	data []byte

	scale int // 1, 2, 4 or 8
	log   int // log2(scale)
	bs    int // output samples per block side: 8/scale

	width, height int
	region        image.Rectangle // DecodeRegion: the part wanted, full-size pixels; empty for all
	sof           bool
	progressive   bool
	ncomp         int
	comp          [4]component
	hmax, vmax    int
	mcusX, mcusY  int
	scans         int

	quant    [4][64]int32 // zig-zag order
	quantSet [4]bool
	huff     [2][4]huffTable // [class][id]: class 0 DC, 1 AC
	ri       int             // restart interval in MCUs, 0 for none

	adobe          bool
	adobeTransform uint8
	jfif           bool

	planned   bool   // the progressive scan headers have been read ahead
	canSkip   bool   // and bands the scale does not need can be skipped
	refineMax [4]int // per component, see plan
	kept      int    // progressive: coefficients kept per block of the window, lastKept+1

	br     huffman.Reader
	eobrun int
	blk    [65]int32 // natural order; index 64 absorbs dropped coefficients

	// DecodePartial: damage inside the entropy-coded data is recorded,
	// not returned.
	partial  bool
	headers  bool    // Standard: stop at the first scan header
	state    []uint8 // per MCU of the frame: whole, coarse or missing
	stopped  bool    // progressive: a scan was damaged, later scans are skipped
	softened bool    // and at least one was
}

func (d *decoder) decode(data []byte, pick func(w, h int) int) (image.Image, error) {
	d.data = data
	if len(data) < 2 || data[0] != 0xFF || data[1] != markerSOI {
		return nil, FormatError("missing SOI marker")
	}
	pos := 2
	for {
		// Find the next marker. Bytes other than 0xFF before it are skipped,
		// as libjpeg does (with a warning) and image/jpeg does silently;
		// runs of 0xFF are fill bytes (B.1.1.2).
		for pos < len(data) && data[pos] != 0xFF {
			pos++
		}
		for pos < len(data) && data[pos] == 0xFF {
			pos++
		}
		if pos >= len(data) {
			// The data ends without EOI. Cameras do this; accept it when
			// every component has been decoded, as libjpeg does (with a
			// warning).
			break
		}
		m := data[pos]
		pos++
		switch {
		case m == markerEOI:
			return d.finish()
		case m >= markerRST0 && m <= markerRST7, m == markerTEM:
			// Stand-alone markers without a length. A stray RST between
			// segments is ignored, as libjpeg and image/jpeg do.
			continue
		case m == markerSOI:
			return nil, FormatError("second SOI marker")
		case m == 0x00:
			// A stuffed zero outside a scan: junk, skip it.
			continue
		}
		if pos+2 > len(data) {
			return nil, FormatError("short segment length")
		}
		n := int(data[pos])<<8 | int(data[pos+1])
		if n < 2 || pos+n > len(data) {
			return nil, FormatError("bad segment length")
		}
		seg := data[pos+2 : pos+n]
		pos += n
		var err error
		switch {
		case m == markerSOF0 || m == markerSOF1 || m == markerSOF2:
			err = d.parseSOF(seg, m == markerSOF2, pick)
		case m == markerDHT:
			err = d.parseDHT(seg)
		case m == markerDQT:
			err = d.parseDQT(seg)
		case m == markerDRI:
			err = d.parseDRI(seg)
		case m == markerSOS && d.headers:
			return nil, nil
		case m == markerSOS:
			pos, err = d.scan(seg, pos)
		case m == markerAPP14:
			d.parseAdobe(seg)
		case m == markerAPP0:
			d.jfif = d.jfif || len(seg) >= 5 && string(seg[:5]) == "JFIF\x00"
		case m == markerDAC:
			err = UnsupportedError("arithmetic coding")
		case m == markerDNL:
			err = UnsupportedError("DNL marker")
		case m >= markerSOF3 && m <= markerSOF15 && m != markerDHT && m != markerJPG:
			err = UnsupportedError("SOF marker type 0x" + hex2(m) + " (lossless, hierarchical or arithmetic)")
		case m >= 0xE0 || m == 0xFE:
			// APPn and COM: nothing needed here.
		default:
			err = FormatError("unknown marker 0x" + hex2(m))
		}
		if err != nil {
			return nil, err
		}
	}
	return d.finish()
}

func hex2(b byte) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[b>>4], digits[b&15]})
}

// parseSOF reads a frame header. Specified in section B.2.2.
func (d *decoder) parseSOF(seg []byte, progressive bool, pick func(w, h int) int) error {
	if d.sof {
		return FormatError("second SOF marker")
	}
	if len(seg) < 6 {
		return FormatError("short SOF segment")
	}
	if seg[0] != 8 {
		return UnsupportedError("sample precision other than 8 bits")
	}
	d.height = int(seg[1])<<8 | int(seg[2])
	d.width = int(seg[3])<<8 | int(seg[4])
	nf := int(seg[5])
	if d.height == 0 {
		return UnsupportedError("image height given by a DNL marker")
	}
	if d.width == 0 {
		return FormatError("zero image width")
	}
	switch nf {
	case 1, 3, 4:
	default:
		return UnsupportedError("component count other than 1, 3 or 4")
	}
	if len(seg) != 6+3*nf {
		return FormatError("bad SOF length")
	}
	d.ncomp = nf
	d.progressive = progressive
	d.hmax, d.vmax = 1, 1
	for i := 0; i < nf; i++ {
		c := &d.comp[i]
		c.index = i
		c.id = seg[6+3*i]
		c.h = int(seg[7+3*i] >> 4)
		c.v = int(seg[7+3*i] & 15)
		c.tq = seg[8+3*i]
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 {
			return FormatError("bad sampling factor")
		}
		if c.tq > 3 {
			return FormatError("bad quantization table selector")
		}
		for j := 0; j < i; j++ {
			if d.comp[j].id == c.id {
				return FormatError("repeated component identifier")
			}
		}
		if nf == 1 {
			// A single component is always one block per MCU (A.2.2),
			// whatever factors the header claims.
			c.h, c.v = 1, 1
		}
		d.hmax = max(d.hmax, c.h)
		d.vmax = max(d.vmax, c.v)
	}
	for i := 0; i < nf; i++ {
		if c := &d.comp[i]; d.hmax%c.h != 0 || d.vmax%c.v != 0 {
			return UnsupportedError("sampling factors that do not divide each other")
		}
	}
	d.mcusX = ceilDiv(d.width, 8*d.hmax)
	d.mcusY = ceilDiv(d.height, 8*d.vmax)
	for i := 0; i < nf; i++ {
		c := &d.comp[i]
		c.bw, c.bh = d.mcusX*c.h, d.mcusY*c.v
		c.cw = ceilDiv(ceilDiv(d.width*c.h, d.hmax), 8)
		c.ch = ceilDiv(ceilDiv(d.height*c.v, d.vmax), 8)
	}
	s := pick(d.width, d.height)
	switch s {
	case 1:
		d.log = 0
	case 2:
		d.log = 1
	case 4:
		d.log = 2
	case 8:
		d.log = 3
	default:
		return ErrScale
	}
	d.scale, d.bs = s, 8/s
	d.window()
	d.sof = true
	return nil
}

// window sets the blocks each component's plane holds: whole MCUs around
// d.region, or every block.
func (d *decoder) window() {
	mx0, my0, mx1, my1 := 0, 0, d.mcusX, d.mcusY
	if r := d.region.Intersect(image.Rect(0, 0, d.width, d.height)); !d.region.Empty() && !r.Empty() {
		mw, mh := 8*d.hmax, 8*d.vmax
		mx0, my0, mx1, my1 = r.Min.X/mw, r.Min.Y/mh, ceilDiv(r.Max.X, mw), ceilDiv(r.Max.Y, mh)
	}
	for i := 0; i < d.ncomp; i++ {
		c := &d.comp[i]
		c.x0, c.y0, c.x1, c.y1 = mx0*c.h, my0*c.v, mx1*c.h, my1*c.v
	}
}

// ratio maps luma-to-chroma sampling factor ratios to image/color ratios.
func ratio(h, v int) (image.YCbCrSubsampleRatio, bool) {
	switch {
	case h == 1 && v == 1:
		return image.YCbCrSubsampleRatio444, true
	case h == 2 && v == 1:
		return image.YCbCrSubsampleRatio422, true
	case h == 2 && v == 2:
		return image.YCbCrSubsampleRatio420, true
	case h == 1 && v == 2:
		return image.YCbCrSubsampleRatio440, true
	case h == 4 && v == 1:
		return image.YCbCrSubsampleRatio411, true
	case h == 4 && v == 2:
		return image.YCbCrSubsampleRatio410, true
	}
	return 0, false
}

// parseDQT reads quantization tables. Specified in section B.2.4.1.
func (d *decoder) parseDQT(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, seg[0]&15
		if tq > 3 || pq > 1 {
			return FormatError("bad DQT table selector or precision")
		}
		seg = seg[1:]
		t := &d.quant[tq]
		if pq == 0 {
			if len(seg) < 64 {
				return FormatError("short DQT segment")
			}
			for k := range t {
				t[k] = int32(seg[k])
			}
			seg = seg[64:]
		} else {
			if len(seg) < 128 {
				return FormatError("short DQT segment")
			}
			for k := range t {
				t[k] = int32(seg[2*k])<<8 | int32(seg[2*k+1])
			}
			seg = seg[128:]
		}
		d.quantSet[tq] = true
	}
	return nil
}

// parseDHT reads Huffman tables. Specified in section B.2.4.2.
func (d *decoder) parseDHT(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return FormatError("short DHT segment")
		}
		tc, th := seg[0]>>4, seg[0]&15
		if tc > 1 || th > 3 {
			return FormatError("bad DHT table class or identifier")
		}
		var counts [16]uint8
		copy(counts[:], seg[1:17])
		total := 0
		for _, c := range counts {
			total += int(c)
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return FormatError("bad DHT code counts")
		}
		if err := d.huff[tc][th].build(&counts, seg[17:17+total], tc == 1); err != nil {
			return err
		}
		seg = seg[17+total:]
	}
	return nil
}

// parseDRI reads the restart interval. Specified in section B.2.4.4.
func (d *decoder) parseDRI(seg []byte) error {
	if len(seg) != 2 {
		return FormatError("bad DRI length")
	}
	d.ri = int(seg[0])<<8 | int(seg[1])
	return nil
}

// parseAdobe notes the colour transform flag of an Adobe APP14 segment: with
// three components, 0 means RGB rather than YCbCr.
func (d *decoder) parseAdobe(seg []byte) {
	if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
		d.adobe = true
		d.adobeTransform = seg[11]
	}
}

// finish checks that every component was decoded, runs the inverse DCT of a
// progressive image, and builds the output image.
func (d *decoder) finish() (image.Image, error) {
	if !d.sof {
		return nil, FormatError("missing SOF marker")
	}
	if d.scans == 0 {
		return nil, FormatError("missing SOS marker")
	}
	for i := 0; i < d.ncomp; i++ {
		if !d.comp[i].seen {
			return nil, FormatError("a component has no scan")
		}
	}
	if d.progressive {
		d.reconstruct()
	}
	w, h := ceilDiv(d.width, d.scale), ceilDiv(d.height, d.scale)
	if sp := d.colour(); sp != colourGrey && (sp != colourYCbCr || !d.standardChroma()) {
		return d.convert(w, h), nil
	}
	y := &d.comp[0]
	// The planes start at the window's first MCU, so the image's bounds do
	// too: image.YCbCr finds chroma from Rect.Min, which lies on the MCU grid.
	r := image.Rect(y.x0*d.bs*d.hmax/y.h, y.y0*d.bs*d.vmax/y.v, y.x1*d.bs*d.hmax/y.h, y.y1*d.bs*d.vmax/y.v).Intersect(image.Rect(0, 0, w, h))
	if d.ncomp == 1 {
		return &image.Gray{Pix: y.plane, Stride: y.stride, Rect: r}, nil
	}
	cb, cr := &d.comp[1], &d.comp[2]
	sr, _ := ratio(y.h/cb.h, y.v/cb.v)
	return &image.YCbCr{
		Y: y.plane, Cb: cb.plane, Cr: cr.plane,
		YStride: y.stride, CStride: cb.stride,
		SubsampleRatio: sr,
		Rect:           r,
	}, nil
}

// allocate gives a component its output plane (and coefficient store when
// progressive) the first time a scan covers it, once the remaining data is
// known to be large enough: every block costs at least one bit, so a scan of
// more blocks than 8 per remaining byte cannot be complete. This bounds memory
// by the input size.
func (d *decoder) allocate(c *component, remaining int) error {
	if c.plane != nil {
		return nil
	}
	if c.cw*c.ch > 8*remaining {
		return FormatError("scan data too short for the image size")
	}
	if !d.quantSet[c.tq] {
		return FormatError("undefined quantization table")
	}
	c.q = d.quant[c.tq]
	c.stride = (c.x1 - c.x0) * d.bs
	c.plane = make([]byte, c.stride*(c.y1-c.y0)*d.bs)
	if d.partial {
		// What never decodes stays the grey of an all-zero block.
		for i := range c.plane {
			c.plane[i] = 128
		}
	}
	if d.progressive {
		d.kept = lastKept[d.log] + 1
		c.vals = make([]int16, (c.x1-c.x0)*(c.y1-c.y0)*d.kept)
		c.nz = make([]uint64, c.bw*c.bh)
	}
	return nil
}
