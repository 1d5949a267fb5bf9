package jpegfix

import (
	"fmt"

	"maison/internal/huffman"
)

// Check reports whether b is a strict JPEG of the shape Repair writes: SOI
// first; marker segments that chain exactly by their lengths, with no fill
// byte or junk between them; a frame header before the first scan; each
// scan's entropy-coded data holding only stuffed bytes and restart markers;
// and one EOI as the last two bytes. It does not decode the image. The
// error, a FormatError, names the first offence.
func Check(b []byte) error {
	end, err := walkStrict(b, 0, nil, nil)
	if err == nil && end != len(b) {
		err = refuse(ProblemDamaged, end, fmt.Sprintf("at byte %s, %s follow the end-of-image marker", commas(end), nbytes(len(b)-end)))
	}
	return err
}

// walkStrict walks a strict JPEG that starts with SOI at offset start and
// returns the offset just after its EOI. With fr, it reads the frame's
// facts into fr instead and stops at the first scan header, returning its
// offset. With memo, a walk that reaches a segment in the state an
// earlier walk reached it stops there, refused: each segment is then
// walked at most once however many walks start (see walkMemo).
func walkStrict(b []byte, start int, fr *Frame, memo *walkMemo) (int, error) {
	n := len(b)
	bad := func(off int, format string, args ...any) (int, error) {
		return 0, refuse(ProblemDamaged, off, fmt.Sprintf("at byte %s, ", commas(off))+fmt.Sprintf(format, args...))
	}
	if start+4 > n || b[start] != 0xff || b[start+1] != soiMarker {
		return bad(start, "the data does not start with a start-of-image marker")
	}
	sof, scans, exif := false, 0, false
	p := start + 2
	for {
		if memo != nil && memo.reached(p, sof, scans > 0) {
			return bad(p, "an earlier walk reached this segment in the same state")
		}
		if p+2 > n {
			return bad(p, "the data ends without an end-of-image marker")
		}
		if b[p] != 0xff {
			return bad(p, "byte 0x%02X stands where a marker should", b[p])
		}
		code := b[p+1]
		if code == eoiMarker {
			if scans == 0 {
				return bad(p, "the image ends before any scan")
			}
			return p + 2, nil
		}
		if !isSegment(code) {
			return bad(p, "marker 0x%02X may not stand between segments", code)
		}
		if p+4 > n {
			return bad(p, "the data ends inside a segment header")
		}
		l := int(b[p+2])<<8 | int(b[p+3])
		end := p + 2 + l
		if l < 2 || end > n {
			return bad(p, "a segment announces %s, beyond the end of the data", nbytes(l))
		}
		switch {
		case isSOF(code):
			if sof {
				return bad(p, "a second frame header follows the first")
			}
			if why := validSOF(b, p, l); why != "" {
				return bad(p, "the frame header %s", why)
			}
			sof = true
			if fr != nil {
				o := fr.Orientation
				g := readFrame(b, p)
				*fr = g.facts()
				fr.Orientation = max(o, 1)
			}
		case code == app1Marker && fr != nil && !exif:
			if o := exifOrientation(b[p+4 : end]); o > 0 {
				fr.Orientation, exif = o, true
			}
		case code == dqtMarker && !validDQT(b, p, l),
			code == dhtMarker && !validDHT(b, p, l),
			code == dacMarker && !validDAC(b, p, l),
			(code == driMarker || code == dnlMarker) && l != 4:
			return bad(p, "a table segment announces %s, which disagrees with its content", nbytes(l))
		case code == sosMarker:
			if !sof {
				return bad(p, "a scan starts before the frame header")
			}
			if !validSOS(b, p, l) {
				return bad(p, "the scan header announces %s, which disagrees with its content", nbytes(l))
			}
			if fr != nil {
				return p, nil
			}
			scans++
			q := end
			for {
				q = huffman.NextMarker(b, q)
				if q+1 >= n {
					return bad(n, "the image data runs to the end without an end-of-image marker")
				}
				if isRST(b[q+1]) {
					q += 2
					continue
				}
				break
			}
			end = q
		}
		p = end
	}
}

// walkMemo remembers, for the walks of the JPEG files embedded in a
// damaged span (Exif thumbnails, see nextMarker), which segments a walk
// reached and in which state: whether a frame header and a scan were read
// before. A walk from there on goes as the earlier one went, and the
// earlier one failed, or the damaged span would have been skipped to its
// end; hostile bytes can hide thousands of starts of images whose walks
// all run into the same chain of segments.
type walkMemo struct {
	seen  []uint64 // one bit per offset and state
	steps int      // segments walked
}

// reached marks offset p in the given state and reports whether a walk
// reached it so before.
func (m *walkMemo) reached(p int, sof, scanned bool) bool {
	m.steps++
	s := p << 2
	if sof {
		s |= 2
	}
	if scanned {
		s |= 1
	}
	if s>>6 >= len(m.seen) {
		return false
	}
	bit := uint64(1) << (s & 63)
	was := m.seen[s>>6]&bit != 0
	m.seen[s>>6] |= bit
	return was
}
