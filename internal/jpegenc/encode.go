package jpegenc

import "math/bits"

// Append appends the picture's JPEG at quality q (clamped to 1..100) to
// dst and returns the extended slice: the bytes image/jpeg's Encode writes
// for the same picture and quality.
func (p *Picture) Append(dst []byte, q int) []byte {
	qt := quantTables(q)
	dst = p.appendHeaders(dst, &qt)
	var div [2]divisors
	for i := range div {
		div[i] = newDivisors(&qt[i])
	}
	bw := bitWriter{out: dst}
	if p.gray {
		var prev int32
		for c := p.coef; len(c) >= 64; c = c[64:] {
			prev = bw.block(c[:64], &div[0], &stdCodes[0], &stdCodes[1], prev)
		}
	} else {
		var py, pcb, pcr int32
		for c := p.coef; len(c) >= 6*64; c = c[6*64:] {
			for i := range 4 {
				py = bw.block(c[64*i:64*i+64], &div[0], &stdCodes[0], &stdCodes[1], py)
			}
			pcb = bw.block(c[256:320], &div[1], &stdCodes[2], &stdCodes[3], pcb)
			pcr = bw.block(c[320:384], &div[1], &stdCodes[2], &stdCodes[3], pcr)
		}
	}
	dst = bw.finish()
	return append(dst, 0xff, 0xd9)
}

// appendHeaders appends SOI, DQT (both tables, always), SOF0, DHT and SOS
// as image/jpeg writes them.
func (p *Picture) appendHeaders(dst []byte, qt *[2][64]uint8) []byte {
	dst = append(dst, 0xff, 0xd8)
	dst = append(dst, 0xff, 0xdb, 0, 2+2*65)
	for i := range qt {
		dst = append(dst, uint8(i))
		dst = append(dst, qt[i][:]...)
	}
	n := 3
	if p.gray {
		n = 1
	}
	dst = append(dst, 0xff, 0xc0, 0, uint8(8+3*n), 8,
		uint8(p.height>>8), uint8(p.height), uint8(p.width>>8), uint8(p.width), uint8(n))
	if p.gray {
		dst = append(dst, 1, 0x11, 0)
	} else {
		dst = append(dst, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1)
	}
	specs := stdSpecs[:]
	if p.gray {
		specs = specs[:2]
	}
	l := 2
	for _, s := range specs {
		l += 1 + 16 + len(s.syms)
	}
	dst = append(dst, 0xff, 0xc4, uint8(l>>8), uint8(l))
	for i, s := range specs {
		dst = append(dst, [4]uint8{0x00, 0x10, 0x01, 0x11}[i])
		dst = append(dst, s.counts[:]...)
		dst = append(dst, s.syms...)
	}
	if p.gray {
		return append(dst, 0xff, 0xda, 0, 8, 1, 1, 0x00, 0, 63, 0)
	}
	return append(dst, 0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0)
}

// divisors divides by eight times each quantiser, rounding to nearest with
// halves away from zero, by a multiply and a shift: for n below 1<<14 and
// a divisor d ≤ 2040, (n·⌈2³²/d⌉)>>32 is ⌊n/d⌋ exactly, since the
// multiplier's excess over 2³²/d, times n, stays under 2³²/d.
// TestDivisors checks every numerator a block can hold.
type divisors struct {
	half [64]uint32
	mul  [64]uint64
}

func newDivisors(q *[64]uint8) (d divisors) {
	for k, v := range q {
		den := 8 * uint64(v)
		d.half[k] = uint32(den / 2)
		d.mul[k] = (1<<32 + den - 1) / den
	}
	return d
}

// quantize returns v/(8·q[k]) rounded as image/jpeg's div does.
func (d *divisors) quantize(v int32, k int) int32 {
	s := v >> 31 // 0 or −1
	a := uint32((v ^ s) - s)
	r := int32((uint64(a+d.half[k]) * d.mul[k]) >> 32)
	return (r ^ s) - s
}

// bitWriter packs Huffman-coded bits, most significant first, stuffing a
// zero byte after every 0xFF.
type bitWriter struct {
	out []byte
	acc uint64 // the low n bits are pending
	n   uint
}

// put appends the low n bits of v (n ≤ 32).
func (w *bitWriter) put(v uint64, n uint) {
	w.acc = w.acc<<n | v
	w.n += n
	if w.n >= 32 {
		w.n -= 32
		word := uint32(w.acc >> w.n)
		// A byte of word is 0xFF exactly when that byte of ^word is zero.
		if x := ^word; (x-0x01010101)&^x&0x80808080 == 0 {
			w.out = append(w.out, byte(word>>24), byte(word>>16), byte(word>>8), byte(word))
			return
		}
		for sh := 24; sh >= 0; sh -= 8 {
			b := byte(word >> sh)
			w.out = append(w.out, b)
			if b == 0xff {
				w.out = append(w.out, 0)
			}
		}
	}
}

// finish pads the last byte with one bits and flushes what is pending.
func (w *bitWriter) finish() []byte {
	if pad := (8 - w.n%8) % 8; pad > 0 {
		w.acc = w.acc<<pad | (1<<pad - 1)
		w.n += pad
	}
	for w.n >= 8 {
		w.n -= 8
		b := byte(w.acc >> w.n)
		w.out = append(w.out, b)
		if b == 0xff {
			w.out = append(w.out, 0)
		}
	}
	return w.out
}

// sym appends value's Huffman code for run (zeros before it) together with
// its magnitude bits.
func (w *bitWriter) sym(t *[256]code, run, v int32) {
	a, extra := v, v
	if v < 0 {
		a, extra = -v, v-1
	}
	size := uint(bits.Len32(uint32(a)))
	c := t[uint32(run)<<4|uint32(size)]
	cl := uint(c >> 24)
	w.put(uint64(c&0xffffff)<<size|uint64(uint32(extra)&(1<<size-1)), cl+size)
}

// block codes one block of zig-zag coefficients, its DC as a difference
// from prev, and returns its quantised DC.
func (w *bitWriter) block(c []int16, d *divisors, dc, ac *[256]code, prev int32) int32 {
	c = c[:64]
	var q [64]int32
	var nz uint64
	for k := 1; k < 64; k++ {
		v := d.quantize(int32(c[k]), k)
		q[k] = v
		if v != 0 {
			nz |= 1 << k
		}
	}
	first := d.quantize(int32(c[0]), 0)
	w.sym(dc, 0, first-prev)
	last := 0
	for nz != 0 {
		k := bits.TrailingZeros64(nz)
		nz &= nz - 1
		run := int32(k - last - 1)
		for run > 15 {
			w.put(uint64(ac[0xf0]&0xffffff), uint(ac[0xf0]>>24))
			run -= 16
		}
		w.sym(ac, run, q[k])
		last = k
	}
	if last != 63 {
		w.put(uint64(ac[0x00]&0xffffff), uint(ac[0x00]>>24))
	}
	return first
}
