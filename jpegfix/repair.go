package jpegfix

import (
	"bytes"
	"fmt"

	"maison/internal/huffman"
)

// Options selects the repair policy. The zero value drops every COM segment
// and keeps APPn segments.
type Options struct {
	// StripMetadata drops APPn segments except APP0 JFIF, APP2 ICC_PROFILE
	// and APP14 Adobe, which decoding needs. False keeps every valid APPn
	// segment as it is.
	StripMetadata bool
	// VerifyData walks the Huffman-coded data of every scan as a strict
	// decoder reads it, without computing pixels: every code defined, every
	// block present, every restart interval ending at its restart marker,
	// the progression of a progressive frame legal. Bytes decoders skip
	// inside the data (a few extra bytes before a restart marker, as some
	// webcams write) are removed; damage is refused with where it lies.
	// It costs a Huffman walk of the whole data, without pixels: about 60
	// to 90 MB/s, some fifteen times the repair without it (see
	// BENCHMARKS.md). Without it, Repair reads entropy-coded data only to
	// prove complete a scan that ends without an end-of-image marker.
	// Frames whose coding the walk does not read (arithmetic, lossless,
	// hierarchical, 12-bit, height given by DNL, colour layouts other than
	// one or three components) are repaired as without it, and
	// Report.Unchecked says why; so are colour frames naming an Adobe
	// transform libjpeg does not know.
	VerifyData bool
}

// Repair repairs src with the zero Options: comments dropped, application
// segments kept. See Options.Repair.
func Repair(src []byte) ([]byte, Report, error) { return Options{}.Repair(src) }

// Repair returns a copy of src rewritten as a strict JPEG, and a report of
// each change. The copy starts with SOI, its segments chain exactly by
// their lengths, it has no fill bytes, junk or comments, its entropy-coded
// data and every kept segment are byte for byte those of src, and it ends
// with one EOI. The result never shares memory with src and is at most
// len(src)+2 bytes long.
//
// When src cannot be repaired without loss, Repair returns a nil slice and
// a FormatError; the report then lists the fixes made before the refusal.
func (o Options) Repair(src []byte) ([]byte, Report, error) {
	r := repairer{src: src, opts: o}
	err := r.run()
	if err == nil {
		err = r.finish()
	}
	rep := Report{Fixes: r.fixes, InBytes: len(src), Unchecked: r.unchecked, Start: r.start}
	if r.sofAt >= 0 {
		rep.Frame = r.frame.facts()
		rep.Frame.Orientation = max(r.orientation, 1)
	}
	if err != nil {
		return nil, rep, err
	}
	out := r.assemble()
	rep.OutBytes = len(out)
	return out, rep, nil
}

const (
	// maxLeadingJunk bounds the search for SOI when the input does not
	// start with one.
	maxLeadingJunk = 64 << 10
)

// repairer holds the state of one Repair call.
type repairer struct {
	src    []byte
	keep   int      // start of the kept range in progress
	ranges [][2]int // kept ranges of src, in order, once closed
	eoi    bool     // append an EOI after the ranges
	opts   Options
	fixes  []Fix

	sofAt   int       // offset of the frame header, or -1 before it
	frame   frameGeom // the frame header, once read
	scanned bool      // a complete scan has been walked
	done    bool      // the output is complete
	huff    [2][4]int // offset of each Huffman table's Tc/Th byte, plus one; 0 if undefined
	quant   [4]bool   // quantization tables defined
	restart int       // current restart interval in MCUs (DRI)

	start       int // offset of the SOI marker
	orientation int // the Exif orientation, once an Exif segment before the first scan is read; 0 before

	jfif      bool         // a JFIF header is kept
	adobe     int          // the colour transform of the Adobe segment kept, plus one; 0 if none
	walker    *walker      // with VerifyData, walks every scan in order
	unchecked string       // why VerifyData could not walk the data
	scans     []scanParams // the scans of a progressive frame, for replaying their history
}

// drop removes src[from:to] from the output.
func (r *repairer) drop(from, to int) {
	r.flush(from)
	r.keep = to
}

// flush closes the kept range in progress at offset to.
func (r *repairer) flush(to int) {
	if to > r.keep {
		r.ranges = append(r.ranges, [2]int{r.keep, to})
	}
	r.keep = to
}

// assemble copies the kept ranges into a new slice. Walking first and
// copying afterwards lets the largest range (the image data) be copied in
// one move into memory that need not be cleared first: the allocation
// starts as a copy of src shifted so that this range lands in place, and
// the small ranges around it are then copied over.
func (r *repairer) assemble() []byte {
	total, big, bigAt := 0, 0, 0
	for i, rg := range r.ranges {
		if rg[1]-rg[0] > r.ranges[big][1]-r.ranges[big][0] {
			big, bigAt = i, total
		}
		total += rg[1] - rg[0]
	}
	if r.eoi {
		total += 2
	}
	var out []byte
	start := r.ranges[big][0] - bigAt
	aligned := start+total <= len(r.src)
	if aligned {
		out = append([]byte(nil), r.src[start:start+total]...)
	} else {
		out = make([]byte, total)
	}
	at := 0
	for i, rg := range r.ranges {
		if i != big || !aligned {
			copy(out[at:], r.src[rg[0]:rg[1]])
		}
		at += rg[1] - rg[0]
	}
	if r.eoi {
		out[at], out[at+1] = 0xff, eoiMarker
	}
	return out
}

func (r *repairer) fix(f Fix) { r.fixes = append(r.fixes, f) }

