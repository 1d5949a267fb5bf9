package jpegscale

import (
	"maison/internal/huffman"
)

// scanComp is one component of a scan with its tables.
type scanComp struct {
	c      *component
	dc, ac *huffTable
}

// scan reads a scan header and decodes its entropy-coded data, which starts
// at pos. It returns the position of the marker that ends the scan.
// Specified in section B.2.3.
func (d *decoder) scan(seg []byte, pos int) (int, error) {
	if !d.sof {
		return pos, FormatError("SOS before SOF")
	}
	if len(seg) < 1 {
		return pos, FormatError("short SOS segment")
	}
	ns := int(seg[0])
	if ns < 1 || ns > d.ncomp || len(seg) != 4+2*ns {
		return pos, FormatError("bad SOS length or component count")
	}
	var comps [4]scanComp
	blocksPerMCU := 0
	for i := 0; i < ns; i++ {
		id, t := seg[1+2*i], seg[2+2*i]
		ci := -1
		for j := 0; j < d.ncomp; j++ {
			if d.comp[j].id == id {
				ci = j
			}
		}
		if ci < 0 {
			return pos, FormatError("scan names an unknown component")
		}
		for j := 0; j < i; j++ {
			if comps[j].c == &d.comp[ci] {
				return pos, FormatError("scan repeats a component")
			}
		}
		td, ta := t>>4, t&15
		if td > 3 || ta > 3 {
			return pos, FormatError("bad Huffman table selector")
		}
		comps[i] = scanComp{c: &d.comp[ci], dc: &d.huff[0][td], ac: &d.huff[1][ta]}
		blocksPerMCU += d.comp[ci].h * d.comp[ci].v
	}
	if ns > 1 && blocksPerMCU > 10 {
		return pos, FormatError("too many blocks in an MCU")
	}
	p := seg[1+2*ns:]
	ss, se, ah, al := int(p[0]), int(p[1]), int(p[2]>>4), int(p[2]&15)
	cs := comps[:ns]

	if d.progressive {
		if ss > se || se > 63 || (ss == 0 && se != 0) || (ss > 0 && ns != 1) || ah > 13 || al > 13 {
			return pos, FormatError("bad progressive scan parameters")
		}
		for _, sc := range cs {
			if ss == 0 && !sc.c.seen {
				if ah != 0 {
					return pos, FormatError("DC refinement before the first DC scan")
				}
				if err := d.allocate(sc.c, len(d.data)-pos); err != nil {
					return pos, err
				}
				sc.c.seen = true
			}
			if !sc.c.seen {
				return pos, FormatError("AC scan before the DC scan")
			}
			if ss == 0 && ah == 0 && !sc.dc.defined || ss > 0 && !sc.ac.defined {
				return pos, FormatError("undefined Huffman table")
			}
		}
		d.scans++
		if !d.planned {
			d.plan(pos)
		}
		if d.canSkip && ss > lastKept[d.log] && ss > d.refineMax[cs[0].c.index] {
			// The reduced IDCT reads none of the coefficients of this
			// band, and no scan that is decoded refines them: skip it.
			return d.skipScan(pos), nil
		}
	} else {
		if ss != 0 || se != 63 || ah != 0 || al != 0 {
			return pos, FormatError("bad sequential scan parameters")
		}
		for _, sc := range cs {
			if !sc.dc.defined || !sc.ac.defined {
				return pos, FormatError("undefined Huffman table")
			}
			if err := d.allocate(sc.c, len(d.data)-pos); err != nil {
				return pos, err
			}
			sc.c.seen = true
		}
		d.scans++
	}

	if d.partial && d.stopped {
		// A scan before was damaged: the refinements after it would be
		// read against coefficients that are not what the encoder had.
		d.softened = true
		return d.skipScan(pos), nil
	}
	d.br.Reset(d.data, pos, len(d.data))
	d.eobrun = 0
	for _, sc := range cs {
		sc.c.pred = 0
	}
	var fn func(sc *scanComp, bx, by int) error
	switch {
	case !d.progressive:
		fn = d.baselineBlock
	case ss == 0 && ah == 0:
		fn = func(sc *scanComp, bx, by int) error { return d.dcFirst(sc, bx, by, al) }
	case ss == 0:
		fn = func(sc *scanComp, bx, by int) error { return d.dcRefine(sc, bx, by, al) }
	case ah == 0:
		fn = func(sc *scanComp, bx, by int) error { return d.acFirst(sc, bx, by, ss, se, al) }
	default:
		fn = func(sc *scanComp, bx, by int) error { return d.acRefine(sc, bx, by, ss, se, al) }
	}
	if d.partial {
		d.walkPartial(cs, fn, ss, se, ah)
		return d.skipScan(d.br.Pos), nil
	}
	if err := d.walk(cs, fn); err != nil {
		return pos, err
	}
	if d.br.Overrun() {
		return pos, FormatError("short Huffman data")
	}
	return d.skipScan(d.br.Pos), nil
}

