package jpegfix

import "fmt"

// verifyScan decides whether the latest scan, whose entropy-coded data
// stops at offset dataEnd without a proper marker, is complete. It walks the
// Huffman codes of the scan's last restart interval, counting blocks
// without computing any coefficient, and returns the offset just after the
// last byte the scan needs. Bytes between that offset and dataEnd belong
// to no segment.
//
// This is the one place where Repair reads entropy-coded data: it is what
// tells a complete scan that only lost its EOI (libjpeg warns "premature
// end of JPEG file", Go and Pillow refuse it) from a file cut inside its
// data, whose missing part no repair can restore. Specified in Annex F
// (sequential) and Annex G (progressive); arithmetic, lossless and
// hierarchical frames, frames whose height comes from DNL, and progressive
// refinement scans of AC coefficients cannot be checked this way and are
// refused.
func (r *repairer) verifyScan(dataEnd int) (int, error) {
	src := r.src
	s := &r.scan
	f := r.sofAt
	sof := src[f+1]
	at := s.at
	unverifiable := func(what string) error {
		return refuse(ProblemTruncated, dataEnd, fmt.Sprintf("the image data of the scan at byte %s stops at byte %s without an end-of-image marker, and %s, so it cannot be checked for completeness; the file is probably cut off", commas(at), commas(dataEnd), what))
	}
	damaged := func() error {
		return refuse(ProblemDamaged, dataEnd, fmt.Sprintf("the image data of the scan at byte %s is damaged: it stops at byte %s without an end-of-image marker and its codes do not decode", commas(at), commas(dataEnd)))
	}
	switch sof {
	case sof0Marker, sof1Marker, sof2Marker:
	default:
		return 0, unverifiable("its frame uses a coding (arithmetic, lossless or hierarchical) that this check does not read")
	}
	height := int(src[f+5])<<8 | int(src[f+6])
	width := int(src[f+7])<<8 | int(src[f+8])
	if height == 0 {
		return 0, unverifiable("its frame height is given by a DNL segment")
	}
	ns := int(src[at+4])
	ss, se := int(src[at+5+2*ns]), int(src[at+6+2*ns])
	ah := int(src[at+7+2*ns] >> 4)
	progressive := sof == sof2Marker
	if progressive && ss > 0 && ah > 0 {
		return 0, unverifiable("it refines AC coefficients of a progressive image, which needs the earlier scans to walk")
	}
	if !progressive {
		ss, se, ah = 0, 63, 0
	}
	if ss > se || se > 63 || (progressive && ss > 0 && ns != 1) || (progressive && ss == 0 && se != 0) {
		return 0, damaged()
	}

	// Frame sampling: Annex A.1.1.
	nf := int(src[f+9])
	hmax, vmax := 1, 1
	for i := range nf {
		hv := src[f+11+3*i]
		hmax = max(hmax, int(hv>>4))
		vmax = max(vmax, int(hv&15))
	}
	type comp struct {
		h, v   int
		dc, ac *huffTable
	}
	var comps [4]comp
	var tables [2][4]huffTable
	var built [2][4]bool
	table := func(class, id int) *huffTable {
		if !built[class][id] {
			built[class][id] = true
			if off := r.huff[class][id]; off > 0 {
				tables[class][id].build(src, off-1)
			}
		}
		if !tables[class][id].ok {
			return nil
		}
		return &tables[class][id]
	}
	for i := range ns {
		id := src[at+5+2*i]
		sel := src[at+6+2*i]
		for j := range nf {
			if src[f+10+3*j] == id {
				hv := src[f+11+3*j]
				comps[i].h, comps[i].v = int(hv>>4), int(hv&15)
			}
		}
		needDC := ss == 0 && ah == 0
		needAC := se > 0
		if needDC {
			if comps[i].dc = table(0, int(sel>>4)); comps[i].dc == nil {
				return 0, damaged()
			}
		}
		if needAC {
			if comps[i].ac = table(1, int(sel&15)); comps[i].ac == nil {
				return 0, damaged()
			}
		}
	}

	// MCU count: Annex A.2.
	var total int
	if ns == 1 {
		c := comps[0]
		cw := ceilDiv(width*c.h, hmax)
		ch := ceilDiv(height*c.v, vmax)
		total = ceilDiv(cw, 8) * ceilDiv(ch, 8)
		comps[0].h, comps[0].v = 1, 1 // one block per MCU
	} else {
		total = ceilDiv(width, 8*hmax) * ceilDiv(height, 8*vmax)
	}
	start, want := s.ecs, total
	if s.restart > 0 {
		want = total - s.rsts*s.restart
		start = s.lastRST
		if want <= 0 {
			return 0, damaged()
		}
		if want > s.restart {
			return 0, r.cut(at, dataEnd, s.rsts*s.restart, total)
		}
	} else if s.rsts > 0 {
		return 0, damaged()
	}

	br := bitReader{src: src, pos: start, end: dataEnd}
	eobrun := 0
	for mcu := range want {
		for i := range ns {
			c := &comps[i]
			for range c.h * c.v {
				var ok bool
				switch {
				case !progressive:
					ok = br.sequentialBlock(c.dc, c.ac)
				case ss == 0 && ah == 0:
					ok = br.dcFirst(c.dc)
				case ss == 0:
					_, ok = br.bits(1)
				default:
					ok = br.acFirst(c.ac, ss, se, &eobrun)
				}
				if !ok {
					if br.bad {
						return 0, damaged()
					}
					return 0, r.cut(at, dataEnd, total-want+mcu, total)
				}
			}
		}
	}
	return br.used(start), nil
}