func (r *repairer) run() error {
	src := r.src
	start, err := findSOI(src)
	if err != nil {
		return err
	}
	r.sofAt, r.start = -1, start
	if start > 0 {
		// Tolerated: junk before SOI (motionEye, gphoto2 and multipart
		// streams leave zeros or headers there). libjpeg refuses it.
		r.fix(Fix{Offset: 0, Kind: FixLeadingJunk, Dropped: start})
		r.keep = start
	}
	p := start + 2
	n := len(src)
	for !r.done {
		if err != nil {
			return err
		}
		if p >= n {
			return r.finishAtEOF()
		}
		if src[p] != 0xff {
			p, err = r.resync(p)
			continue
		}
		q := p + 1
		for q < n && src[q] == 0xff {
			q++
		}
		if q >= n {
			p, err = r.resync(p)
			continue
		}
		m := q - 1 // the marker's 0xFF
		if m > p {
			// Any number of fill bytes may precede a marker (section
			// B.1.1.2), but some strict readers refuse them: drop them.
			r.drop(p, m)
			r.fix(Fix{Offset: p, Marker: src[q], Kind: FixFill, Dropped: m - p})
		}
		code := src[q]
		switch {
		case code == soiMarker:
			if r.scanned {
				err = r.finishImage(m)
				continue
			}
			// Tolerated: a second SOI, which libjpeg refuses as fatal.
			r.drop(m, m+2)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixExtraSOI, Dropped: 2})
			p = m + 2
		case code == eoiMarker:
			if !r.scanned {
				// An EOI before any image data ends nothing: drop it.
				r.drop(m, m+2)
				r.fix(Fix{Offset: m, Marker: code, Kind: FixStrayMarker, Dropped: 2})
				p = m + 2
				continue
			}
			// Decoders stop at EOI and never read what follows; strict
			// readers may, so drop it.
			r.flush(m + 2)
			if rest := n - (m + 2); rest > 0 {
				k := FixTrailingData
				if bytes.HasPrefix(src[m+2:], []byte{0xff, soiMarker, 0xff}) {
					k = FixSecondImage
				}
				r.fix(Fix{Offset: m + 2, Kind: k, Dropped: rest})
			}
			r.done = true
		case isRST(code) || code == temMarker:
			// Restart and TEM markers carry no length; outside a scan they
			// mean nothing (Go's decoder skips a stray final RST too).
			r.drop(m, m+2)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixStrayMarker, Dropped: 2})
			p = m + 2
		case isSegment(code):
			p, err = r.segment(m, code)
		default:
			// 0xFF00 or a reserved marker between segments: garbage.
			p, err = r.resync(m)
		}
	}
	return err
}

// finishAtEOF closes an image whose input ended without EOI.
func (r *repairer) finishAtEOF() error {
	n := len(r.src)
	if !r.scanned {
		if r.sofAt < 0 {
			return refuse(ProblemNoImage, n, "the file ends before any frame header; it holds no image")
		}
		return refuse(ProblemNoImage, n, "the file ends before any image data (no start-of-scan marker)")
	}
	r.flush(n)
	r.eoi = true
	r.fix(Fix{Offset: n, Marker: eoiMarker, Kind: FixMissingEOI})
	r.done = true
	return nil
}

// finishImage closes the image at offset at, where a second image starts,
// and drops the rest.
func (r *repairer) finishImage(at int) error {
	n := len(r.src)
	r.drop(at, n)
	r.fix(Fix{Offset: at, Kind: FixSecondImage, Dropped: n - at})
	r.eoi = true
	r.fix(Fix{Offset: at, Marker: eoiMarker, Kind: FixMissingEOI})
	r.done = true
	return nil
}

// resync drops garbage from offset from up to the next real marker and
// returns that marker's offset. Tolerated like libjpeg, which skips
// "extraneous bytes before marker" with a warning; strict readers refuse
// them.
func (r *repairer) resync(from int) (int, error) {
	n := len(r.src)
	c := r.nextMarker(from)
	if c < 0 {
		if !r.scanned {
			return 0, r.refuseNoMarker(from)
		}
		c = n
	}
	r.drop(from, c)
	r.fix(Fix{Offset: from, Kind: FixGarbage, Dropped: c - from})
	return c, nil
}

func (r *repairer) refuseNoMarker(from int) error {
	if r.src[from] == 0xff && from+1 < len(r.src) {
		c := r.src[from+1]
		if c != 0 && c != 0xff && !isSegment(c) && !isRST(c) && c != soiMarker && c != eoiMarker {
			return refuse(ProblemDamaged, from, fmt.Sprintf("an unsupported marker 0x%02X at byte %s hides the rest of the file and no valid segment follows it", c, commas(from)))
		}
	}
	return refuse(ProblemDamaged, from, fmt.Sprintf("the bytes from byte %s on belong to no segment and no image data follows them", commas(from)))
}

// nextMarker returns the offset of the first real marker at or after from,
// or -1. Specified by the rescanning rules: a candidate counts only when its
// code may appear between segments, its length fits the file and its
// content, and its end lands on another plausible marker.
func (r *repairer) nextMarker(from int) int {
	src := r.src
	for from < len(src) {
		i := bytes.IndexByte(src[from:], 0xff)
		if i < 0 {
			return -1
		}
		c := from + i
		if r.candidate(c) {
			return c
		}
		if c+2 < len(src) && src[c+1] == soiMarker && src[c+2] == 0xff {
			// A whole JPEG embedded in the damaged span, such as an Exif
			// thumbnail: its segments are not the image's. Skip it.
			if end, err := walkStrict(src, c, nil); err == nil {
				from = end
				continue
			}
		}
		from = c + 1
	}
	return -1
}

