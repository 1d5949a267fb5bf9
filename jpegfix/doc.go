// Package jpegfix repairs the segment structure of JPEG files without
// touching their pixels.
//
// The grammar is that of ITU-T Recommendation T.81 (ISO/IEC 10918-1),
// Annex B, "Compressed data formats", plus the JFIF and Exif conventions
// for application segments. Cameras often send frames that browsers
// forgive but strict readers refuse: comment segments whose announced
// length is wrong, bytes between segments, data after the end-of-image
// marker, a missing end-of-image marker, a second start-of-image marker.
//
// Repair reads like a tolerant decoder and writes like a strict one: the
// output starts with SOI, its segments chain exactly by their lengths, it
// holds no fill bytes, no comments and no junk, the entropy-coded data and
// every kept segment are copied byte for byte, and it ends with exactly one
// EOI. What cannot be repaired without loss (a table or frame header whose
// length lies, a file cut inside its image data, a body that is not a JPEG
// at all) is refused with a FormatError that says why.
//
// Repair never decodes pixels. It checks that restart markers come in
// order and as many as the frame has intervals, and it walks the
// Huffman-coded data of the last scan when the file ends without an
// end-of-image marker, to tell a complete scan from a cut one; a
// progressive refinement scan is walked from the history of the scans
// before it. With Options.VerifyData it walks every scan as libjpeg reads
// it (djpeg -strict and jpeginfo -c are the strict readers it answers to),
// so that what it calls repaired decodes strictly, and it says where the
// data is damaged when it is.
package jpegfix

//go:generate go run ../internal/camframe/genfixtures -out ../fixtures/jpeg
