package jpegfix

// Walking entropy-coded data as a strict decoder reads it, without
// computing a single coefficient's value where none is needed: Annex F
// (sequential) and Annex G (progressive), with libjpeg's reading of the
// corners the standard leaves open, since libjpeg (djpeg -strict,
// jpeginfo -c) is the strict reader this package answers to.

import (
	"math"
	"math/bits"
	"strconv"

	"maison/internal/huffman"
)

// frameGeom is what walking scans needs from the frame header. The
// components are read from the header where it stands, so that reading a
// frame allocates nothing.
type frameGeom struct {
	hdr           []byte // the frame header, from its marker on
	code          byte   // the SOF marker code
	precision     int
	width, height int
	nf            int
	hmax, vmax    int
	mcusX, mcusY  int
}

// readFrame reads the frame header at offset sof, which validSOF accepted.
func readFrame(src []byte, sof int) frameGeom {
	f := frameGeom{
		hdr:       src[sof:],
		code:      src[sof+1],
		precision: int(src[sof+4]),
		height:    int(src[sof+5])<<8 | int(src[sof+6]),
		width:     int(src[sof+7])<<8 | int(src[sof+8]),
		nf:        int(src[sof+9]),
		hmax:      1,
		vmax:      1,
	}
	for i := range f.nf {
		f.hmax = max(f.hmax, f.h(i))
		f.vmax = max(f.vmax, f.v(i))
	}
	f.mcusX = ceilDiv(f.width, 8*f.hmax)
	f.mcusY = ceilDiv(f.height, 8*f.vmax)
	return f
}

// id, h and v return the identifier and sampling factors of component i.
func (f *frameGeom) id(i int) byte { return f.hdr[10+3*i] }
func (f *frameGeom) h(i int) int   { return int(f.hdr[11+3*i] >> 4) }
func (f *frameGeom) v(i int) int   { return int(f.hdr[11+3*i] & 15) }

// blocks returns how many blocks wide and high a non-interleaved scan of
// component c is (section A.2.2).
func (f *frameGeom) blocks(c int) (int, int) {
	return ceilDiv(ceilDiv(f.width*f.h(c), f.hmax), 8), ceilDiv(ceilDiv(f.height*f.v(c), f.vmax), 8)
}

// mcus returns how many MCUs scan p codes.
func (f *frameGeom) mcus(p *scanParams) int {
	if p.ns == 1 {
		w, h := f.blocks(p.comp[0])
		return w * h
	}
	return f.mcusX * f.mcusY
}

// blocksCoded returns how many blocks scan p codes.
func (f *frameGeom) blocksCoded(p *scanParams) int {
	if p.ns == 1 {
		return f.mcus(p)
	}
	per := 0
	for i := range p.ns {
		per += f.h(p.comp[i]) * f.v(p.comp[i])
	}
	return f.mcus(p) * per
}

// row returns the first picture row of MCU m of scan p.
func (f *frameGeom) row(p *scanParams, m int) int {
	if p.ns == 1 {
		c := p.comp[0]
		w, _ := f.blocks(c)
		return min(f.height, m/max(w, 1)*8*f.vmax/f.v(c))
	}
	return min(f.height, m/max(f.mcusX, 1)*8*f.vmax)
}

// percent says how far down the picture MCU m of scan p starts, 0 to 100.
func (f *frameGeom) percent(p *scanParams, m int) int {
	if f.height == 0 {
		return 0
	}
	return f.row(p, m) * 100 / f.height
}

// scanParams is a scan header with the Huffman tables in force when its
// data starts.
type scanParams struct {
	at, ecs        int // offsets of the SOS marker and of the first data byte
	end            int // offset of the marker that ends the data, once known
	ns             int
	comp           [4]int   // frame component index of each scan component
	dcSel, acSel   [4]uint8 // table numbers
	dc, ac         [4]int   // offset of the defining Tc/Th byte plus one; 0 when undefined
	ss, se, ah, al int
	restart        int // restart interval in MCUs, 0 for none
}

// span is a run of bytes inside entropy-coded data that decoders skip.
type span struct {
	from, to int
	fill     bool // fill bytes before a restart marker, legal
}

// failKind classifies why a walk stopped.
type failKind int

const (
	failShort       failKind = iota + 1 // the data stops before the blocks it must hold
	failCode                            // a code no table defines, or a value out of range
	failMarker                          // a restart marker missing or out of order
	failTable                           // a table the scan needs is missing or impossible
	failProgression                     // scan parameters a decoder refuses
	failTooLarge                        // beyond what this walk keeps in memory
	failTooLong                         // beyond the blocks this walk reads in one frame
)

