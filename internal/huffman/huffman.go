// Package huffman reads the Huffman-coded data of a JPEG scan: the
// decoding table a DHT segment defines (ITU-T T.81 Annex C and section
// F.2.2.3) and the bit reader over entropy-coded bytes (section F.1.2.3).
// jpegfix walks scans with them, to prove them whole, and jpegscale
// decodes them; neither keeps a copy of its own. NextMarker finds where a
// scan's data may end.
//
// Decoding is table driven: the next LUTBits bits index a table that gives
// a short code's length and symbol at once, and, for AC tables, a code
// together with the coefficient bits after it. Longer codes take the
// canonical path of section F.2.2.3. A walk that needs no value skips
// several AC codes a look-up with a CountTable (SkipMCUs).
package huffman

import "encoding/binary"

// LUTBits is the number of bits looked up at once.
const LUTBits = 10

// Fast entries of AC tables: what a code and its coefficient bits come to.
const (
	// AdvanceZRL is the advance of a run of sixteen zeros (symbol 0xF0).
	AdvanceZRL = 16
	// AdvanceEOB is the advance of an end of block (any other symbol with
	// no coefficient bits): past the last coefficient.
	AdvanceEOB = 64
)

// Table is a canonical Huffman code as a decoder builds it.
type Table struct {
	// LUT maps the next LUTBits bits to length<<8 | symbol for a code of
	// at most LUTBits bits, or 0 for a longer one.
	LUT [1 << LUTBits]uint16
	// Fast, for AC tables, maps the next LUTBits bits, when they hold a
	// whole code and the coefficient bits after it, to value<<16 |
	// advance<<8 | bits taken, and to 0 otherwise. The advance is the run
	// of zeros plus one for a coefficient, AdvanceZRL or AdvanceEOB; the
	// value is the coefficient's, 0 for ZRL and EOB.
	Fast [1 << LUTBits]int32
	// Skip maps the next LUTBits bits, when they start with a whole code,
	// to advance<<8 | the bits the code and its coefficient bits take
	// (for a DC table, the advance is 0), and to 0 otherwise: what a walk
	// that proves data whole but needs no coefficient's value uses.
	Skip    [1 << LUTBits]uint16
	maxcode [17]int32 // largest code of each length, -1 if none
	valptr  [17]int32 // index in vals of code 0 of each length (may be negative)
	vals    [256]byte
}

// Build makes the table from the 16 code counts (BITS) and the symbols
// (HUFFVAL), which the caller has checked hold at least as many symbols as
// the counts say, and at most 256. It reports false when the codes do not
// fit their lengths, and whether one code is all ones, which T.81 forbids
// (section C) and libjpeg refuses, but lenient decoders read. ac asks for
// the Fast entries and the AC form of Skip.
func (t *Table) Build(counts, vals []byte, ac bool) (ok, allOnes bool) {
	*t = Table{}
	copy(t.vals[:], vals)
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		t.valptr[l] = k - code
		t.maxcode[l] = -1
		if n == 0 {
			code <<= 1
			continue
		}
		if code+n > 1<<l {
			return false, allOnes
		}
		if code+n == 1<<l {
			allOnes = true
		}
		if l <= LUTBits {
			for i := range n {
				t.fill(code+i, l, t.vals[k+i], ac)
			}
		}
		code += n
		k += n
		t.maxcode[l] = code - 1
		code <<= 1
	}
	return true, allOnes
}

// fill sets the look-up entries of code c of length l, for symbol sym.
func (t *Table) fill(c int32, l int, sym byte, ac bool) {
	shift := LUTBits - l
	base := c << shift
	run, size := int32(sym>>4), sym&15
	skip := uint16(0)
	switch {
	case !ac && sym <= 16:
		skip = uint16(l) + uint16(sym)
	case ac && size == 0 && run == 15:
		skip = AdvanceZRL<<8 | uint16(l)
	case ac && size == 0:
		skip = AdvanceEOB<<8 | uint16(l)
	case ac:
		skip = uint16(run+1)<<8 | uint16(l+int(size))
	}
	for j := range int32(1) << shift {
		idx := base + j
		t.LUT[idx] = uint16(l)<<8 | uint16(sym)
		t.Skip[idx] = skip
		if !ac {
			continue
		}
		switch {
		case size == 0 && run == 15:
			t.Fast[idx] = AdvanceZRL<<8 | int32(l)
		case size == 0:
			t.Fast[idx] = AdvanceEOB<<8 | int32(l)
		case l+int(size) <= LUTBits:
			// The coefficient bits follow the code within the window.
			mag := (idx >> (LUTBits - l - int(size))) & (1<<size - 1)
			t.Fast[idx] = Extend(mag, uint(size))<<16 | (run+1)<<8 | int32(l+int(size))
		}
	}
}

// Extend turns v, the s low bits of a coefficient, into its signed value
// (section F.2.2.1, Figure F.12).
func Extend(v int32, s uint) int32 {
	if v < 1<<(s-1) {
		return v - 1<<s + 1
	}
	return v
}