// candidate reports whether a real marker starts at offset c: its code
// may stand between segments, it could be what it claims, its length fits
// the file, and its end lands on another plausible segment (a scan header
// is followed by image data instead).
func (r *repairer) candidate(c int) bool {
	src := r.src
	n := len(src)
	if c+1 >= n || src[c] != 0xff {
		return false
	}
	code := src[c+1]
	if code == eoiMarker {
		// A fake FF D9 in padding would otherwise end the image early.
		return r.scanned
	}
	if !isSegment(code) || c+4 > n {
		return false
	}
	l := int(src[c+2])<<8 | int(src[c+3])
	end := c + 2 + l
	if l < 2 || end > n {
		return false
	}
	if code == sosMarker {
		return r.plausibleSegment(c)
	}
	// The cheap look at where it ends first: in a damaged span most
	// candidates fail there, before their content is read.
	land, ok := r.nextMarkerAt(end)
	return ok && r.plausibleSegment(c) && (land < 0 || r.plausibleSegment(land))
}

// plausibleNext reports whether offset e, the end of a segment, holds a
// marker that may follow a header segment, after optional fill bytes, and
// whether the segment found there could be what its marker claims. Only
// one hop is taken: where that segment's own length ends is not checked,
// since some cameras write two comments in a row and a deeper check would
// condemn the good one before a lying one.
func (r *repairer) plausibleNext(e int) bool {
	land, ok := r.nextMarkerAt(e)
	return ok && (land < 0 || r.plausibleSegment(land))
}

// nextMarkerAt looks at offset e, the end of a segment: it reports whether
// a marker that may follow a header segment stands there, after optional
// fill bytes, and returns its offset when it starts a segment whose
// content must be judged, or -1 (the end of the file, or EOI after the
// image data).
func (r *repairer) nextMarkerAt(e int) (int, bool) {
	src := r.src
	n := len(src)
	if e == n {
		return -1, r.scanned // a segment that ends the file after the image data
	}
	if e+1 >= n || src[e] != 0xff {
		return -1, false
	}
	q := e + 1
	for q < n && src[q] == 0xff {
		q++
	}
	if q >= n {
		return -1, false
	}
	c := src[q]
	if c == eoiMarker {
		return -1, r.scanned
	}
	return q - 1, isSegment(c)
}

// plausibleSegment reports whether the segment at m could be what its
// marker says, from its own bytes: a length that can hold its content and
// no more than distinct tables would need, tables that fill it, component
// counts that fit, a scan only after a frame header and naming the frame's
// components, no second frame header before the first frame's data. A segment the end of the file cuts is
// judged on what is there; its walk then says it is cut.
func (r *repairer) plausibleSegment(m int) bool {
	src := r.src
	n := len(src)
	code := src[m+1]
	if m+4 > n {
		return true
	}
	l := int(src[m+2])<<8 | int(src[m+3])
	if l < 2 {
		return false
	}
	whole := m+2+l <= n
	switch {
	case code == sosMarker:
		if r.sofAt < 0 || !whole || !validSOS(src, m, l) {
			return false
		}
		return r.checkScanComponents(m) == ""
	case isSOF(code):
		if r.sofAt >= 0 && !r.scanned || l < 11 {
			return false
		}
		if m+10 <= n && l != 8+3*int(src[m+9]) {
			return false
		}
		return !whole || validSOF(src, m, l) == ""
	case code == dhtMarker:
		// At most eight distinct tables: a longer segment is not a
		// plausible landing (and its check would cost a walk of 64 KB).
		return l >= 2+17+1 && l <= 2+8*(17+256) && (!whole || validDHT(src, m, l))
	case code == dqtMarker:
		return l >= 2+65 && l <= 2+4*129 && (!whole || validDQT(src, m, l))
	case code == driMarker || code == dnlMarker:
		return l == 4
	case code == dacMarker:
		return l%2 == 0
	}
	return true // COM and APPn hold anything
}

// segment handles a marker segment with a length field at offset m and
// returns the offset just after it.
func (r *repairer) segment(m int, code byte) (int, error) {
	src := r.src
	n := len(src)
	if m+4 > n {
		if r.scanned {
			return n, r.dropTruncated(m, code, -1)
		}
		return 0, refuse(ProblemTruncated, m, fmt.Sprintf("the file is cut off inside %s at byte %s", segName(code), commas(m)))
	}
	l := int(src[m+2])<<8 | int(src[m+3])
	end := m + 2 + l
	if isAPP(code) || code == comMarker {
		return r.misc(m, code, l)
	}
	if end > n {
		if r.scanned && code != sosMarker {
			// The image data is complete; a table cut by the end of the
			// file would only serve a scan that is not there.
			return n, r.dropTruncated(m, code, l)
		}
		return 0, refuse(ProblemTruncated, m, fmt.Sprintf("the file is cut off inside %s at byte %s, which announces %s", segName(code), commas(m), nbytes(l)))
	}
	switch {
	case code == sosMarker:
		return r.sos(m, l)
	case isSOF(code):
		// Specified in section B.2.2.
		if r.sofAt >= 0 {
			if r.scanned {
				return 0, r.finishImage(m)
			}
			return 0, refuse(ProblemDamaged, m, fmt.Sprintf("a second frame header at byte %s contradicts the first", commas(m)))
		}
		if why := validSOF(src, m, l); why != "" {
			return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the frame header at byte %s %s; it cannot be repaired without loss", commas(m), why))
		}
		r.sofAt = m
		r.frame = readFrame(src, m)
		if r.opts.VerifyData {
			if r.unchecked = uncheckable(&r.frame); r.unchecked == "" {
				r.walker = newWalker(src, r.frame, true)
			}
		}
	case code == dhtMarker:
		// Specified in section B.2.4.2.
		if !validDHT(src, m, l) {
			return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the Huffman table segment at byte %s announces %s but its tables %s; it cannot be repaired without loss", commas(m), nbytes(l), dhtNeed(src, m, l)))
		}
		for p := m + 4; p < end; {
			tc, th := src[p]>>4, src[p]&15
			r.huff[tc][th] = p + 1
			sum := 0
			for _, c := range src[p+1 : p+17] {
				sum += int(c)
			}
			p += 17 + sum
		}
	case code == dqtMarker:
		// Specified in section B.2.4.1.
		if !validDQT(src, m, l) {
			return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the quantization table segment at byte %s announces %s but its tables %s; it cannot be repaired without loss", commas(m), nbytes(l), dqtNeed(src, m, l)))
		}
		for p := m + 4; p < end; p += 65 + 64*int(src[p]>>4) {
			r.quant[src[p]&15] = true
		}
	case code == dacMarker:
		// Specified in section B.2.4.3: La = 2 + 2 × n.
		if l < 2 || (l-2)%2 != 0 {
			return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the arithmetic coding table segment at byte %s announces %s, which no set of its two-byte entries fills; it cannot be repaired without loss", commas(m), nbytes(l)))
		}
	case code == driMarker || code == dnlMarker:
		// Specified in sections B.2.4.4 and B.2.5.
		if l != 4 {
			return 0, refuse(ProblemBadLength, m, fmt.Sprintf("%s at byte %s announces %s instead of 4; it cannot be repaired without loss", segName(code), commas(m), nbytes(l)))
		}
		if code == driMarker {
			r.restart = int(src[m+4])<<8 | int(src[m+5])
		}
	}
	// DAC and the tables above are kept as they are.
	return end, nil
}