// walkFail says where and why a walk stopped.
type walkFail struct {
	kind   failKind
	at     int // byte offset
	mcu    int // MCUs of the scan complete before it
	total  int // MCUs of the scan
	found  int // failMarker: the marker code found where the restart marker belongs, or -1 at the end of the data
	want   int // failMarker: the restart marker code expected
	detail string
}

// walker walks the scans of one frame in order, keeping what progressive
// refinement needs from the scans before: which coefficients are already
// nonzero in each block, and libjpeg's progression state.
type walker struct {
	src    []byte
	f      frameGeom
	strict bool // also refuse what libjpeg only warns about (VerifyData)
	br     huffman.Reader

	tables [2][4]huffman.Table
	from   [2][4]int // what each table was built from: a Tc/Th offset plus one, -1-id for a standard table
	dcSize bool      // tables[0] were checked as DC tables

	counts   [4]*huffman.CountTable // per AC selector, made from tables[1] when a sequential scan's data is long
	countOf  [4]int                 // the from of the AC table each count table was made from; 0 for none
	countMin int                    // the bytes of data from which a sequential scan is walked with count tables

	coefBits [][64]int8 // per frame component, libjpeg's coef_bits: -1 before any scan
	nz       [][]uint64 // per frame component, per block: AC coefficients already nonzero (bit k, zig-zag)
	nzBlocks int
	covered  []bool // per frame component: a scan (a DC scan when progressive) carried it
	eobrun   int
	pred     [4]int32
	walked   int // blocks of a progressive frame's scans walked so far
}

// countMinBytes is the length of sequential data from which the walk makes
// count tables (0.1 ms or so each) to skip several codes a look-up; shorter
// data, such as the last restart interval of a frame without its EOI, is
// walked a code at a time.
const countMinBytes = 32 << 10

// maxHistoryBlocks bounds the refinement history kept: 4M blocks of 8
// bytes each, a 16-megapixel 4:4:4 frame.
const maxHistoryBlocks = 4 << 20

// maxWalkBlocks bounds the blocks walked over all the scans of one
// progressive frame: sixteen passes over the largest picture whose
// history is kept, some ten times what encoders write. A progressive scan
// can code millions of blocks in a few hundred bytes (end-of-band runs),
// so without a bound a frame of a few hundred kilobytes repeating such a
// scan costs minutes to read, here and in any decoder after.
const maxWalkBlocks = 16 * maxHistoryBlocks

func newWalker(src []byte, f frameGeom, strict bool) *walker {
	w := new(walker)
	w.init(src, f, strict)
	return w
}

// init readies a walker for the scans of frame f. Only a progressive frame
// keeps history, and only a strict walk counts covered components.
func (w *walker) init(src []byte, f frameGeom, strict bool) {
	w.src, w.f, w.strict = src, f, strict
	w.countMin = countMinBytes
	if f.code == sof2Marker {
		w.coefBits = make([][64]int8, f.nf)
		for i := range w.coefBits {
			for k := range w.coefBits[i] {
				w.coefBits[i][k] = -1
			}
		}
		w.nz = make([][]uint64, f.nf)
	}
	if strict {
		w.covered = make([]bool, f.nf)
	}
}

// setCountMin overrides countMinBytes when o is not 0: -1 walks every
// scan a code at a time.
func (w *walker) setCountMin(o int) {
	switch {
	case o < 0:
		w.countMin = math.MaxInt
	case o > 0:
		w.countMin = o
	}
}

func (w *walker) progressive() bool { return w.f.code == sof2Marker }

// table returns the table of class (0 DC, 1 AC) for selector sel at the
// definition off, building it when needed.
func (w *walker) table(class int, sel uint8, off int) (*huffman.Table, string) {
	from := off
	var counts, vals []byte
	switch {
	case off > 0:
		counts = w.src[off : off+16]
		vals = w.src[off+16:]
	case sel <= 1 && !w.progressive():
		// libjpeg-turbo installs the standard tables for a sequential
		// frame that does not define them (Motion-JPEG frames).
		from = -1 - int(sel)
		counts = stdTables[class][sel][:16]
		vals = stdTables[class][sel][16:]
	default:
		kind := "DC"
		if class == 1 {
			kind = "AC"
		}
		return nil, "uses " + kind + " Huffman table " + strconv.Itoa(int(sel)) + ", which no segment defines"
	}
	h := &w.tables[class][sel]
	if w.from[class][sel] != from {
		if why := build(h, counts, vals, class == 0); why != "" {
			w.from[class][sel] = 0
			return nil, "uses a Huffman table that " + why
		}
		w.from[class][sel] = from
	}
	return h, ""
}

