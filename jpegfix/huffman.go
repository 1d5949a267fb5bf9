package jpegfix

import "encoding/binary"

// lutBits is the number of bits looked up at once when decoding a Huffman
// code; longer codes take the canonical path of section F.2.2.3.
const lutBits = 10

// huffTable is a canonical Huffman code as a decoder builds it (Annex C and
// section F.2.2.3), with a lookup table for codes of up to lutBits bits.
type huffTable struct {
	lut [1 << lutBits]uint16 // length<<8 | symbol for short codes; 0 otherwise
	// fast, for AC tables of sequential scans, maps the next lutBits bits,
	// when they hold a whole code and the coefficient bits after it, to
	// the coefficients it covers (run plus one; 64 for end of block)<<8 |
	// the bits it takes; 0 otherwise.
	fast    [1 << lutBits]uint16
	maxcode [17]int32 // largest code of each length, -1 if none
	valptr  [17]int32 // index in vals of code 0 of each length (may be negative)
	vals    [256]byte
}

// build makes the table from the 16 code counts and the symbols, and
// returns what makes it impossible, or "". It refuses what libjpeg refuses
// when a scan uses the table: more than 256 symbols, a code that does not
// fit its length or is all ones, and, for a DC table, a symbol above 15.
func (h *huffTable) build(counts, vals []byte, dc bool) string {
	total := 0
	for _, c := range counts {
		total += int(c)
	}
	if total == 0 || total > 256 || len(vals) < total {
		return "holds no code or more than 256"
	}
	if dc {
		for _, v := range vals[:total] {
			if v > 15 {
				return "holds a DC size above 15"
			}
		}
	}
	h.lut = [1 << lutBits]uint16{}
	h.fast = [1 << lutBits]uint16{}
	copy(h.vals[:], vals[:total])
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		h.valptr[l] = k - code
		h.maxcode[l] = -1
		if n > 0 {
			if code+n >= 1<<l {
				return "has more codes than its lengths allow"
			}
			if l <= lutBits {
				for i := range n {
					lo := (code + i) << (lutBits - l)
					sym := h.vals[k+i]
					e := uint16(l)<<8 | uint16(sym)
					var f uint16
					if r, size := sym>>4, int(sym&15); !dc && l+size <= lutBits {
						switch {
						case size != 0:
							f = uint16(r+1)<<8 | uint16(l+size)
						case r == 15:
							f = 16<<8 | uint16(l)
						case r == 0:
							f = 64<<8 | uint16(l)
						}
					}
					for j := range int32(1) << (lutBits - l) {
						h.lut[lo+j] = e
						h.fast[lo+j] = f
					}
				}
			}
			code += n
			k += n
			h.maxcode[l] = code - 1
		}
		code <<= 1
	}
	return ""
}