// Reader reads entropy-coded bits most significant first, removing the
// zero byte stuffed after each 0xFF (section F.1.2.3), and the fill bytes
// libjpeg lets stand before that stuffed byte (FF FF 00). It stops at the
// first marker or at its end, then feeds zero bits and counts them, so
// that a scan that needed them can be told from one that did not: libjpeg
// warns "premature end of data segment" exactly then.
//
// The hot loops of its users keep Acc and N in locals and write them back
// before calling a method.
type Reader struct {
	Acc uint64 // buffered bits, most significant first
	N   uint   // buffered bits, padding included
	Pos int    // next byte to load

	src   []byte
	start int  // offset of the first byte
	end   int  // loading never reaches this offset
	pad   uint // zero bits fed after the data stopped
	stop  bool // a marker or the end was reached
	next  int  // SkipMCUs: the first 0xFF byte at or after some offset before Pos, or end; -1 when unknown
}

// Reset starts reading src at pos, never loading from end on.
func (b *Reader) Reset(src []byte, pos, end int) {
	*b = Reader{src: src, start: pos, Pos: pos, end: end, next: -1}
}

// Fill buffers at least 57 bits.
func (b *Reader) Fill() {
	for b.N <= 56 {
		if !b.stop && b.Pos+8 <= b.end {
			x := binary.BigEndian.Uint64(b.src[b.Pos:])
			if y := ^x; (y-0x0101010101010101)&^y&0x8080808080808080 == 0 {
				// No 0xFF among the next 8 bytes: take every whole byte
				// that fits. The bits of a partly taken byte land where
				// the next fill puts them again.
				b.Acc |= x >> b.N
				k := (64 - b.N) >> 3
				b.Pos += int(k)
				b.N += k << 3
				return
			}
		}
		b.fillByte()
	}
}

func (b *Reader) fillByte() {
	if !b.stop && b.Pos < b.end {
		c := b.src[b.Pos]
		if c != 0xff {
			b.Acc |= uint64(c) << (56 - b.N)
			b.N += 8
			b.Pos++
			return
		}
		if b.Pos+1 < b.end && b.src[b.Pos+1] == 0 {
			b.Acc |= 0xff << (56 - b.N)
			b.N += 8
			b.Pos += 2
			return
		}
		// Fill bytes before a stuffed zero (FF FF 00): libjpeg reads them
		// as one stuffed 0xFF, without a warning.
		q := b.Pos + 1
		for q < b.end && b.src[q] == 0xff {
			q++
		}
		if q < b.end && b.src[q] == 0 {
			b.Acc |= 0xff << (56 - b.N)
			b.N += 8
			b.Pos = q + 1
			return
		}
	}
	b.stop = true
	b.N += 8
	b.pad += 8
}

// Stopped reports whether a marker or the end was reached.
func (b *Reader) Stopped() bool { return b.stop }

// Overrun reports whether bits past the data were used.
func (b *Reader) Overrun() bool { return b.pad > b.N }

// Used returns the offset just after the last byte holding a consumed bit.
// Only whole bytes left unconsumed count as unused, as libjpeg counts them.
func (b *Reader) Used() int {
	if b.Overrun() {
		return b.Pos
	}
	p := b.Pos
	for w := (b.N - b.pad) / 8; w > 0 && p > b.start; w-- {
		if p-2 >= b.start && b.src[p-1] == 0 && b.src[p-2] == 0xff {
			p -= 2 // a stuffed 0xFF
			for p > b.start && b.src[p-1] == 0xff {
				p-- // fill bytes before it: a data 0xFF is always stuffed
			}
		} else {
			p--
		}
	}
	return p
}

// Skip drops k bits, 0 ≤ k ≤ 32, filling first if needed.
func (b *Reader) Skip(k uint) {
	if b.N < k {
		b.Fill()
	}
	b.Acc <<= k
	b.N -= k
}

// Get reads k bits, 0 < k ≤ 16, filling first if needed.
func (b *Reader) Get(k uint) int32 {
	if b.N < k {
		b.Fill()
	}
	return b.Bits(k)
}

// Bits reads k bits, 0 < k < 32, of the at least k buffered.
func (b *Reader) Bits(k uint) int32 {
	v := int32(b.Acc >> (64 - k))
	b.Acc <<= k
	b.N -= k
	return v
}

// Receive reads s bits, 0 < s < 16, of the at least s buffered, as a
// signed coefficient (section F.2.2.1).
func (b *Reader) Receive(s uint) int32 { return Extend(b.Bits(s), s) }

// Decode reads one symbol, or returns -1 for a code t does not define.
// It fills first when fewer than 16 bits are buffered.
func (b *Reader) Decode(t *Table) int {
	if b.N < 16 {
		b.Fill()
	}
	if e := t.LUT[b.Acc>>(64-LUTBits)]; e != 0 {
		l := uint(e >> 8)
		b.Acc <<= l
		b.N -= l
		return int(e & 0xff)
	}
	return b.DecodeSlow(t)
}

// DecodeSlow decodes a code longer than LUTBits bits of the at least 16
// buffered, or returns -1.
func (b *Reader) DecodeSlow(t *Table) int {
	for l := uint(LUTBits + 1); l <= 16; l++ {
		code := int32(b.Acc >> (64 - l))
		if code <= t.maxcode[l] {
			i := t.valptr[l] + code
			if i < 0 || i > 255 {
				return -1
			}
			b.Acc <<= l
			b.N -= l
			return int(t.vals[i])
		}
	}
	return -1
}