// comp is a component of a scan being walked.
type comp struct {
	c      int
	dc, ac *huffman.Table
	blocks int // blocks per MCU
}

// walkResult is what walking one scan found.
type walkResult struct {
	end   int    // offset just after the last byte the scan needs
	skips []span // bytes decoders skip inside the data, in order
	fail  *walkFail
}

// scan walks the data of scan p from restart interval first on, whose data
// starts at from; dataEnd is where the data stops (its terminating marker
// or the end of what can be read). With first = 0 the whole scan is
// walked; the refinement history needs every scan of a component walked
// whole and in order.
func (w *walker) scan(p *scanParams, first, from, dataEnd int) walkResult {
	f := &w.f
	total := f.mcus(p)
	fail := func(k failKind, at, mcu int, detail string) walkResult {
		return walkResult{fail: &walkFail{kind: k, at: at, mcu: mcu, total: total, detail: detail, found: -1}}
	}

	// The scan header, as libjpeg's start of pass checks it.
	var cs [4]comp
	perMCU := 0
	for i := range p.ns {
		c := p.comp[i]
		cs[i].c = c
		cs[i].blocks = 1
		if p.ns > 1 {
			cs[i].blocks = f.h(c) * f.v(c)
		}
		perMCU += cs[i].blocks
	}
	if perMCU > 10 {
		return fail(failProgression, p.at, 0, "codes more than 10 blocks in each unit, more than decoders accept")
	}
	ss, se, ah, al := p.ss, p.se, p.ah, p.al
	if w.progressive() {
		bad := false
		if ss == 0 {
			bad = se != 0
		} else {
			bad = ss > se || se > 63 || p.ns != 1
		}
		if ah != 0 && al != ah-1 || al > 13 {
			bad = true
		}
		if bad {
			return fail(failProgression, p.at, 0, "declares a progressive band or bit position that no decoder accepts")
		}
		for i := range p.ns {
			bits := &w.coefBits[cs[i].c]
			if w.strict && ss > 0 && bits[0] < 0 {
				return fail(failProgression, p.at, 0, "sends coefficients of a colour component before its first scan of averages")
			}
			for k := ss; k <= se; k++ {
				if w.strict && int(max(bits[k], 0)) != ah {
					return fail(failProgression, p.at, 0, "refines coefficients at a bit position the scans before it did not leave")
				}
				bits[k] = int8(al)
			}
			if ss == 0 && ah == 0 && w.covered != nil {
				w.covered[cs[i].c] = true
			}
		}
	} else {
		if w.strict && (ss != 0 || se != 63 || ah != 0 || al != 0) {
			return fail(failProgression, p.at, 0, "declares a spectral band or bit position, which a sequential frame does not allow")
		}
		ss, se, ah, al = 0, 63, 0, 0
		for i := range p.ns {
			if w.covered != nil {
				w.covered[cs[i].c] = true
			}
		}
	}
	for i := range p.ns {
		var why string
		needDC := ss == 0 && ah == 0
		needAC := !w.progressive() || ss > 0
		if needDC {
			if cs[i].dc, why = w.table(0, p.dcSel[i], p.dc[i]); why != "" {
				return fail(failTable, p.at, 0, why)
			}
		}
		if needAC {
			if cs[i].ac, why = w.table(1, p.acSel[i], p.ac[i]); why != "" {
				return fail(failTable, p.at, 0, why)
			}
		}
	}
	if w.progressive() {
		if w.walked += total; w.walked > maxWalkBlocks {
			return fail(failTooLong, p.at, 0, "")
		}
	}
	var nz []uint64
	if w.progressive() && ss > 0 {
		c := cs[0].c
		if w.nz[c] == nil {
			if w.nzBlocks+total > maxHistoryBlocks {
				return fail(failTooLarge, p.at, 0, "holds more blocks than this check keeps in memory")
			}
			w.nz[c] = make([]uint64, total)
			w.nzBlocks += total
		}
		nz = w.nz[c]
	}

	// The restart intervals.
	intervals, per := 1, total
	if p.restart > 0 {
		per = p.restart
		intervals = ceilDiv(total, per)
	}
	var res walkResult
	pos := from
	br := &w.br
	var seq []huffman.SeqBlock
	var seqBuf [10]huffman.SeqBlock
	if !w.progressive() && dataEnd-from >= w.countMin {
		seq = w.seqBlocks(seqBuf[:0], p, cs[:p.ns])
	}
	for iv := first; iv < intervals; iv++ {
		mcu0 := iv * per
		count := min(per, total-mcu0)
		br.Reset(w.src, pos, dataEnd)
		w.eobrun = 0
		w.pred = [4]int32{}
		if seq != nil {
			m, ok := br.SkipMCUs(seq, count)
			if m < count {
				if br.Overrun() || !ok && br.Stopped() {
					return fail(failShort, br.Pos, mcu0+m, "")
				}
				return fail(failCode, br.Used(), mcu0+m, "")
			}
		}
		plain := count // blocks walked one by one here, unless seq counted them
		if seq != nil {
			plain = 0
		}
		for m := range plain {
			mcu := mcu0 + m
			ok := true
			for i := range p.ns {
				ci := &cs[i]
				for range ci.blocks {
					switch {
					case !w.progressive():
						ok = w.sequentialBlock(ci.dc, ci.ac)
					case ss == 0 && ah == 0:
						ok = w.dcFirst(ci.dc, i, al)
					case ss == 0:
						br.Skip(1)
					case ah == 0:
						ok = w.acFirst(ci.ac, ss, se, al, &nz[mcu])
					default:
						ok = w.acRefine(ci.ac, ss, se, &nz[mcu])
					}
					if !ok {
						break
					}
				}
				if !ok {
					break
				}
			}
			if br.Overrun() || !ok && br.Stopped() {
				return fail(failShort, br.Pos, mcu, "")
			}
			if !ok {
				return fail(failCode, br.Used(), mcu, "")
			}
		}
		u := br.Used()
		res.end = u
		if iv == intervals-1 {
			return res
		}
		// A restart marker, and only fill bytes, may follow.
		k := u
		for {
			for k < dataEnd && w.src[k] != 0xff {
				k++
			}
			j := k + 1
			for j < dataEnd && w.src[j] == 0xff {
				j++ // fill bytes before a stuffed zero, as libjpeg reads them
			}
			if j < dataEnd && w.src[j] == 0 {
				k = j + 1
				continue
			}
			break
		}
		q := k + 1
		for q < dataEnd && w.src[q] == 0xff {
			q++
		}
		want := rst0Marker + iv%8
		if q >= dataEnd || w.src[q] != byte(want) {
			r := fail(failMarker, k, mcu0+count, "")
			r.fail.want = want
			if q < dataEnd && isRST(w.src[q]) {
				r.fail.found = int(w.src[q])
			}
			if q >= dataEnd || !isRST(w.src[q]) {
				r.fail.kind = failShort // the data ends before the intervals it must hold
			}
			return r
		}
		if k > u {
			res.skips = append(res.skips, span{from: u, to: k})
		}
		if q-1 > k {
			res.skips = append(res.skips, span{from: k, to: q - 1, fill: true})
		}
		pos = q + 1
	}
	return res
}

