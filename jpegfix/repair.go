package jpegfix

import (
	"bytes"
	"fmt"
)

// Options selects the repair policy. The zero value drops every COM segment
// and keeps APPn segments.
type Options struct {
	// StripMetadata drops APPn segments except APP0 JFIF, APP2 ICC_PROFILE
	// and APP14 Adobe, which decoding needs. False keeps every valid APPn
	// segment as it is.
	StripMetadata bool
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
	rep := Report{Fixes: r.fixes, InBytes: len(src)}
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
	scanned bool      // a complete scan has been walked
	done    bool      // the output is complete
	huff    [2][4]int // offset of each Huffman table's Tc/Th byte, plus one; 0 if undefined
	restart int       // current restart interval in MCUs (DRI)
	scan    scanState // the latest scan
}

// scanState records what verifyScan needs about the latest scan.
type scanState struct {
	at      int // offset of the SOS marker
	ecs     int // offset of the first entropy-coded byte
	restart int // restart interval in force for this scan
	rsts    int // restart markers seen in its data
	lastRST int // offset just after the last restart marker, or ecs
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
	r.sofAt = -1
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
			if end, err := walkStrict(src, c); err == nil {
				from = end
				continue
			}
		}
		from = c + 1
	}
	return -1
}

// candidate reports whether a real marker starts at offset c.
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
	switch {
	case code == sosMarker:
		return validSOS(src, c, l)
	case code == driMarker || code == dnlMarker:
		if l != 4 {
			return false
		}
	case code == dqtMarker:
		if !validDQT(src, c, l) {
			return false
		}
	case code == dhtMarker:
		if !validDHT(src, c, l) {
			return false
		}
	case isSOF(code):
		if validSOF(src, c, l) != "" {
			return false
		}
	}
	return r.plausibleNext(end)
}

// plausibleNext reports whether offset e, the end of a segment, holds a
// marker that may follow a header segment, after optional fill bytes. Only
// one hop is checked: some cameras write two comments in a row, and a
// deeper check would condemn the good one before a lying one.
func (r *repairer) plausibleNext(e int) bool {
	src := r.src
	n := len(src)
	if e == n {
		return r.scanned // a segment that ends the file after the image data
	}
	if e+1 >= n || src[e] != 0xff {
		return false
	}
	q := e + 1
	for q < n && src[q] == 0xff {
		q++
	}
	if q >= n {
		return false
	}
	c := src[q]
	return isSegment(c) || (c == eoiMarker && r.scanned)
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
		switch {
		case code == comMarker:
			r.drop(m, end)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixComment, Announced: l, Real: l, Dropped: l + 2})
		case r.opts.StripMetadata && !neededAPP(code, src[m+4:end]):
			r.drop(m, end)
			r.fix(Fix{Offset: m, Marker: code, Kind: FixMetadata, Announced: l, Real: l, Dropped: l + 2, Name: appName(code, src[m+4:end])})
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
// followed by neither 0x00 (a stuffed byte) nor a restart marker.
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
	q := m + 2 + l
	r.scan = scanState{at: m, ecs: q, restart: r.restart, lastRST: q}
	for {
		i := bytes.IndexByte(src[q:], 0xff)
		if i < 0 {
			return r.scanEnd(n)
		}
		j := q + i
		if j+1 >= n {
			return r.scanEnd(j)
		}
		c := src[j+1]
		if c == 0 {
			q = j + 2
			continue
		}
		if isRST(c) {
			r.scan.rsts++
			q = j + 2
			r.scan.lastRST = q
			continue
		}
		k := j + 1
		for k < n && src[k] == 0xff {
			k++
		}
		if k >= n {
			return r.scanEnd(j)
		}
		code := src[k]
		if code == eoiMarker || isSegment(code) {
			r.scanned = true
			return j, nil
		}
		if code == soiMarker {
			// A second image starts right after the data: the first lost
			// its EOI.
			cut, err := r.verifyScan(j)
			if err != nil {
				return 0, err
			}
			r.scanned = true
			return 0, r.finishImage(cut)
		}
		return r.scanEnd(j)
	}
}

// scanEnd handles entropy-coded data that ends at offset dataEnd without a
// proper marker (end of file, a reserved marker, a stray 0xFF): it keeps the
// data only if the scan is complete, and resumes after its last byte.
func (r *repairer) scanEnd(dataEnd int) (int, error) {
	cut, err := r.verifyScan(dataEnd)
	if err != nil {
		return 0, err
	}
	r.scanned = true
	return cut, nil
}

// checkScanComponents checks that each component of the scan at m is one
// the frame defines, with table selectors in range.
func (r *repairer) checkScanComponents(m int) string {
	src := r.src
	ns := int(src[m+4])
	nf := int(src[r.sofAt+9])
	for i := range ns {
		id := src[m+5+2*i]
		tables := src[m+6+2*i]
		if tables>>4 > 3 || tables&15 > 3 {
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
	}
	return ""
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
