package jpegfix

import (
	"bytes"
	"encoding/binary"
	"fmt"
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
	// It costs a Huffman walk of the whole data, without pixels: about 70
	// MB/s on a small frame, 110 to 150 MB/s on a long sequential scan,
	// which is walked several codes a look-up (BenchmarkRepairVerifyData;
	// see BENCHMARKS.md). Without it, Repair reads entropy-coded data only to
	// prove complete a scan that ends without an end-of-image marker.
	// Frames whose coding the walk does not read (arithmetic, lossless,
	// hierarchical, 12-bit, height given by DNL, colour layouts other than
	// one or three components) are repaired as without it, and
	// Report.Unchecked says why; so are colour frames naming an Adobe
	// transform libjpeg does not know.
	VerifyData bool
	// Admit, when set, judges the frame header as soon as it is read,
	// before any image data is walked or copied: a non-nil error stops the
	// repair, and Repair returns it wrapped (not a FormatError), with the
	// report's Frame set. The caller refuses there, from the header alone,
	// what it would refuse anyway (a size or a coding it does not take).
	// A DHP segment before the first frame header (a hierarchical file)
	// is judged first, as a frame header with Hierarchical set.
	Admit func(Frame) error

	// countMin, for tests, overrides the length of sequential data from
	// which the walk skips several codes a look-up: 0 keeps the default,
	// -1 never.
	countMin int
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
	rep := Report{Fixes: r.fixes, Unlisted: r.unlisted, unlistedDefects: r.unlistedDefects, InBytes: len(src), Unchecked: r.unchecked, Start: r.start}
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
	// unlisted counts the fixes beyond maxFixes, unlistedDefects those of
	// them that repair damage.
	unlisted, unlistedDefects int

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

	ffBlocks []uint64  // which 64-byte blocks of src are all 0xFF, once a long run is met
	stepped  int       // bytes skipFill stepped over one at a time
	embedded *walkMemo // the walks of JPEG files embedded in damaged spans
	coded    int       // blocks the unwalked scans of a progressive frame code
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

// maxFixes bounds the fixes a report lists; the rest are counted. Hostile
// bytes can make one fix every two bytes (stray restart markers), and 16 MB
// of them made 8.4 million fixes, gigabytes once worded.
const maxFixes = 1000

func (r *repairer) fix(f Fix) {
	if len(r.fixes) < maxFixes {
		r.fixes = append(r.fixes, f)
		return
	}
	r.unlisted++
	if f.Kind.IsDefect() {
		r.unlistedDefects++
	}
}

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
		if src[q] == 0 {
			// FF 00 is no marker: the 0xFF bytes before it are garbage
			// too, not fill.
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
		case code == dhpMarker && r.sofAt < 0 && r.opts.Admit != nil:
			// A hierarchical file begins with DHP (section B.3), before
			// any frame header: its first frame is only the smallest of
			// several, so the file is judged hierarchical, not repaired
			// down to that frame. A malformed DHP is garbage.
			if err = r.dhpAdmits(m); err == nil {
				p, err = r.resync(m)
			}
		default:
			// 0xFF00 or a reserved marker between segments: garbage.
			p, err = r.resync(m)
		}
	}
	return err
}

// dhpAdmits is Options.Admit's judgement of the DHP segment at m, read
// as the frame header it is laid out as, of a hierarchical picture; nil
// when it is no well-formed DHP segment (then it is garbage).
func (r *repairer) dhpAdmits(m int) error {
	src := r.src
	if m+4 > len(src) {
		return nil
	}
	l := int(src[m+2])<<8 | int(src[m+3])
	if m+2+l > len(src) || validSOF(src, m, l) != "" {
		return nil
	}
	g := readFrame(src, m)
	fr := g.facts()
	fr.Hierarchical = true
	fr.Orientation = max(r.orientation, 1)
	if err := r.opts.Admit(fr); err != nil {
		return fmt.Errorf("jpegfix: the hierarchical progression header at byte %s: %w", commas(m), err)
	}
	return nil
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
			if r.embedded == nil {
				r.embedded = &walkMemo{seen: make([]uint64, (len(src)*4+63)>>6)}
			}
			if end, err := walkStrict(src, c, nil, r.embedded); err == nil {
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
	q := r.skipFill(e + 1)
	if q >= n {
		return -1, false
	}
	c := src[q]
	if c == eoiMarker {
		return -1, r.scanned
	}
	return q - 1, isSegment(c)
}

// skipFill returns the offset of the first byte at or after q that is not
// 0xFF. Hostile bytes can make the ends of many candidate segments land in
// one long run of 0xFF; past its first 64 bytes, a run is skipped a
// 64-byte block at a time through a map of the blocks made only of 0xFF,
// built once, so that the rescan stays linear in the input.
func (r *repairer) skipFill(q int) int {
	src := r.src
	n := len(src)
	from := q
	for q < n && src[q] == 0xff {
		if q&63 == 0 && q-from >= 64 && q+64 <= n {
			if r.ffBlocks == nil {
				r.ffBlocks = fillBlocks(src)
			}
			b, nb := q>>6, n>>6
			for b < nb {
				w := r.ffBlocks[b>>6]
				if b&63 == 0 && w == ^uint64(0) {
					b += 64
					continue
				}
				if w&(1<<(b&63)) == 0 {
					break
				}
				b++
			}
			if b<<6 > q {
				q = min(b<<6, n)
				continue
			}
		}
		q++
		r.stepped++
	}
	return q
}

// fillBlocks maps the whole 64-byte blocks of src made only of 0xFF, one
// bit each.
func fillBlocks(src []byte) []uint64 {
	nb := len(src) >> 6
	m := make([]uint64, (nb+63)>>6)
	for b := range nb {
		all := ^uint64(0)
		for i := b << 6; i < b<<6+64; i += 8 {
			all &= binary.LittleEndian.Uint64(src[i:])
		}
		if all == ^uint64(0) {
			m[b>>6] |= 1 << (b & 63)
		}
	}
	return m
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
		return l >= 2+17 && l <= 2+8*(17+256) && (!whole || validDHT(src, m, l))
	case code == dqtMarker:
		return l >= 2+65 && l <= 2+4*129 && (!whole || validDQT(src, m, l))
	case code == driMarker || code == dnlMarker:
		return l == 4
	case code == dacMarker:
		return l%2 == 0 && (!whole || validDAC(src, m, l))
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
		if r.opts.Admit != nil {
			fr := r.frame.facts()
			fr.Orientation = max(r.orientation, 1)
			if err := r.opts.Admit(fr); err != nil {
				return 0, fmt.Errorf("jpegfix: the frame header at byte %s: %w", commas(m), err)
			}
		}
		if r.opts.VerifyData {
			if r.unchecked = uncheckable(&r.frame); r.unchecked == "" {
				r.walker = newWalker(src, r.frame, true)
				r.walker.setCountMin(r.opts.countMin)
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
		if !validDAC(src, m, l) {
			return 0, refuse(ProblemDamaged, m, fmt.Sprintf("the arithmetic coding table segment at byte %s names a table class or a conditioning value that decoders refuse; it cannot be repaired without loss", commas(m)))
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