// misc handles a COM or APPn segment of announced length l at offset m.
// Specified in sections B.2.4.5 and B.2.4.6.
func (r *repairer) misc(m int, code byte, l int) (int, error) {
	src := r.src
	n := len(src)
	end := m + 2 + l
	if l >= 2 && end <= n && r.plausibleNext(end) {
		// The length checks out: trust it, even if the payload holds
		// FF D9 or other marker-like bytes (payloads are not stuffed).
		if code == app1Marker && r.orientation == 0 && !r.scanned {
			// Read before StripMetadata drops the segment: the picture
			// may need turning upright.
			r.orientation = exifOrientation(src[m+4 : end])
		}
		switch {
		case code == comMarker:
			r.drop(m, end)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixComment, Announced: l, Real: l, Dropped: l + 2})
		case code == app0Marker && badJFIF(src[m+4:end]):
			// libjpeg warns "unknown JFIF revision number" and strict
			// readers stop; the header says nothing decoding needs then.
			p := src[m+4:]
			r.drop(m, end)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixBadJFIF, Announced: l, Real: l, Dropped: l + 2, Name: fmt.Sprintf("JFIF header of version %d.%02d", p[5], p[6])})
		case r.opts.StripMetadata && !neededAPP(code, src[m+4:end]):
			r.drop(m, end)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixMetadata, Announced: l, Real: l, Dropped: l + 2, Name: appName(code, src[m+4:end])})
		default:
			r.noteColour(code, src[m+4:end])
		}
		return end, nil
	}
	// The length lies. Rescan from the payload start, not from the
	// announced end, so that a length too long (overshooting the real next
	// marker) is caught as well as one too short. Cameras (Dahua, Amcrest)
	// write comments whose length is short by hundreds of bytes; libjpeg
	// then warns of extraneous bytes and strict readers refuse the file.
	payload := min(m+4, n)
	name := appName(code, src[payload:max(payload, min(end, n))])
	c := r.nextMarker(payload)
	if c < 0 {
		if r.scanned {
			return n, r.dropTruncated(m, code, l)
		}
		if end > n {
			return 0, refuse(ProblemTruncated, m, fmt.Sprintf("the file is cut off inside %s at byte %s, before any image data", segName(code), commas(m)))
		}
		return 0, refuse(ProblemNoImage, m, fmt.Sprintf("%s at byte %s announces %s but no valid segment follows it, and no image data either", segName(code), commas(m), nbytes(l)))
	}
	k := FixLengthTooLong
	if c > end {
		k = FixLengthTooShort
	}
	r.drop(m, c)
	r.fix(Fix{Offset: m, Marker: code, Kind: k, Announced: l, Real: c - m - 2, Dropped: c - m, Name: name})
	return c, nil
}

// dropTruncated drops a segment at m that the end of the file cuts off
// after the image data is complete. l is its announced length, or -1.
func (r *repairer) dropTruncated(m int, code byte, l int) error {
	n := len(r.src)
	var name string
	if isAPP(code) && m+4 <= n {
		name = appName(code, r.src[m+4:])
	}
	r.drop(m, n)
	r.fix(Fix{Offset: m, Marker: code, Kind: FixTruncatedSegment, Announced: max(l, 0), Real: max(n-m-2, 0), Dropped: n - m, Name: name})
	return r.finishAtEOF()
}

// noteColour remembers, of a kept application segment, what libjpeg reads
// to tell a three-component frame's colours: a JFIF header, an Adobe
// colour transform.
func (r *repairer) noteColour(code byte, payload []byte) {
	switch {
	case code == app0Marker && len(payload) >= 14 && bytes.HasPrefix(payload, []byte("JFIF\x00")):
		r.jfif = true
	case code == app14Marker && len(payload) >= 12 && bytes.HasPrefix(payload, []byte("Adobe")):
		r.adobe = int(payload[11]) + 1
	}
}

// badJFIF reports whether an APP0 payload is a JFIF header, as libjpeg
// recognises one (14 bytes or more), whose major version is neither 1 nor
// 2, which libjpeg takes for an incompatible format and warns about.
func badJFIF(payload []byte) bool {
	return len(payload) >= 14 && bytes.HasPrefix(payload, []byte("JFIF\x00")) && payload[5] != 1 && payload[5] != 2
}

// neededAPP reports whether an application segment is one decoding needs:
// APP0 JFIF, APP2 ICC_PROFILE or APP14 Adobe (colour transform for CMYK and
// YCCK).
func neededAPP(code byte, payload []byte) bool {
	switch code {
	case app0Marker:
		return bytes.HasPrefix(payload, []byte("JFIF\x00"))
	case app2Marker:
		return bytes.HasPrefix(payload, []byte("ICC_PROFILE\x00"))
	case app14Marker:
		return bytes.HasPrefix(payload, []byte("Adobe"))
	}
	return false
}