// walk calls fn for every block of the scan in order, handling restart
// intervals (T.81 A.2 for the order, B.2.5 and F.2.3 for restarts).
func (d *decoder) walk(cs []scanComp, fn func(sc *scanComp, bx, by int) error) error {
	mcu := 0
	if len(cs) == 1 {
		// Non-interleaved: one block per MCU over the component's extent.
		sc := &cs[0]
		for by := 0; by < sc.c.ch; by++ {
			for bx := 0; bx < sc.c.cw; bx++ {
				if d.ri > 0 && mcu > 0 && mcu%d.ri == 0 {
					if err := d.restart(cs); err != nil {
						return err
					}
				}
				mcu++
				if err := fn(sc, bx, by); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for my := 0; my < d.mcusY; my++ {
		for mx := 0; mx < d.mcusX; mx++ {
			if d.ri > 0 && mcu > 0 && mcu%d.ri == 0 {
				if err := d.restart(cs); err != nil {
					return err
				}
			}
			mcu++
			for i := range cs {
				sc := &cs[i]
				h, v := sc.c.h, sc.c.v
				for y := 0; y < v; y++ {
					for x := 0; x < h; x++ {
						if err := fn(sc, mx*h+x, my*v+y); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// restart handles the end of a restart interval: the bits left are padding,
// an RSTn marker follows, and the predictors start again (F.2.1.3.1, G.1.2.2).
func (d *decoder) restart(cs []scanComp) error {
	br := &d.br
	if br.Overrun() {
		return FormatError("short Huffman data")
	}
	// Look for the marker from the first byte not yet consumed. Bytes
	// before it are skipped, as libjpeg does ("extraneous bytes before
	// marker"): some cameras write them.
	p := br.Pos
	for {
		for p < len(d.data) && d.data[p] != 0xFF {
			p++
		}
		for p < len(d.data) && d.data[p] == 0xFF {
			p++
		}
		if p >= len(d.data) {
			return FormatError("missing restart marker")
		}
		if d.data[p] == 0x00 {
			p++
			continue
		}
		break
	}
	if m := d.data[p]; m < markerRST0 || m > markerRST7 {
		return FormatError("missing restart marker")
	}
	br.Reset(d.data, p+1, len(d.data))
	d.eobrun = 0
	for _, sc := range cs {
		sc.c.pred = 0
	}
	return nil
}

// plan reads the headers of the scans from pos on, before the first
// progressive scan is decoded, to find which bands can be skipped at this
// scale: an AC refinement scan that is decoded needs the history of every
// coefficient of its band, so refineMax[c] is the highest coefficient such a
// scan touches for component c. If the walk fails, nothing is skipped.
func (d *decoder) plan(pos int) {
	d.planned = true
	for i := range d.refineMax {
		d.refineMax[i] = -1
	}
	data := d.data
	lk := lastKept[d.log]
	pos = d.skipScan(pos)
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			return
		}
		m := data[pos+1]
		if m == markerEOI {
			break
		}
		n := int(data[pos+2])<<8 | int(data[pos+3])
		if n < 2 || pos+2+n > len(data) {
			return
		}
		seg := data[pos+4 : pos+2+n]
		pos += 2 + n
		if m == markerSOS {
			if len(seg) < 1 || len(seg) != 4+2*int(seg[0]) {
				return
			}
			ns := int(seg[0])
			p := seg[1+2*ns:]
			ss, se, ah := int(p[0]), int(p[1]), p[2]>>4
			if ss > 0 && ah > 0 && ss <= lk && ns == 1 {
				for i := 0; i < d.ncomp; i++ {
					if d.comp[i].id == seg[1] {
						d.refineMax[i] = max(d.refineMax[i], se)
					}
				}
			}
			pos = d.skipScan(pos)
		}
	}
	d.canSkip = true
}

// skipScan returns the position of the first marker at or after pos that
// is not a stuffed byte or a restart marker: the end of the scan.
func (d *decoder) skipScan(pos int) int {
	data := d.data
	for {
		if pos >= len(data) {
			return len(data)
		}
		pos = huffman.NextMarker(data, pos)
		if pos+1 >= len(data) {
			return len(data)
		}
		m := data[pos+1]
		if m >= markerRST0 && m <= markerRST7 {
			pos += 2
			continue
		}
		if m == 0xFF {
			pos++
			continue
		}
		if d.partial && m < markerSOF0 {
			pos += 2 // a reserved code in damaged data: part of the scan
			continue
		}
		return pos
	}
}

// baselineBlock decodes one block of a sequential scan (F.2.2), dequantizes
// the coefficients the reduced IDCT needs and writes the block's samples.
// The bit accumulator lives in locals here, the hot loop of the package.
func (d *decoder) baselineBlock(sc *scanComp, bx, by int) error {
	br := &d.br
	c := sc.c
	q := &c.q
	blk := &d.blk
	keep := &keepTables[d.log]
	if br.N < 32 {
		br.Fill()
	}
	acc, n := br.Acc, br.N

	// DC difference: a symbol giving the size, then that many bits.
	dct := sc.dc
	var s uint
	if e := dct.LUT[acc>>(64-huffman.LUTBits)]; e != 0 {
		l := uint(e >> 8)
		acc <<= l
		n -= l
		s = uint(e & 0xFF)
	} else {
		br.Acc, br.N = acc, n
		sym := br.DecodeSlow(&dct.Table)
		if sym < 0 {
			return FormatError("bad Huffman code")
		}
		acc, n = br.Acc, br.N
		s = uint(sym)
	}
	if s != 0 {
		if s > 11 {
			return FormatError("bad DC coefficient size")
		}
		v := int32(acc >> (64 - s))
		acc <<= s
		n -= s
		if v < 1<<(s-1) {
			v += -1<<s + 1
		}
		c.pred += v
	}
	blk[0] = c.pred * q[0]

	last := 0
	ac := sc.ac
	for k := 1; k < 64; {
		if n < 32 {
			br.Acc, br.N = acc, n
			br.Fill()
			acc, n = br.Acc, br.N
		}
		peek := acc >> (64 - huffman.LUTBits)
		if f := ac.Fast[peek]; f != 0 {
			// Code and magnitude bits in one lookup.
			l := uint(f & 0xFF)
			acc <<= l
			n -= l
			v := f >> 16
			if v == 0 {
				if f>>8 == huffman.AdvanceEOB {
					break
				}
				k += huffman.AdvanceZRL
				continue
			}
			k += int(f>>8)&0xFF - 1
			if k > 63 {
				return FormatError("bad AC run length")
			}
			blk[keep[k]] = v * q[k]
			last = k
			k++
			continue
		}
		var rs uint8
		if e := ac.LUT[peek]; e != 0 {
			l := uint(e >> 8)
			acc <<= l
			n -= l
			rs = uint8(e)
		} else {
			br.Acc, br.N = acc, n
			sym := br.DecodeSlow(&ac.Table)
			if sym < 0 {
				return FormatError("bad Huffman code")
			}
			acc, n = br.Acc, br.N
			rs = uint8(sym)
		}
		r, s := int(rs>>4), uint(rs&15)
		if s == 0 {
			if r != 15 {
				break // EOB
			}
			k += 16 // ZRL
			continue
		}
		k += r
		if k > 63 {
			return FormatError("bad AC run length")
		}
		v := int32(acc >> (64 - s))
		acc <<= s
		n -= s
		if v < 1<<(s-1) {
			v += -1<<s + 1
		}
		blk[keep[k]] = v * q[k]
		last = k
		k++
	}
	br.Acc, br.N = acc, n
	d.emit(c, bx, by, last)
	return nil
}

// emit runs the reduced IDCT of d.blk into the component plane at block
// (bx, by) and clears the block. last is the zig-zag index of the last
// nonzero coefficient.
func (d *decoder) emit(c *component, bx, by, last int) {
	bs := d.bs
	if bx < c.x0 || bx >= c.x1 || by < c.y0 || by >= c.y1 {
		// Outside the region asked for: decoded, never drawn.
		d.blk = [65]int32{}
		return
	}
	off := (by-c.y0)*bs*c.stride + (bx-c.x0)*bs
	if off < 0 || off+(bs-1)*c.stride+bs > len(c.plane) {
		// Blocks of an MCU-padded grid always fit; never write outside.
		d.blk = [65]int32{}
		return
	}
	dst := c.plane[off:]
	blk := &d.blk
	if last == 0 {
		fillDC(blk[0], dst, c.stride, bs)
		blk[0] = 0
		return
	}
	switch bs {
	case 8:
		idct8(blk, dst, c.stride)
	case 4:
		idct4(blk, dst, c.stride)
	case 2:
		idct2(blk, dst, c.stride)
	default:
		fillDC(blk[0], dst, c.stride, 1)
	}
	*blk = [65]int32{}
}