func (r *repairer) cut(at, dataEnd, done, total int) error {
	pct := done * 100 / total
	return refuse(ProblemTruncated, dataEnd, fmt.Sprintf("the file is cut off inside its image data: the scan at byte %s stops at byte %s, %d%% of the way through the picture; the missing part cannot be recovered", commas(at), commas(dataEnd), pct))
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// huffTable is a canonical Huffman code, decoded as in section F.2.2.3,
// with a lookup table for codes of up to lutBits bits.
type huffTable struct {
	ok      bool
	maxcode [17]int32 // largest code of each length, -1 if none
	valptr  [17]int32 // index in vals of the first code of each length
	mincode [17]int32 // smallest code of each length
	vals    []byte
	lut     [1 << lutBits]uint16 // length<<8 | symbol for short codes; 0 otherwise
}

const lutBits = 9

// build reads the table whose Tc/Th byte is at src[off].
func (h *huffTable) build(src []byte, off int) {
	counts := src[off+1 : off+17]
	total := 0
	for _, c := range counts {
		total += int(c)
	}
	h.vals = src[off+17 : off+17+total]
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		if n == 0 {
			h.maxcode[l] = -1
		} else {
			h.valptr[l] = k
			h.mincode[l] = code
			if l <= lutBits {
				for i := range n {
					c := code + i
					if c >= 1<<l {
						break // an over-full table; the slow path flags it
					}
					lo := int(c) << (lutBits - l)
					for j := range 1 << (lutBits - l) {
						h.lut[lo+j] = uint16(l)<<8 | uint16(h.vals[k+i])
					}
				}
			}
			code += n
			k += n
			h.maxcode[l] = code - 1
		}
		code <<= 1
	}
	h.ok = true
}

// bitReader reads entropy-coded bits from src[pos:end], removing the zero
// byte stuffed after each 0xFF (section F.1.2.3). It remembers where each
// buffered byte ends in src, so that once a scan is complete it can tell
// the offset just after the last byte the scan used.
type bitReader struct {
	src      []byte
	pos, end int
	acc      uint64 // buffered bits, most significant first
	n        uint   // number of buffered bits
	eof      bool   // no byte left to buffer
	bad      bool   // the data holds a code no table defines
	loaded   int    // bytes buffered so far
	ends     [16]int
}