// sos handles a scan header of length l at offset m and walks its
// entropy-coded data, returning the offset of the marker that ends it.
// Specified in sections B.2.3 and B.1.1.5: the data ends at the first 0xFF
// followed by neither 0x00 (a stuffed byte) nor a restart marker. Restart
// markers must come in order (section B.2.1: RST0 to RST7, cycling), and
// as many as the frame has intervals: a picture missing intervals or
// holding them out of order is damaged, and strict decoders refuse it.
func (r *repairer) sos(m, l int) (int, error) {
	src := r.src
	n := len(src)
	if r.sofAt < 0 {
		return 0, refuse(ProblemNoImage, m, fmt.Sprintf("image data starts at byte %s before any frame header", commas(m)))
	}
	if !validSOS(src, m, l) {
		return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the scan header at byte %s announces %s but %s; it cannot be repaired without loss", commas(m), nbytes(l), sosNeed(src, m, l)))
	}
	if why := r.checkScanComponents(m); why != "" {
		return 0, refuse(ProblemDamaged, m, fmt.Sprintf("the scan header at byte %s %s", commas(m), why))
	}
	p := r.scanHeader(m, l)
	if why := r.checkQuant(&p); why != "" {
		return 0, refuse(ProblemDamaged, m, fmt.Sprintf("the scan header at byte %s %s", commas(m), why))
	}

	// Find where the data ends, counting restart markers on the way.
	q := p.ecs
	rsts, lastRST := 0, q
	var fills []span // fill bytes before restart markers
	end, proper, soi := n, false, false
	for {
		j := huffman.NextMarker(src, q)
		if j >= n {
			break
		}
		if j+1 >= n {
			end = j
			break
		}
		k := j + 1
		for k < n && src[k] == 0xff {
			k++
		}
		end = j
		if k >= n {
			break
		}
		code := src[k]
		if isRST(code) {
			if want := rst0Marker + byte(rsts%8); code != want {
				return 0, r.rstOrder(&p, rsts, lastRST, k-1, code)
			}
			if k-1 > j {
				fills = append(fills, span{from: j, to: k - 1, fill: true})
			}
			rsts++
			q = k + 1
			lastRST = q
			end = n
			continue
		}
		proper = code == eoiMarker || isSegment(code)
		soi = code == soiMarker
		break
	}

	if proper {
		if err := r.rstCount(&p, rsts, lastRST, end); err != nil {
			return 0, err
		}
		var res walkResult
		if r.walker != nil {
			if res = r.walker.scan(&p, 0, p.ecs, end); res.fail != nil && res.fail.kind == failTooLarge {
				// Too large to keep the refinement history: check the
				// segments only, and say so.
				r.unchecked, r.walker = "the picture is too large for this check to keep its progressive history", nil
			}
		}
		switch {
		case r.walker == nil:
			r.skip(fills)
		case res.fail != nil:
			return 0, r.walkRefusal(&p, res.fail, end, true)
		default:
			r.skip(res.skips)
			if res.end < end {
				r.drop(res.end, end)
				r.fix(Fix{Offset: res.end, Kind: FixExtraData, Dropped: end - res.end})
			}
		}
		p.end = end
		r.keepScan(&p)
		r.scanned = true
		return end, nil
	}
	// The data stops without a marker that may follow it (the end of the
	// file, a reserved marker, a stray 0xFF, a second image): keep it only
	// if the scan is complete, and resume after its last byte.
	cut, err := r.lastScan(&p, rsts, lastRST, end, fills)
	if err != nil {
		return 0, err
	}
	p.end = cut
	r.keepScan(&p)
	r.scanned = true
	if soi {
		return 0, r.finishImage(cut)
	}
	return cut, nil
}

// scanHeader reads the scan header at m, of length l, with the tables and
// restart interval in force.
func (r *repairer) scanHeader(m, l int) scanParams {
	src := r.src
	p := scanParams{at: m, ecs: m + 2 + l, ns: int(src[m+4]), restart: r.restart}
	for i := range p.ns {
		id := src[m+5+2*i]
		for j := range r.frame.nf {
			if r.frame.id(j) == id {
				p.comp[i] = j
				break
			}
		}
		sel := src[m+6+2*i]
		p.dcSel[i], p.acSel[i] = sel>>4, sel&15
		if sel>>4 < 4 {
			p.dc[i] = r.huff[0][sel>>4]
		}
		if sel&15 < 4 {
			p.ac[i] = r.huff[1][sel&15]
		}
	}
	b := src[m+5+2*p.ns:]
	p.ss, p.se, p.ah, p.al = int(b[0]), int(b[1]), int(b[2]>>4), int(b[2]&15)
	return p
}

// checkQuant says which quantization table a scan's component needs but
// no segment defined, or "". libjpeg stops there ("quantization table 0x01
// was not defined"); Go decodes it with zeros, into the wrong picture.
func (r *repairer) checkQuant(p *scanParams) string {
	switch r.frame.code {
	case sof3Marker, 0xc7, 0xcb, sof15Marker:
		return "" // lossless: no quantization
	}
	for i := range p.ns {
		c := p.comp[i]
		if tq := r.src[r.sofAt+12+3*c]; !r.quant[tq] {
			return fmt.Sprintf("codes colour component %d with quantization table %d, which no segment defines before it", r.frame.id(c), tq)
		}
	}
	return ""
}

