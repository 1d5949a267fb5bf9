package huffman

import (
	"bytes"
	"encoding/binary"
)

// CountBits is the number of bits a CountTable looks up at once.
const CountBits = 12

// A CountTable skips the codes of an AC table and the coefficient bits
// after them, several codes a look-up, for a walk that proves a
// sequential scan whole and needs no coefficient's value: section F.2.2.2
// read as a count of positions in the block.
//
// Entry e of the next CountBits bits packs two readings of them:
//
//	bits  0-4   all: the bits the codes take together (0: the first code is longer)
//	bits  5-11  all: how far they move the coefficient index (an end of block: 64 or more)
//	bits 12-18  the largest index k at which all of them belong to the block
//	bits 19-23  first: the bits the first code and its coefficient bits take
//	bits 24-30  first: how far it moves the index
//
// The codes a look-up takes together fit in CountBits bits and stop after
// an end of block; the first code alone may take up to 31 bits.
type CountTable struct {
	e [1 << CountBits]uint32
}

// Build makes c from t, an AC table.
func (c *CountTable) Build(t *Table) {
	const mask = 1<<CountBits - 1
	// The first code of each window alone: its length, the bits it and its
	// coefficient bits take, and its advance; 0 when it is longer.
	var one [1 << CountBits]uint32
	for idx := range uint32(1 << CountBits) {
		if l, bits, adv, ok := t.peekCode(idx); ok {
			one[idx] = l | bits<<5 | adv<<11
		}
	}
	for idx := range uint32(1 << CountBits) {
		first := one[idx]
		if first == 0 {
			c.e[idx] = 0
			continue
		}
		// Take codes while they fit whole in the window: the bits after
		// those taken are zeros in the window looked up, so a code read
		// there is the stream's only when it and its bits fit.
		used, adv, lim := uint32(0), uint32(0), uint32(63)
		for used < CountBits {
			o := one[(idx<<used)&mask]
			l, b, a := o&31, o>>5&63, o>>11
			if o == 0 || l > CountBits-used || used+b > CountBits {
				break
			}
			lim = 63 - adv // every code before this one leaves the index below 64
			used += b
			adv += a
			if a >= 64 || adv >= 63 {
				break
			}
		}
		bits1, adv1 := first>>5&63, first>>11
		if used == 0 {
			used, adv, lim = bits1, adv1, 63
		}
		c.e[idx] = used | adv<<5 | lim<<12 | bits1<<19 | adv1<<24
	}
}

// peekCode reads the code at the top of w, a window of CountBits bits: its
// length, the bits it and its coefficient bits take, and how far it moves
// the coefficient index (AdvanceZRL, AdvanceEOB, or the run plus one). It
// reports false when no code of at most CountBits bits starts there.
func (t *Table) peekCode(w uint32) (l, bits, adv uint32, ok bool) {
	sym := byte(0)
	if e := t.LUT[w>>(CountBits-LUTBits)]; e != 0 {
		l, sym = uint32(e>>8), byte(e)
	} else {
		for ll := uint32(LUTBits + 1); ll <= CountBits; ll++ {
			code := int32(w >> (CountBits - ll))
			if code <= t.maxcode[ll] {
				i := t.valptr[ll] + code
				if i < 0 || i > 255 {
					return 0, 0, 0, false
				}
				l, sym = ll, t.vals[i]
				break
			}
		}
	}
	if l == 0 {
		return 0, 0, 0, false
	}
	run, size := uint32(sym>>4), uint32(sym&15)
	switch {
	case size == 0 && run == 15:
		return l, l, AdvanceZRL, true
	case size == 0:
		return l, l, AdvanceEOB, true
	}
	return l, l + size, run + 1, true
}

// SeqBlock is what walking one block of a sequential scan needs: its DC
// table, and its AC table with the CountTable made from it.
type SeqBlock struct {
	DC, AC *Table
	Count  *CountTable
}