// seqBlocks lists the blocks of one MCU of sequential scan p, whose
// components cs have their tables, with the count tables of their AC
// tables, made when needed, appended to seq.
func (w *walker) seqBlocks(seq []huffman.SeqBlock, p *scanParams, cs []comp) []huffman.SeqBlock {
	for i, c := range cs {
		sel := p.acSel[i]
		if w.countOf[sel] != w.from[1][sel] {
			if w.counts[sel] == nil {
				w.counts[sel] = new(huffman.CountTable)
			}
			w.counts[sel].Build(c.ac)
			w.countOf[sel] = w.from[1][sel]
		}
		for range c.blocks {
			seq = append(seq, huffman.SeqBlock{DC: c.dc, AC: c.ac, Count: w.counts[sel]})
		}
	}
	return seq
}

// sequentialBlock walks one block of a sequential scan: a DC difference and
// up to 63 AC coefficients (section F.2.2). A run past the last coefficient
// ends the block, as libjpeg reads it. It is the hot loop of VerifyData:
// the bits stay in locals, and a code and its coefficient bits are
// skipped in one look-up whenever the code is short.
func (w *walker) sequentialBlock(dc, ac *huffman.Table) bool {
	br := &w.br
	if br.N < 32 {
		br.Fill()
	}
	acc, n := br.Acc, br.N
	if e := dc.Skip[acc>>(64-huffman.LUTBits)]; e != 0 {
		l := uint(e & 0xff) // the code and the difference's bits
		acc <<= l
		n -= l
	} else {
		br.Acc, br.N = acc, n
		sym := br.Decode(dc)
		if sym < 0 {
			return false
		}
		acc, n = br.Acc, br.N
		acc <<= uint(sym)
		n -= uint(sym)
	}
	for k := 1; k < 64; {
		if n < 32 {
			br.Acc, br.N = acc, n
			br.Fill()
			acc, n = br.Acc, br.N
		}
		if e := ac.Skip[acc>>(64-huffman.LUTBits)]; e != 0 {
			l := uint(e & 0xff) // the code and the coefficient's bits
			acc <<= l
			n -= l
			k += int(e >> 8) // an end of block goes past 63
			continue
		}
		br.Acc, br.N = acc, n
		rs := br.DecodeSlow(ac)
		if rs < 0 {
			return false
		}
		acc, n = br.Acc, br.N
		r, s := rs>>4, uint(rs&15)
		if s == 0 {
			if r != 15 {
				break
			}
			k += 16
			continue
		}
		acc <<= s
		n -= s
		k += r + 1
	}
	br.Acc, br.N = acc, n
	return true
}