// The tables of ITU-T T.81 Annex K.3, which libjpeg-turbo installs for a
// sequential frame that defines none (Motion-JPEG frames often carry no
// DHT segment): DC and AC for luminance (table 0) and chrominance (table 1),
// each as 16 code counts followed by the symbols.
var stdTables = [2][2][]byte{
	{ // DC
		append([]byte{0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
		append([]byte{0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
	},
	{ // AC
		append([]byte{0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d}, stdACLuminance...),
		append([]byte{0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77}, stdACChrominance...),
	},
}

var stdACLuminance = []byte{
	0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
	0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
	0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
	0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
	0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
	0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
	0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
	0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
	0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
	0xf9, 0xfa,
}

var stdACChrominance = []byte{
	0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
	0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
	0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
	0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
	0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
	0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
	0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
	0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
	0xf9, 0xfa,
}

// bitReader reads the entropy-coded bits of one restart interval, most
// significant first, removing the zero byte stuffed after each 0xFF
// (section F.1.2.3). It stops at the first marker or at end, then feeds
// zero bits and counts them, so that a walk that needed them can be told
// from one that did not: libjpeg warns "premature end of data segment"
// exactly then.
type bitReader struct {
	src   []byte
	start int    // offset of the interval's first byte
	pos   int    // next byte to load
	end   int    // loading never reaches this offset
	acc   uint64 // buffered bits, most significant first
	n     uint   // buffered bits, padding included
	pad   uint   // zero bits fed after the data stopped
	stop  bool   // a marker or end was reached
}

func (b *bitReader) reset(src []byte, pos, end int) {
	*b = bitReader{src: src, start: pos, pos: pos, end: end}
}

// fill buffers at least 57 bits.
func (b *bitReader) fill() {
	for b.n <= 56 {
		if !b.stop && b.pos+8 <= b.end {
			x := binary.BigEndian.Uint64(b.src[b.pos:])
			if y := ^x; (y-0x0101010101010101)&^y&0x8080808080808080 == 0 {
				// No 0xFF among the next 8 bytes: take every whole byte
				// that fits. The bits of a partly taken byte land where
				// the next fill puts them again.
				b.acc |= x >> b.n
				k := (64 - b.n) >> 3
				b.pos += int(k)
				b.n += k << 3
				return
			}
		}
		b.fillByte()
	}
}

func (b *bitReader) fillByte() {
	if !b.stop && b.pos < b.end {
		c := b.src[b.pos]
		if c != 0xff {
			b.acc |= uint64(c) << (56 - b.n)
			b.n += 8
			b.pos++
			return
		}
		if b.pos+1 < b.end && b.src[b.pos+1] == 0 {
			b.acc |= 0xff << (56 - b.n)
			b.n += 8
			b.pos += 2
			return
		}
	}
	b.stop = true
	b.n += 8
	b.pad += 8
}

// overrun reports whether the walk used bits past the data.
func (b *bitReader) overrun() bool { return b.pad > b.n }

// used returns the offset just after the last byte holding a consumed bit.
// Only whole bytes left unconsumed count as unused, as libjpeg counts them.
func (b *bitReader) used() int {
	if b.overrun() {
		return b.pos
	}
	p := b.pos
	for w := (b.n - b.pad) / 8; w > 0 && p > b.start; w-- {
		if p-2 >= b.start && b.src[p-1] == 0 && b.src[p-2] == 0xff {
			p -= 2 // a stuffed 0xFF
		} else {
			p--
		}
	}
	return p
}

// skip drops k bits, 0 ≤ k ≤ 32, filling first if needed. Bits past the
// data are zeros; overrun tells.
func (b *bitReader) skip(k uint) {
	if b.n < k {
		b.fill()
	}
	b.acc <<= k
	b.n -= k
}

// get reads k bits, 0 < k ≤ 16.
func (b *bitReader) get(k uint) int32 {
	if b.n < k {
		b.fill()
	}
	v := int32(b.acc >> (64 - k))
	b.acc <<= k
	b.n -= k
	return v
}

// decode reads one Huffman-coded symbol, or returns -1 for a code the
// table does not define. It needs no more than 16 buffered bits.
func (b *bitReader) decode(h *huffTable) int {
	if b.n < 16 {
		b.fill()
	}
	if e := h.lut[b.acc>>(64-lutBits)]; e != 0 {
		l := uint(e >> 8)
		b.acc <<= l
		b.n -= l
		return int(e & 0xff)
	}
	return b.decodeSlow(h)
}

// decodeSlow decodes a code longer than lutBits bits, or returns -1.
func (b *bitReader) decodeSlow(h *huffTable) int {
	for l := uint(lutBits + 1); l <= 16; l++ {
		code := int32(b.acc >> (64 - l))
		if code <= h.maxcode[l] {
			b.acc <<= l
			b.n -= l
			return int(h.vals[h.valptr[l]+code])
		}
	}
	return -1
}

// extend turns v, the s low bits of a coefficient, into its signed value
// (section F.2.2.1).
func extend(v int32, s uint) int32 {
	if v < 1<<(s-1) {
		return v - 1<<s + 1
	}
	return v
}
