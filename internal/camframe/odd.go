package camframe

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
)

// Layout is the colour layout of a frame Baseline makes.
type Layout int

// The layouts: what cameras send, and what they may send every time.
const (
	LayoutYCbCr420   Layout = iota // three components, JFIF, chroma halved both ways
	LayoutGrey                     // one component
	LayoutRGB                      // R, G, B without a colour transform, Adobe segment naming transform 0 (cjpeg -rgb)
	LayoutRGBNoAdobe               // the same, known by its component names alone
	LayoutCMYK                     // four components, Adobe CMYK (inverted ink)
	LayoutYCCK                     // four components, Adobe YCCK
)

// Baseline builds a baseline frame of w×h pixels in layout l whose every
// block holds a DC term and ac AC terms drawn from seed: noise, at about
// 12 + 8×ac bits a block, so that its size and its decoding cost are those
// of a camera frame of that many pixels. The frames of the largest and
// oddest kinds (a 7000×7000 RGB frame, 50 megapixels) are made with it at
// test time rather than committed.
func Baseline(w, h int, l Layout, ac int, seed uint64) []byte {
	ac = min(max(ac, 0), 62)
	nf, hs, vs := 3, []int{1, 1, 1, 1}, []int{1, 1, 1, 1}
	ids := []byte{1, 2, 3, 4}
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	switch l {
	case LayoutYCbCr420:
		hs[0], vs[0] = 2, 2
		b.Write(Segment(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")))
	case LayoutGrey:
		nf = 1
	case LayoutRGB:
		ids = []byte("RGB")
		b.Write(Segment(0xee, []byte("Adobe\x00\x64\x00\x00\x00\x00\x00")))
	case LayoutRGBNoAdobe:
		ids = []byte("RGB")
	case LayoutCMYK:
		nf = 4
		b.Write(Segment(0xee, []byte("Adobe\x00\x64\x00\x00\x00\x00\x00")))
	case LayoutYCCK:
		nf = 4
		b.Write(Segment(0xee, []byte("Adobe\x00\x64\x00\x00\x00\x00\x02")))
	}
	b.Write(Segment(0xdb, append([]byte{0}, bytes.Repeat([]byte{8}, 64)...)))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(nf)}
	sos := []byte{byte(nf)}
	for i := range nf {
		sof = append(sof, ids[i], byte(hs[i]<<4|vs[i]), 0)
		sos = append(sos, ids[i], 0x00)
	}
	b.Write(Segment(0xc0, sof))
	// DC: sizes 0 to 11, four bits each. AC: end of block, then run 0
	// with sizes 1 to 6, three bits each.
	b.Write(Segment(0xc4, append([]byte{0x00, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)))
	b.Write(Segment(0xc4, append([]byte{0x10, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06)))
	b.Write(Segment(0xda, append(sos, 0, 63, 0)))
	hmax, vmax := hs[0], vs[0]
	mx, my := (w+8*hmax-1)/(8*hmax), (h+8*vmax-1)/(8*vmax)
	rng := rand.New(rand.NewPCG(seed, 35))
	bw := bitWriter{out: &b}
	pred := make([]int, nf)
	for range mx * my {
		for c := range nf {
			for range hs[c] * vs[c] {
				dc := rng.IntN(120) - 60
				diff := dc - pred[c]
				pred[c] = dc
				s := magnitude(diff)
				bw.put(uint32(s), 4)
				bw.put(coefBits(diff, s), s)
				for range ac {
					v := rng.IntN(63) - 31
					if v == 0 {
						v = 1
					}
					s := magnitude(v)
					bw.put(uint32(s), 3) // the code of run 0, size s
					bw.put(coefBits(v, s), s)
				}
				if ac < 63 {
					bw.put(0, 3) // end of block
				}
			}
		}
	}
	bw.flush()
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// magnitude is the number of bits of |v| (T.81 F.1.2.1).
func magnitude(v int) int {
	if v < 0 {
		v = -v
	}
	return bits.Len(uint(v))
}

// coefBits is v's s bits as a coefficient is written: negative values one
// less, in s bits.
func coefBits(v, s int) uint32 {
	if v < 0 {
		v += 1<<s - 1
	}
	return uint32(v)
}

// bitWriter writes entropy-coded bits, a zero stuffed after each 0xFF.
type bitWriter struct {
	out  *bytes.Buffer
	acc  uint64
	nacc int
}

func (w *bitWriter) put(v uint32, n int) {
	w.acc = w.acc<<n | uint64(v)&(1<<n-1)
	w.nacc += n
	for w.nacc >= 8 {
		c := byte(w.acc >> (w.nacc - 8))
		w.out.WriteByte(c)
		if c == 0xff {
			w.out.WriteByte(0)
		}
		w.nacc -= 8
	}
}

// flush pads the last byte with ones.
func (w *bitWriter) flush() {
	if w.nacc > 0 {
		w.put(1<<(8-w.nacc)-1, 8-w.nacc)
	}
}