// skip drops the spans decoders skip inside the image data.
func (r *repairer) skip(spans []span) {
	for _, s := range spans {
		r.drop(s.from, s.to)
		if s.fill {
			r.fix(Fix{Offset: s.from, Marker: r.src[s.to+1], Kind: FixFill, Dropped: s.to - s.from})
		} else {
			r.fix(Fix{Offset: s.from, Kind: FixExtraData, Dropped: s.to - s.from})
		}
	}
}

// keepScan remembers a scan of a progressive frame, whose history a later
// refinement scan may need to be walked.
func (r *repairer) keepScan(p *scanParams) {
	if r.frame.code == sof2Marker {
		r.scans = append(r.scans, *p)
	}
}

// countable reports whether the frame's scans count their MCUs as this
// package does: DCT frames, sequential or progressive, not hierarchical,
// with a known height.
func (r *repairer) countable() bool {
	switch r.frame.code {
	case sof0Marker, sof1Marker, sof2Marker, 0xc9, 0xca:
		return r.frame.height > 0
	}
	return false
}

// intervals returns how many restart intervals scan p has.
func (r *repairer) intervals(p *scanParams) int {
	if p.restart == 0 {
		return 1
	}
	return ceilDiv(r.frame.mcus(p), p.restart)
}

// rstCount checks a scan that ended with a proper marker after rsts
// restart markers, the last ending at lastRST: one fewer than the frame
// has intervals, or as many when the last directly ends the data (a
// trailing marker decoders ignore).
func (r *repairer) rstCount(p *scanParams, rsts, lastRST, end int) error {
	if !r.countable() {
		return nil
	}
	want := r.intervals(p) - 1
	if rsts == want || rsts == want+1 && lastRST == end {
		return nil
	}
	if rsts < want {
		mcu := (rsts + 1) * p.restart
		return refuseData(ProblemTruncated, end, fmt.Sprintf("the image data of the scan at byte %s holds %s of its %s restart intervals and ends at byte %s: the picture stops about %d%% of the way down, and the missing part cannot be recovered", commas(p.at), commas(rsts+1), commas(want+1), commas(end), r.frame.percent(p, mcu)))
	}
	return refuseData(ProblemDamaged, end, fmt.Sprintf("the image data of the scan at byte %s holds %s restart intervals where the picture has %s; it is damaged", commas(p.at), commas(rsts+1), commas(want+1)))
}

// rstOrder refuses a restart marker out of sequence: the damage lies in
// the interval before it.
func (r *repairer) rstOrder(p *scanParams, rsts, lastRST, at int, found byte) error {
	where := ""
	if r.countable() && p.restart > 0 {
		from := r.frame.percent(p, rsts*p.restart)
		to := r.frame.percent(p, min((rsts+1)*p.restart, r.frame.mcus(p)))
		where = fmt.Sprintf(", about %d%% to %d%% of the way down the picture,", from, max(to, from))
	}
	return refuseData(ProblemDamaged, at, fmt.Sprintf("the restart markers of the scan at byte %s are out of order: restart marker %d stands at byte %s where restart marker %d belongs, so the image data between bytes %s and %s%s is damaged; it cannot be repaired without loss", commas(p.at), found-rst0Marker, commas(at), rsts%8, commas(lastRST), commas(at), where))
}

// lastScan decides whether scan p, whose data stops at dataEnd without a
// proper marker, is complete, and returns the offset just after the last
// byte it needs. Bytes between that offset and dataEnd belong to no
// segment. This is what tells a scan that only lost its end-of-image
// marker (libjpeg warns "premature end of JPEG file", Go and Pillow refuse
// it) from a file cut inside its data, whose missing part no repair can
// restore. Without VerifyData, only the last restart interval is walked,
// after the scans before it when it refines AC coefficients, since which
// coefficients a refinement touches depends on them.
func (r *repairer) lastScan(p *scanParams, rsts, lastRST, dataEnd int, fills []span) (int, error) {
	unverifiable := func(what string) error {
		return refuseData(ProblemTruncated, dataEnd, fmt.Sprintf("the image data of the scan at byte %s stops at byte %s without an end-of-image marker, and %s, so it cannot be checked for completeness; the file is probably cut off", commas(p.at), commas(dataEnd), what))
	}
	switch r.frame.code {
	case sof0Marker, sof1Marker, sof2Marker:
	default:
		return 0, unverifiable("its frame uses a coding (arithmetic, lossless or hierarchical) that this check does not read")
	}
	if r.frame.height == 0 {
		return 0, unverifiable("its frame height is given by a DNL segment")
	}
	if rsts > r.intervals(p)-1 {
		return 0, refuseData(ProblemDamaged, dataEnd, fmt.Sprintf("the image data of the scan at byte %s holds %s restart intervals where the picture has %s; it is damaged", commas(p.at), commas(rsts+1), commas(r.intervals(p))))
	}
	w := r.walker
	first, from := 0, p.ecs
	if w == nil {
		var local walker // on the stack: a frame without EOI is common
		w = &local
		w.init(r.src, r.frame, false)
		first, from = rsts, lastRST
		if p.ss > 0 && p.ah > 0 && r.frame.code == sof2Marker {
			// Replay the component's AC scans before this one.
			for i := range r.scans {
				e := &r.scans[i]
				if e.ss == 0 || e.comp[0] != p.comp[0] {
					continue
				}
				if res := w.scan(e, 0, e.ecs, e.end); res.fail != nil {
					if res.fail.kind == failTooLarge {
						return 0, unverifiable("the picture is too large for this check")
					}
					return 0, r.walkRefusal(e, res.fail, res.fail.at, false)
				}
			}
		}
	}
	res := w.scan(p, first, from, dataEnd)
	if res.fail != nil {
		if res.fail.kind == failTooLarge {
			return 0, unverifiable("the picture is too large for this check")
		}
		return 0, r.walkRefusal(p, res.fail, dataEnd, false)
	}
	if r.walker != nil {
		r.skip(res.skips)
	} else {
		r.skip(fills)
	}
	return res.end, nil
}

