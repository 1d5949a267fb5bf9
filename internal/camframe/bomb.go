package camframe

import (
	"bytes"
	"strings"
)

// ProgressiveBomb builds a progressive frame of w×h pixels and nf
// components (each sampled 1×1), every block flat: a DC scan of one bit a
// block, then acScans first AC scans of the first component, each coding
// all its blocks in a few hundred bytes with end-of-band runs of 32,767
// blocks. Each such scan costs a decoder a pass over every block, so a few
// hundred kilobytes can cost minutes: the frame hostile bytes send. With
// refine, the AC scans leave the lowest bit and a last scan refines it.
func ProgressiveBomb(w, h, nf, acScans int, refine bool) []byte {
	blocks := (w + 7) / 8 * ((h + 7) / 8)
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	if nf == 4 {
		b.Write(Segment(0xee, []byte("Adobe\x00\x64\x00\x00\x00\x00\x00"))) // CMYK
	}
	b.Write(Segment(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(nf)}
	dc := []byte{byte(nf)}
	for i := range nf {
		sof = append(sof, byte(i+1), 0x11, 0)
		dc = append(dc, byte(i+1), 0)
	}
	b.Write(Segment(0xc2, sof))
	b.Write(Segment(0xc4, append([]byte{0x00, 1}, append(make([]byte, 15), 0x00)...))) // DC: one code, size 0
	b.Write(Segment(0xc4, append([]byte{0x10, 1}, append(make([]byte, 15), 0xe0)...))) // AC: one code, a run of 2^14 and more
	b.Write(Segment(0xda, append(dc, 0, 0, 0)))
	b.Write(packBits(strings.Repeat("0", nf*blocks)))
	runs := packBits(strings.Repeat("011111111111111", (blocks+32766)/32767))
	al := byte(0)
	if refine {
		al = 1
	}
	for range acScans {
		b.Write(Segment(0xda, []byte{1, 1, 0x00, 1, 63, al}))
		b.Write(runs)
	}
	if refine {
		b.Write(Segment(0xda, []byte{1, 1, 0x00, 1, 63, 0x10}))
		b.Write(runs)
	}
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// packBits packs a string of '0' and '1' into entropy-coded bytes, padded
// with ones and with a zero stuffed after each 0xFF.
func packBits(s string) []byte {
	for len(s)%8 != 0 {
		s += "1"
	}
	var out []byte
	for i := 0; i < len(s); i += 8 {
		var c byte
		for _, bit := range s[i : i+8] {
			c = c<<1 | byte(bit-'0')
		}
		out = append(out, c)
		if c == 0xff {
			out = append(out, 0)
		}
	}
	return out
}