// dcFirst walks a DC difference of a first DC scan (section G.1.2.1) for
// scan component i, whose predictor libjpeg refuses to let overflow.
func (w *walker) dcFirst(dc *huffman.Table, i, al int) bool {
	br := &w.br
	if br.N < 32 {
		br.Fill()
	}
	s := br.Decode(dc)
	if s < 0 {
		return false
	}
	if s > 0 {
		d := int64(huffman.Extend(br.Get(uint(s)), uint(s)))
		v := int64(w.pred[i]) + d
		if v != int64(int32(v)) {
			return false
		}
		w.pred[i] = int32(v)
	}
	return true
}

// acFirst walks one block of a first AC scan over the band ss..se, with
// end-of-band runs (section G.1.2.2), and marks the coefficients it makes
// nonzero (a value shifted out of 16 bits stays zero, as in libjpeg).
func (w *walker) acFirst(ac *huffman.Table, ss, se, al int, nz *uint64) bool {
	if w.eobrun > 0 {
		w.eobrun--
		return true
	}
	br := &w.br
	for k := ss; k <= se; k++ {
		if br.N < 32 {
			br.Fill()
		}
		rs := br.Decode(ac)
		if rs < 0 {
			return false
		}
		r, s := rs>>4, rs&15
		if s != 0 {
			k += r
			v := huffman.Extend(br.Get(uint(s)), uint(s))
			if int16(uint32(v)<<al) != 0 {
				*nz |= 1 << min(k, 63)
			}
			continue
		}
		if r == 15 {
			k += 15
			continue
		}
		w.eobrun = 1 << r
		if r > 0 {
			w.eobrun += int(br.Get(uint(r)))
		}
		w.eobrun--
		break
	}
	return true
}

// acRefine walks one block of an AC refinement scan (section G.1.2.3): a
// correction bit for each coefficient already nonzero, new coefficients of
// one bit placed on zero ones. Which coefficients are nonzero comes from
// the scans before; libjpeg's reading, including a new coefficient placed
// one past the band, is followed exactly since it decides how many bits
// the block takes.
func (w *walker) acRefine(ac *huffman.Table, ss, se int, nz *uint64) bool {
	br := &w.br
	k := ss
	if w.eobrun == 0 {
		for ; k <= se; k++ {
			if br.N < 32 {
				br.Fill()
			}
			rs := br.Decode(ac)
			if rs < 0 {
				return false
			}
			r, s := rs>>4, rs&15
			if s != 0 {
				if s != 1 {
					return false // libjpeg: "corrupt JPEG data: bad Huffman code"
				}
				br.Skip(1)
			} else if r != 15 {
				w.eobrun = 1 << r
				if r > 0 {
					w.eobrun += int(br.Get(uint(r)))
				}
				break
			}
			// Past r zero coefficients, a correction bit for each
			// nonzero one met, to the (r+1)th zero: found in the record
			// of what is zero rather than coefficient by coefficient.
			at := huffman.RunEnd(*nz, k, se, r)
			if at > k {
				skipBits(br, bits.OnesCount64(*nz&huffman.Band(k, at-1)))
			}
			k = at
			if s != 0 {
				*nz |= 1 << min(k, 63)
			}
		}
	}
	if w.eobrun > 0 {
		skipBits(br, bits.OnesCount64(*nz&huffman.Band(k, se)))
		w.eobrun--
	}
	return true
}

// skipBits skips n bits, a few dozen at a time.
func skipBits(br *huffman.Reader, n int) {
	for n > 0 {
		step := min(n, 32)
		br.Skip(uint(step))
		n -= step
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