// walkRefusal words why a walk of scan p stopped; dataEnd is where its
// data stopped, and proper whether a marker ended it there.
func (r *repairer) walkRefusal(p *scanParams, f *walkFail, dataEnd int, proper bool) error {
	at := commas(p.at)
	where := fmt.Sprintf("about %d%% of the way down the picture", r.frame.percent(p, f.mcu))
	if r.frame.code == sof2Marker {
		where = fmt.Sprintf("about %d%% of the way through one of the passes that refine the picture", f.mcu*100/max(f.total, 1))
	}
	switch f.kind {
	case failShort, failCode, failMarker:
		return r.dataRefusal(p, f, dataEnd, proper, at, where)
	case failTooLarge:
		return refuse(ProblemDamaged, p.at, fmt.Sprintf("the scan at byte %s %s", at, f.detail))
	}
	return refuse(ProblemDamaged, p.at, fmt.Sprintf("the scan at byte %s %s; it cannot be decoded", at, f.detail))
}

// dataRefusal words damage in the image data of scan p.
func (r *repairer) dataRefusal(p *scanParams, f *walkFail, dataEnd int, proper bool, at, where string) error {
	refuse := refuseData
	switch f.kind {
	case failShort:
		if !proper && f.found < 0 && f.at >= dataEnd-1 {
			return refuse(ProblemTruncated, dataEnd, fmt.Sprintf("the file is cut off inside its image data: the scan at byte %s stops at byte %s, %d%% of the way through the picture; the missing part cannot be recovered", at, commas(dataEnd), f.mcu*100/max(f.total, 1)))
		}
		if f.at+1 < len(r.src) && r.src[f.at] == 0xff && isRST(r.src[f.at+1]) && p.restart > 0 {
			iv := f.mcu / p.restart
			span := r.rows(p, iv*p.restart, min((iv+1)*p.restart, f.total))
			return refuse(ProblemTruncated, f.at, fmt.Sprintf("restart interval %s of the scan at byte %s, %s, is missing data: it stops at byte %s, at a restart marker, before its last blocks; those rows cannot be recovered", commas(iv+1), at, span, commas(f.at)))
		}
		return refuse(ProblemTruncated, f.at, fmt.Sprintf("the image data of the scan at byte %s stops short at byte %s, %s: the rest of the picture is missing and cannot be recovered", at, commas(f.at), where))
	case failCode:
		return refuse(ProblemDamaged, f.at, fmt.Sprintf("the image data of the scan at byte %s is damaged near byte %s, %s: it holds a code no Huffman table defines; it cannot be repaired without loss", at, commas(f.at), where))
	}
	return refuse(ProblemDamaged, f.at, fmt.Sprintf("the image data of the scan at byte %s is damaged before byte %s, %s: restart marker %d stands where restart marker %d belongs; it cannot be repaired without loss", at, commas(f.at), where, f.found-rst0Marker, f.want-rst0Marker))
}

// rows says which part of the picture MCUs from..to of scan p cover, as
// "about 44% to 46% of the way down the picture", or, for a progressive
// frame, which share of one refining pass.
func (r *repairer) rows(p *scanParams, from, to int) string {
	if r.frame.code == sof2Marker {
		total := max(r.frame.mcus(p), 1)
		return fmt.Sprintf("%d%% to %d%% of the way through one of the passes that refine the picture", from*100/total, to*100/total)
	}
	a, b := r.frame.percent(p, from), r.frame.percent(p, to)
	if to >= r.frame.mcus(p) {
		b = 100
	}
	return fmt.Sprintf("about %d%% to %d%% of the way down the picture", a, max(a, b))
}

