package jpegscale

import "encoding/binary"

// lutBits is the number of bits looked up at once when decoding a Huffman
// code; longer codes take the canonical path of T.81 F.2.2.3.
const lutBits = 10

// huffTable is a decoding table built from a DHT segment (T.81 Annex C).
type huffTable struct {
	// lut maps the next lutBits bits to length<<8 | symbol for codes of at
	// most lutBits bits, or 0 for longer codes.
	lut [1 << lutBits]uint16
	// fast (AC tables only) maps the next lutBits bits, when they hold a
	// whole code and its magnitude bits, to value<<16 | run<<8 | bits used;
	// 0 otherwise.
	fast    [1 << lutBits]int32
	maxcode [17]int32 // largest code of each length, -1 when none
	valptr  [17]int32 // index in vals of code 0 of each length (may be negative)
	vals    [256]uint8
	defined bool
}

// build makes the decoding tables from the code counts per length (BITS) and
// the symbols (HUFFVAL), following the procedure of T.81 Annex C and F.2.2.3.
func (t *huffTable) build(counts *[16]uint8, vals []byte, ac bool) error {
	*t = huffTable{}
	copy(t.vals[:], vals)
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		t.valptr[l] = k - code
		t.maxcode[l] = -1
		if n > 0 {
			if code+n > 1<<l {
				return FormatError("bad Huffman table (too many codes)")
			}
			for i := int32(0); i < n; i++ {
				if l <= lutBits {
					sym := t.vals[k]
					shift := lutBits - l
					base := code << shift
					for j := int32(0); j < 1<<shift; j++ {
						t.lut[base+j] = uint16(l)<<8 | uint16(sym)
						if !ac {
							continue
						}
						run, size := int32(sym>>4), int(sym&15)
						if size == 0 || l+size > lutBits {
							continue
						}
						// The magnitude bits follow the code within the
						// lookup window.
						idx := base + j
						mag := (idx >> (lutBits - l - size)) & (1<<size - 1)
						t.fast[idx] = extend(mag, size)<<16 | run<<8 | int32(l+size)
					}
				}
				code++
				k++
			}
			t.maxcode[l] = code - 1
		}
		code <<= 1
	}
	t.defined = true
	return nil
}

// extend turns the s magnitude bits v into a signed value (T.81 F.2.2.1,
// Figure F.12).
func extend(v int32, s int) int32 {
	if v < 1<<(s-1) {
		return v - (1 << s) + 1
	}
	return v
}

// bitReader reads entropy-coded data most significant bit first, removing
// stuffed zero bytes (B.1.1.5) and stopping at the first marker, after which
// it feeds zero bits and counts them so that a scan that needed them can be
// reported as truncated.
type bitReader struct {
	data   []byte
	pos    int    // next byte to load
	acc    uint64 // bits, left aligned; bits below the top n are zero or the next bits of the stream
	n      uint   // valid bits in acc
	pad    int    // zero bytes fed after a marker or the end of data
	marker bool   // a marker (or the end of data) has been reached
}

// fill tops up the accumulator to at least 57 bits.
func (br *bitReader) fill() {
	for br.n <= 56 {
		if br.pos+8 <= len(br.data) && !br.marker {
			x := binary.BigEndian.Uint64(br.data[br.pos:])
			if !hasFF(x) {
				// Fast path: take every whole byte that fits. The bits
				// of a partly loaded byte are correct and are loaded
				// again (ORed, unchanged) by the next fill.
				br.acc |= x >> br.n
				k := (64 - br.n) >> 3
				br.pos += int(k)
				br.n += k << 3
				return
			}
		}
		br.fillByte()
	}
}

// fillByte loads one byte, unstuffing 0xFF 0x00, or a zero byte at a marker.
func (br *bitReader) fillByte() {
	if br.marker || br.pos >= len(br.data) {
		br.marker = true
		br.pad++
		br.n += 8
		return
	}
	b := br.data[br.pos]
	if b == 0xFF {
		if br.pos+1 < len(br.data) && br.data[br.pos+1] == 0x00 {
			br.pos += 2
		} else {
			br.marker = true
			br.pad++
			br.n += 8
			return
		}
	} else {
		br.pos++
	}
	br.acc |= uint64(b) << (56 - br.n)
	br.n += 8
}

// hasFF reports whether any byte of x is 0xFF.
func hasFF(x uint64) bool {
	y := ^x
	return (y-0x0101010101010101)&^y&0x8080808080808080 != 0
}

// overrun reports whether the scan used bits past its data.
func (br *bitReader) overrun() bool {
	return br.pad*8 > int(br.n)
}

// reset starts reading at pos with an empty accumulator.
func (br *bitReader) reset(data []byte, pos int) {
	*br = bitReader{data: data, pos: pos}
}

// decodeSym decodes one Huffman-coded symbol. The accumulator must hold at
// least 16 bits.
func (br *bitReader) decodeSym(t *huffTable) (uint8, error) {
	e := t.lut[br.acc>>(64-lutBits)]
	if e != 0 {
		l := uint(e >> 8)
		br.acc <<= l
		br.n -= l
		return uint8(e), nil
	}
	return br.decodeSlow(t)
}

// decodeSlow decodes a code longer than lutBits bits.
func (br *bitReader) decodeSlow(t *huffTable) (uint8, error) {
	for l := uint(lutBits + 1); l <= 16; l++ {
		c := int32(br.acc >> (64 - l))
		if c <= t.maxcode[l] {
			i := t.valptr[l] + c
			if i < 0 || i > 255 {
				break
			}
			br.acc <<= l
			br.n -= l
			return t.vals[i], nil
		}
	}
	return 0, FormatError("bad Huffman code")
}

// receive reads s bits and extends them to a signed value (F.2.2.1). The
// accumulator must hold at least s bits; 0 < s < 16.
func (br *bitReader) receive(s uint) int32 {
	v := int32(br.acc >> (64 - s))
	br.acc <<= s
	br.n -= s
	if v < 1<<(s-1) {
		v += -1<<s + 1
	}
	return v
}

// bits reads s raw bits, 0 < s < 32.
func (br *bitReader) bits(s uint) int32 {
	v := int32(br.acc >> (64 - s))
	br.acc <<= s
	br.n -= s
	return v
}
