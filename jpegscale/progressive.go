package jpegscale

import (
	"math/bits"

	"maison/internal/huffman"
)

// Progressive decoding (T.81 Annex G.2): coefficients accumulate in each
// component's store, in zig-zag order, over several scans; the inverse DCT
// runs once all scans are read.

// coefBlock returns the kept coefficients of block (bx, by), nil for a
// block outside the window, and the block's record of which coefficients
// are not zero; nz is nil for a block outside the component.
func (d *decoder) coefBlock(c *component, bx, by int) (vals []int16, nz *uint64) {
	i := by*c.bw + bx
	if uint(bx) >= uint(c.bw) || uint(i) >= uint(len(c.nz)) {
		return nil, nil
	}
	nz = &c.nz[i]
	wx, wy, ww := bx-c.x0, by-c.y0, c.x1-c.x0
	if uint(wx) >= uint(ww) || uint(wy) >= uint(c.y1-c.y0) {
		return nil, nz
	}
	j := (wy*ww + wx) * d.kept
	return c.vals[j : j+d.kept : j+d.kept], nz
}

// dcFirst decodes the first DC scan of a block (G.1.2.1).
func (d *decoder) dcFirst(sc *scanComp, bx, by, al int) error {
	br := &d.br
	b, nz := d.coefBlock(sc.c, bx, by)
	if nz == nil {
		return FormatError("block outside the component")
	}
	if br.N < 32 {
		br.Fill()
	}
	s, err := decodeSym(br, sc.dc)
	if err != nil {
		return err
	}
	if s > 11 {
		return FormatError("bad DC coefficient size")
	}
	if s != 0 {
		sc.c.pred += br.Receive(uint(s))
	}
	if b != nil {
		b[0] = int16(sc.c.pred << al)
	}
	return nil
}

// dcRefine reads one more bit of a DC coefficient (G.1.2.1).
func (d *decoder) dcRefine(sc *scanComp, bx, by, al int) error {
	br := &d.br
	b, nz := d.coefBlock(sc.c, bx, by)
	if nz == nil {
		return FormatError("block outside the component")
	}
	if br.N < 32 {
		br.Fill()
	}
	if br.Bits(1) != 0 && b != nil {
		b[0] |= 1 << al
	}
	return nil
}

// acFirst decodes the first scan of a band of AC coefficients, with end-of-
// band runs spanning blocks (G.1.2.2).
func (d *decoder) acFirst(sc *scanComp, bx, by, ss, se, al int) error {
	b, nz := d.coefBlock(sc.c, bx, by)
	if nz == nil {
		return FormatError("block outside the component")
	}
	if d.eobrun > 0 {
		d.eobrun--
		return nil
	}
	br := &d.br
	for k := ss; k <= se; {
		if br.N < 32 {
			br.Fill()
		}
		rs, err := decodeSym(br, sc.ac)
		if err != nil {
			return err
		}
		r, s := int(rs>>4), uint(rs&15)
		if s == 0 {
			if r < 15 {
				// EOBn: this block and 2^r - 1 + (r bits) more end here.
				d.eobrun = 1<<r - 1
				if r > 0 {
					d.eobrun += int(br.Bits(uint(r)))
				}
				return nil
			}
			k += 16
			continue
		}
		k += r
		if k > se {
			return FormatError("bad AC run length")
		}
		v := int16(br.Receive(s) << al)
		*nz |= 1 << k
		if k < len(b) {
			b[k] = v
		}
		k++
	}
	return nil
}

// acRefine reads correction bits for the nonzero coefficients of a band and
// places new coefficients of magnitude 1<<al (G.1.2.3).
func (d *decoder) acRefine(sc *scanComp, bx, by, ss, se, al int) error {
	b, nz := d.coefBlock(sc.c, bx, by)
	if nz == nil {
		return FormatError("block outside the component")
	}
	br := &d.br
	p1, m1 := int16(1)<<al, int16(-1)<<al
	k := ss
	if d.eobrun == 0 {
		for ; k <= se; k++ {
			if br.N < 32 {
				br.Fill()
			}
			rs, err := decodeSym(br, sc.ac)
			if err != nil {
				return err
			}
			r, s := int(rs>>4), int(rs&15)
			var v int16
			if s != 0 {
				if s != 1 {
					return FormatError("bad refinement coefficient size")
				}
				if br.Bits(1) != 0 {
					v = p1
				} else {
					v = m1
				}
			} else if r != 15 {
				d.eobrun = 1 << r
				if r > 0 {
					d.eobrun += int(br.Bits(uint(r)))
				}
				break
			}
			// Skip r zero coefficients (refining the nonzero ones met on
			// the way), then place v on the next zero coefficient: the
			// (r+1)th zero from k, found in the record of what is zero.
			at := huffman.RunEnd(*nz, k, se, r)
			if at > k {
				d.correct(b, *nz&huffman.Band(k, at-1), p1, m1)
			}
			k = at
			if v != 0 && k <= se {
				*nz |= 1 << k
				if k < len(b) {
					b[k] = v
				}
			}
		}
	}
	if d.eobrun > 0 {
		// Inside an end-of-band run: only correction bits remain, one
		// for each coefficient of the band from k on that is not zero.
		d.correct(b, *nz&huffman.Band(k, se), p1, m1)
		d.eobrun--
	}
	return nil
}

// correct reads the correction bit of each coefficient in band, in
// order: those the window keeps are refined, the others' bits only read,
// many at a time.
func (d *decoder) correct(b []int16, band uint64, p1, m1 int16) {
	br := &d.br
	keep := band
	if len(b) < 64 {
		keep &= 1<<len(b) - 1
	}
	for keep != 0 {
		k := bits.TrailingZeros64(keep)
		keep &= keep - 1
		if br.N < 32 {
			br.Fill()
		}
		refine(&b[k], br.Bits(1), p1, m1)
	}
	if len(b) < 64 {
		for n := bits.OnesCount64(band >> len(b)); n > 0; {
			if br.N < 32 {
				br.Fill()
			}
			step := min(n, 24)
			br.Bits(uint(step))
			n -= step
		}
	}
}

// refine adds a correction bit to a nonzero coefficient, away from zero.
func refine(c *int16, bit int32, p1, m1 int16) {
	if bit == 0 || *c&p1 != 0 {
		return
	}
	if *c >= 0 {
		*c += p1
	} else {
		*c += m1
	}
}

// reconstruct dequantizes every stored block and runs the reduced IDCT.
func (d *decoder) reconstruct() {
	keep := &keepTables[d.log]
	lk := lastKept[d.log]
	for i := 0; i < d.ncomp; i++ {
		c := &d.comp[i]
		for by := max(0, c.y0); by < min(c.ch, c.y1); by++ {
			for bx := max(0, c.x0); bx < min(c.cw, c.x1); bx++ {
				b, _ := d.coefBlock(c, bx, by)
				if b == nil {
					continue
				}
				last := 0
				for k := 0; k <= lk && k < len(b); k++ {
					if v := b[k]; v != 0 {
						d.blk[keep[k]] = int32(v) * c.q[k]
						last = k
					}
				}
				d.emit(c, bx, by, last)
			}
		}
	}
}