// checkScanComponents checks that each component of the scan at m is one
// the frame defines, named once, with the table selectors its coding uses
// in range: Huffman tables 0 to 3, and only those the scan reads (a
// progressive AC scan reads no DC table, a DC refinement none at all);
// arithmetic conditioning tables 0 to 15, as libjpeg reads them.
func (r *repairer) checkScanComponents(m int) string {
	src := r.src
	ns := int(src[m+4])
	nf := int(src[r.sofAt+9])
	sof := src[r.sofAt+1]
	ss, ah := src[m+5+2*ns], src[m+7+2*ns]>>4
	limit := byte(3)
	useDC, useAC := true, true
	switch {
	case isArithmetic(sof):
		limit = 15
	case sof == sof2Marker:
		useDC, useAC = ss == 0 && ah == 0, ss > 0
	}
	for i := range ns {
		id := src[m+5+2*i]
		tables := src[m+6+2*i]
		if useDC && tables>>4 > limit || useAC && tables&15 > limit {
			return "selects a Huffman table that does not exist"
		}
		found := false
		for j := range nf {
			if src[r.sofAt+10+3*j] == id {
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("refers to colour component %d, which the frame does not define", id)
		}
		for j := range i {
			if src[m+5+2*j] == id {
				return fmt.Sprintf("names colour component %d twice", id)
			}
		}
	}
	return ""
}

// isArithmetic reports whether a frame header code is one of arithmetic
// coding (SOF9 to SOF15).
func isArithmetic(sof byte) bool { return sof > jpgMarker && sof != dacMarker && isSOF(sof) }

// uncheckable says why VerifyData cannot walk the data of frame f, or "".
func uncheckable(f *frameGeom) string {
	switch {
	case f.code != sof0Marker && f.code != sof1Marker && f.code != sof2Marker:
		return "its frame uses a coding (arithmetic, lossless or hierarchical) that this check does not read"
	case f.precision != 8:
		return fmt.Sprintf("its samples have %d bits, and this check reads 8-bit frames", f.precision)
	case f.height == 0:
		return "its height is given by a DNL segment"
	case f.width > 65500 || f.height > 65500:
		return "it is wider or taller than 65,500 pixels, more than common decoders accept"
	case f.nf != 1 && f.nf != 3:
		return fmt.Sprintf("it has %d colour components, and this check vouches for one (grey) or three (colour)", f.nf)
	}
	for i := range f.nf {
		if f.hmax%f.h(i) != 0 || f.vmax%f.v(i) != 0 {
			return "its colour sampling factors do not divide each other, which common decoders do not read"
		}
		for j := range i {
			if f.id(j) == f.id(i) {
				return "two of its colour components share an identifier"
			}
		}
	}
	return ""
}

// finish makes the checks that need the whole file: with VerifyData, every
// colour component must have image data, and a three-component frame
// without JFIF header must not name an Adobe colour transform other than
// 0 (RGB) or 1 (YCbCr), which libjpeg warns about; that one is left
// unchecked rather than refused, since its pixels are all there.
func (r *repairer) finish() error {
	if r.walker == nil {
		return nil
	}
	if t := r.adobe - 1; r.frame.nf == 3 && !r.jfif && t > 1 {
		r.unchecked = fmt.Sprintf("its Adobe segment names colour transform %d, which decoders warn about", t)
	}
	for i, ok := range r.walker.covered {
		if !ok {
			return refuse(ProblemDamaged, len(r.src), fmt.Sprintf("colour component %d of the frame has no image data; the picture is incomplete", r.frame.id(i)))
		}
	}
	return nil
}

// validSOF checks a frame header of length l at offset m and returns what
// is wrong with it, or "". Specified in section B.2.2: Lf = 8 + 3 × Nf.
func validSOF(src []byte, m, l int) string {
	if l < 11 {
		return fmt.Sprintf("announces %s, too short for any frame", nbytes(l))
	}
	nf := int(src[m+9])
	if nf == 0 {
		return "declares no colour component"
	}
	if l != 8+3*nf {
		return fmt.Sprintf("announces %s but its %d components need %d", nbytes(l), nf, 8+3*nf)
	}
	if src[m+7] == 0 && src[m+8] == 0 {
		return "declares an image zero pixels wide"
	}
	for i := range nf {
		hv := src[m+11+3*i]
		h, v := hv>>4, hv&15
		if h < 1 || h > 4 || v < 1 || v > 4 || src[m+12+3*i] > 3 {
			return "declares impossible sampling factors or table numbers"
		}
	}
	return ""
}

// validSOS reports whether a scan header of length l at offset m is
// consistent. Specified in section B.2.3: Ls = 6 + 2 × Ns, 1 ≤ Ns ≤ 4.
func validSOS(src []byte, m, l int) bool {
	if l < 8 || m+5 > len(src) {
		return false
	}
	ns := int(src[m+4])
	return ns >= 1 && ns <= 4 && l == 6+2*ns
}

func sosNeed(src []byte, m, l int) string {
	if l < 3 {
		return "it is too short to say how many components it codes"
	}
	ns := int(src[m+4])
	if ns < 1 || ns > 4 {
		return fmt.Sprintf("it declares %d components (1 to 4 are possible)", ns)
	}
	return fmt.Sprintf("its %d components need %d", ns, 6+2*ns)
}

// validDQT reports whether a quantization table segment of length l at
// offset m holds whole tables that fill it exactly. Specified in section
// B.2.4.1: Lq = 2 + Σ(65 + 64 × Pq).
func validDQT(src []byte, m, l int) bool {
	p, end := m+4, m+2+l
	if l < 67 {
		return false
	}
	for p < end {
		pq, tq := src[p]>>4, src[p]&15
		if pq > 1 || tq > 3 {
			return false
		}
		p += 65 + 64*int(pq)
	}
	return p == end
}

func dqtNeed(src []byte, m, l int) string {
	p, end := m+4, m+2+l
	for p < end && p < len(src) {
		pq, tq := src[p]>>4, src[p]&15
		if pq > 1 || tq > 3 {
			return "are malformed"
		}
		p += 65 + 64*int(pq)
	}
	return "need " + commas(p-m-2)
}

// validDHT reports whether a Huffman table segment of length l at offset m
// holds whole tables that fill it exactly. Specified in section B.2.4.2:
// Lh = 2 + Σ(17 + Σ Li).
func validDHT(src []byte, m, l int) bool {
	p, end := m+4, m+2+l
	if l < 19 {
		return false
	}
	for p < end {
		if p+17 > end {
			return false
		}
		if src[p]>>4 > 1 || src[p]&15 > 3 {
			return false
		}
		sum := 0
		for _, c := range src[p+1 : p+17] {
			sum += int(c)
		}
		if sum == 0 || sum > 256 {
			return false
		}
		p += 17 + sum
	}
	return p == end
}

func dhtNeed(src []byte, m, l int) string {
	p, end := m+4, m+2+l
	for p < end {
		if p+17 > len(src) || src[p]>>4 > 1 || src[p]&15 > 3 {
			return "are malformed"
		}
		sum := 0
		for _, c := range src[p+1 : p+17] {
			sum += int(c)
		}
		p += 17 + sum
	}
	return "need " + commas(p-m-2)
}

// segName names a segment type in plain words with its article.
func segName(code byte) string {
	switch {
	case code == comMarker:
		return "a comment segment"
	case isAPP(code):
		return fmt.Sprintf("an APP%d segment", code-app0Marker)
	case isSOF(code):
		return "the frame header"
	case code == dhtMarker:
		return "a Huffman table segment"
	case code == dqtMarker:
		return "a quantization table segment"
	case code == driMarker:
		return "the restart interval segment"
	case code == dnlMarker:
		return "the number-of-lines segment"
	case code == sosMarker:
		return "a scan header"
	case code == dacMarker:
		return "an arithmetic coding table segment"
	}
	return fmt.Sprintf("a segment with marker 0x%02X", code)
}