// SkipMCUs walks mcus MCUs of a sequential scan, each made of the blocks
// listed, in order (section F.2.2): it decodes every code and skips every
// coefficient's bits, as a decoder reads them, without computing a value.
// A run past the last coefficient ends a block, as libjpeg reads it. It
// returns how many MCUs it walked before one in which a code was not
// defined (ok false) or that used bits past the data (Overrun), or mcus
// when it walked them all.
//
// The bits are read eight bytes at a time until the next 0xFF byte, from
// which Fill reads a byte at a time.
func (b *Reader) SkipMCUs(blocks []SeqBlock, mcus int) (done int, ok bool) {
	acc, n, pos := b.Acc, b.N, b.Pos
	src := b.src
	safe := b.safeEnd()
	for m := range mcus {
		for i := range blocks {
			bl := &blocks[i]
			if n < 32 {
				if pos+8 <= safe {
					acc |= binary.BigEndian.Uint64(src[pos:]) >> (n & 63)
					k := (64 - n) >> 3
					pos += int(k)
					n += k << 3
				} else {
					acc, n, pos, safe = b.fill(acc, n, pos, safe)
				}
			}
			if e := bl.DC.Skip[acc>>(64-LUTBits)]; e != 0 {
				l := uint(e & 0xff) // the code and the difference's bits
				acc <<= l & 63
				n -= l
			} else {
				var ok bool
				if acc, n, ok = b.skipLong(bl.DC, false, acc, n, pos, nil); !ok {
					return m, false
				}
			}
			ct := &bl.Count.e
			for k := uint32(1); ; {
				acc, n, pos, k = skipAC(ct, src, acc, n, pos, safe, k)
				if k >= 64 {
					break
				}
				if n < 32 {
					acc, n, pos, safe = b.fill(acc, n, pos, safe)
					continue
				}
				var ok bool
				if acc, n, ok = b.skipLong(bl.AC, true, acc, n, pos, &k); !ok {
					return m, false
				}
			}
		}
		if b.stop && b.pad > n {
			b.Acc, b.N, b.Pos = acc, n, pos
			return m, true
		}
	}
	b.Acc, b.N, b.Pos = acc, n, pos
	return mcus, true
}

// skipAC skips the AC codes of a block from index k on, and the bits after
// them, with count table ct, and returns the index reached: 64 or more at
// the end of the block. It returns early, leaving the code for its caller,
// when fewer than 32 bits are buffered and the next eight bytes are not
// all below safe, or when the next code is longer than ct holds. Few
// values stay live here, so that the bits stay in registers.
func skipAC(ct *[1 << CountBits]uint32, src []byte, acc uint64, n uint, pos, safe int, k uint32) (uint64, uint, int, uint32) {
	for k < 64 {
		if n < 32 {
			if pos+8 > safe {
				break
			}
			acc |= binary.BigEndian.Uint64(src[pos:]) >> (n & 63)
			c := (64 - n) >> 3
			pos += int(c)
			n += c << 3
		}
		e := ct[acc>>(64-CountBits)]
		if e&31 == 0 || k > e>>12&127 {
			// Only the first code belongs to the block, or it is long.
			if e >>= 19; e&31 == 0 {
				break
			}
		}
		acc <<= e & 31
		n -= uint(e & 31)
		k += e >> 5 & 127
	}
	return acc, n, pos, k
}

// fill is Fill for SkipMCUs, which keeps the reader's state in locals,
// and returns the offset before which eight bytes may be loaded at once.
//
//go:noinline
func (b *Reader) fill(acc uint64, n uint, pos, safe int) (uint64, uint, int, int) {
	b.Acc, b.N, b.Pos = acc, n, pos
	b.Fill()
	if b.Pos > safe {
		safe = b.safeEnd()
	}
	return b.Acc, b.N, b.Pos, safe
}

// skipLong skips a code longer than the look-up tables hold, and the bits
// after it: a DC difference's, or, for an AC table, a coefficient's, moving
// *k past it (64 or more for an end of block). It reports false, leaving
// the reader at the code, when t defines none there.
//
//go:noinline
func (b *Reader) skipLong(t *Table, ac bool, acc uint64, n uint, pos int, k *uint32) (uint64, uint, bool) {
	b.Acc, b.N, b.Pos = acc, n, pos
	sym := b.DecodeSlow(t)
	if sym < 0 {
		return 0, 0, false
	}
	acc, n = b.Acc, b.N
	if !ac {
		return acc << (uint(sym) & 63), n - uint(sym), true
	}
	r, s := uint32(sym>>4), uint(sym&15)
	switch {
	case s != 0:
		*k += r + 1
	case r == 15:
		*k += AdvanceZRL
	default:
		*k = AdvanceEOB
	}
	return acc << s, n - s, true
}

// safeEnd returns the offset before which SkipMCUs may load eight bytes at
// once: the next 0xFF byte at or after Pos, or the end; -1 once stopped.
// It is kept for the next call, which is often the next MCU's.
func (b *Reader) safeEnd() int {
	if b.stop || b.Pos >= b.end {
		return -1
	}
	if b.next >= b.Pos {
		return b.next
	}
	b.next = b.end
	if i := bytes.IndexByte(b.src[b.Pos:b.end], 0xff); i >= 0 {
		b.next = b.Pos + i
	}
	return b.next
}
