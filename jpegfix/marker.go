package jpegfix

// Marker codes, the byte that follows 0xFF. Specified in section B.1.1.3
// and table B.1.
const (
	sof0Marker  = 0xc0 // Start Of Frame, Baseline Sequential.
	sof1Marker  = 0xc1 // Start Of Frame, Extended Sequential, Huffman.
	sof2Marker  = 0xc2 // Start Of Frame, Progressive, Huffman.
	sof3Marker  = 0xc3 // Start Of Frame, Lossless, Huffman.
	dhtMarker   = 0xc4 // Define Huffman Table.
	sof15Marker = 0xcf // Start Of Frame, Differential Lossless, Arithmetic.
	jpgMarker   = 0xc8 // Reserved for JPEG extensions.
	dacMarker   = 0xcc // Define Arithmetic Coding conditioning.
	rst0Marker  = 0xd0 // ReSTart (0).
	rst7Marker  = 0xd7 // ReSTart (7).
	soiMarker   = 0xd8 // Start Of Image.
	eoiMarker   = 0xd9 // End Of Image.
	sosMarker   = 0xda // Start Of Scan.
	dqtMarker   = 0xdb // Define Quantization Table.
	dnlMarker   = 0xdc // Define Number of Lines.
	dhpMarker   = 0xde // Define Hierarchical Progression: a hierarchical file's first segment of a frame's kind.
	driMarker   = 0xdd // Define Restart Interval.
	app0Marker  = 0xe0 // APPlication specific (0): JFIF.
	app1Marker  = 0xe1 // APPlication specific (1): Exif, XMP.
	app2Marker  = 0xe2 // APPlication specific (2): ICC profile, MPF.
	app13Marker = 0xed // APPlication specific (13): Photoshop, IPTC.
	app14Marker = 0xee // APPlication specific (14): Adobe.
	app15Marker = 0xef // APPlication specific (15).
	comMarker   = 0xfe // COMment.
	temMarker   = 0x01 // TEMporary private use in arithmetic coding.
)

// isSOF reports whether c starts a frame header: SOF0 to SOF15 except DHT
// (C4), JPG (C8) and DAC (CC). Specified in section B.2.2.
func isSOF(c byte) bool {
	return c >= sof0Marker && c <= sof15Marker && c != dhtMarker && c != jpgMarker && c != dacMarker
}

// isRST reports whether c is one of the eight restart markers, which carry
// no length and may only appear inside entropy-coded data. Specified in
// section B.2.1.
func isRST(c byte) bool { return c >= rst0Marker && c <= rst7Marker }

// isAPP reports whether c is an application segment, APP0 to APP15.
// Specified in section B.2.4.6.
func isAPP(c byte) bool { return c >= app0Marker && c <= app15Marker }

// isSegment reports whether c starts a marker segment with a length field
// that may legally appear between the start of the image and its end:
// frame headers, tables, scan headers and miscellaneous segments.
// Reserved codes, JPG, JPGn, DHP and EXP are excluded: libjpeg stops on
// them, so they are treated as damage.
func isSegment(c byte) bool {
	switch {
	case isSOF(c), isAPP(c):
		return true
	}
	switch c {
	case dhtMarker, dacMarker, sosMarker, dqtMarker, dnlMarker, driMarker, comMarker:
		return true
	}
	return false
}
