package jpegfix

import "encoding/binary"

// Frame is what the segments tell of the picture a JPEG holds, for the
// steps after repair: its frame header (section B.2.2) and the Exif
// orientation. Fitting a frame to a client's limits needs nothing else
// from the segments.
type Frame struct {
	// Width and Height are the picture's size in pixels as stored, before
	// any turn Orientation asks for.
	Width, Height int
	// Components counts the colour components: 1 grey, 3 colour (YCbCr
	// or RGB), 4 CMYK or YCCK. Zero when no frame header was read.
	Components int
	// Sampling holds the sampling factors of the first four components,
	// in frame order.
	Sampling [4]Sampling
	// Precision is the number of bits of each sample: 8, or 12 for the
	// extended coding.
	Precision int
	// Progressive reports that the coefficients come in several scans
	// (SOF2, SOF6, SOF10 or SOF14) rather than in one.
	Progressive bool
	// Arithmetic, Lossless and Hierarchical say which coding process the
	// frame header names (section B.1.1.3, Table B.1): arithmetic rather
	// than Huffman coding (SOF9 to SOF15), lossless rather than DCT (SOF3,
	// SOF7, SOF11, SOF15), hierarchical, with differential frames (SOF5 to
	// SOF7, SOF13 to SOF15). All false for the baseline, extended and
	// progressive Huffman frames cameras send.
	Arithmetic, Lossless, Hierarchical bool
	// Orientation is the Exif orientation, 1 to 8 (TIFF tag 0x0112): how
	// the stored picture turns to stand upright. It is 1, as stored, when
	// no Exif segment comes before the first scan or when the first one
	// does not say. Repair reads it before StripMetadata drops the segment.
	Orientation int
}

// Sampling is one component's horizontal and vertical sampling factors,
// 1 to 4 each (section A.1.1).
type Sampling struct{ H, V int }

// facts returns the frame header's facts, with the orientation unset.
func (f *frameGeom) facts() Frame {
	fr := Frame{Width: f.width, Height: f.height, Components: f.nf, Precision: f.precision, Orientation: 1}
	switch f.code {
	case sof2Marker, 0xc6, 0xca, 0xce:
		fr.Progressive = true
	}
	fr.Arithmetic = f.code >= 0xc9
	switch f.code {
	case sof3Marker, 0xc7, 0xcb, sof15Marker:
		fr.Lossless = true
	}
	switch f.code {
	case 0xc5, 0xc6, 0xc7, 0xcd, 0xce, sof15Marker:
		fr.Hierarchical = true
	}
	for i := range min(f.nf, len(fr.Sampling)) {
		fr.Sampling[i] = Sampling{H: f.h(i), V: f.v(i)}
	}
	return fr
}

// ReadFrame reads the facts Report.Frame holds from the headers of a
// strict JPEG, such as Repair writes or Go's encoder does: SOI, then
// segments that chain exactly by their lengths up to the first scan. Its
// image data is not read. A body that is not such a JPEG gets a
// FormatError: ProblemNotJPEG when it does not start as a JPEG does.
func ReadFrame(b []byte) (Frame, error) {
	var fr Frame
	if len(b) < 2 || b[0] != 0xff || b[1] != soiMarker {
		return fr, refuse(ProblemNotJPEG, 0, describe(b))
	}
	_, err := walkStrict(b, 0, &fr, nil)
	return fr, err
}

// exifOrientation reads the orientation from the payload of an APP1
// segment, or returns 0 when the payload is not Exif, and 1 when the Exif
// data does not say or is malformed (anything malformed means "as
// stored"). Exif 2.32 section 4.6.4 (the TIFF structure) and 4.6.5 (tag
// 0x0112).
func exifOrientation(payload []byte) int {
	if len(payload) < 6 || string(payload[:6]) != "Exif\x00\x00" {
		return 0
	}
	t := payload[6:]
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[ifd:]))
	for k := range count {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}