// fill buffers whole bytes until at least 57 bits are buffered or the data
// ends.
func (b *bitReader) fill() {
	for b.n <= 56 && !b.eof {
		if b.pos >= b.end {
			b.eof = true
			return
		}
		c := b.src[b.pos]
		next := b.pos + 1
		if c == 0xff {
			if next >= b.end || b.src[next] != 0 {
				b.eof = true // a marker, or a 0xFF cut off from its zero
				return
			}
			next++
		}
		b.acc |= uint64(c) << (56 - b.n)
		b.n += 8
		b.pos = next
		b.ends[b.loaded&15] = next
		b.loaded++
	}
}

// used returns the offset just after the last byte holding a consumed bit,
// or start if none was consumed.
func (b *bitReader) used(start int) int {
	i := b.loaded - 1 - int(b.n/8)
	if i < 0 {
		return start
	}
	return b.ends[i&15]
}

func (b *bitReader) bits(k int) (int, bool) {
	if b.n < uint(k) {
		b.fill()
		if b.n < uint(k) {
			return 0, false
		}
	}
	v := int(b.acc >> (64 - uint(k)))
	b.acc <<= uint(k)
	b.n -= uint(k)
	return v, true
}

// decode reads one Huffman-coded symbol.
func (b *bitReader) decode(h *huffTable) (int, bool) {
	if b.n < 16 {
		b.fill()
	}
	if e := h.lut[b.acc>>(64-lutBits)]; e != 0 && uint(e>>8) <= b.n {
		l := uint(e >> 8)
		b.acc <<= l
		b.n -= l
		return int(e & 0xff), true
	}
	for l := 1; l <= 16; l++ {
		if uint(l) > b.n {
			return 0, false // the data ends inside a code
		}
		code := int32(b.acc >> (64 - uint(l)))
		if code <= h.maxcode[l] {
			i := h.valptr[l] + code - h.mincode[l]
			if i < 0 || int(i) >= len(h.vals) {
				break
			}
			b.acc <<= uint(l)
			b.n -= uint(l)
			return int(h.vals[i]), true
		}
	}
	b.bad = true
	return 0, false
}

// sequentialBlock skips one block of a sequential scan: a DC difference
// and up to 63 AC coefficients (section F.2.2).
func (b *bitReader) sequentialBlock(dc, ac *huffTable) bool {
	if !b.dcFirst(dc) {
		return false
	}
	for k := 1; k < 64; {
		rs, ok := b.decode(ac)
		if !ok {
			return false
		}
		r, s := rs>>4, rs&15
		if s == 0 {
			if r != 15 {
				return true // end of block
			}
			k += 16
			continue
		}
		if _, ok := b.bits(s); !ok {
			return false
		}
		k += r + 1
	}
	return true
}

// dcFirst skips a DC difference (sections F.2.2.1 and G.1.2.1).
func (b *bitReader) dcFirst(dc *huffTable) bool {
	s, ok := b.decode(dc)
	if !ok {
		return false
	}
	if s > 16 {
		b.bad = true
		return false
	}
	_, ok = b.bits(s)
	return ok
}

// acFirst skips one block of a progressive first AC scan over the band
// ss..se, with end-of-band runs (section G.1.2.2).
func (b *bitReader) acFirst(ac *huffTable, ss, se int, eobrun *int) bool {
	if *eobrun > 0 {
		*eobrun--
		return true
	}
	for k := ss; k <= se; {
		rs, ok := b.decode(ac)
		if !ok {
			return false
		}
		r, s := rs>>4, rs&15
		if s == 0 {
			if r < 15 {
				run := 1 << r
				if r > 0 {
					extra, ok := b.bits(r)
					if !ok {
						return false
					}
					run += extra
				}
				*eobrun = run - 1
				return true
			}
			k += 16
			continue
		}
		if _, ok := b.bits(s); !ok {
			return false
		}
		k += r + 1
	}
	return true
}
