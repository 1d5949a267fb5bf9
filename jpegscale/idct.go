package jpegscale

// Inverse DCT (T.81 A.3.3) and its reductions:
//
//	s(y, x) = 1/4 · Σu Σv C(u) C(v) S(v, u) cos((2x+1)uπ/16) cos((2y+1)vπ/16)
//
// with C(0) = 1/√2 and C(k) = 1 otherwise. The N-point reductions (N = 4, 2)
// keep the N x N lowest frequencies and replace 16 by 2N in the cosines: the
// block band-limited to N/8 of its resolution, sampled at the centres of its
// (8/N)² cells; N = 1 is the DC term, the exact block mean. (libjpeg-turbo
// instead computes exact cell means, a box filter; truncation keeps more of
// the band that a following resize to the final size preserves, and the fit
// path ends with such a resize.) Each pass is split into even and odd
// halves. Arithmetic is in fixed point with 13 fractional bits per constant,
// on 64 bits, so nothing overflows for coefficients of valid 8-bit
// data (garbage merely wraps). The arithmetic is int64 rather than int so
// that 32-bit builds (linux/armv7) compute the same samples.

const (
	fixR2 = 5793 // 8192 · cos(4π/16) = 8192/√2
	fixC1 = 8035 // 8192 · cos(π/16)
	fixC2 = 7568 // 8192 · cos(2π/16)
	fixC3 = 6811 // 8192 · cos(3π/16)
	fixC5 = 4551 // 8192 · cos(5π/16)
	fixC6 = 3135 // 8192 · cos(6π/16)
	fixC7 = 1598 // 8192 · cos(7π/16)

	// Two passes scale by 2^26, and the 1/4 factor adds 2 bits. The level
	// shift of 128 and the rounding half are folded into one bias.
	idctShift = 28
	idctBias  = 128<<idctShift + 1<<(idctShift-1)
)

// clamp8 limits v to a sample.
func clamp8(v int64) byte {
	if uint64(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return byte(v)
}

// fillDC writes the level-shifted mean dc/8 to an n x n area.
func fillDC(dc int32, dst []byte, stride, n int) {
	v := clamp8((int64(dc) + 4 + 1024) >> 3)
	for r := 0; r < n; r++ {
		row := dst[r*stride : r*stride+n]
		for i := range row {
			row[i] = v
		}
	}
}

// idct8 writes the full 8x8 inverse DCT of blk (natural order, dequantized).
func idct8(blk *[65]int32, dst []byte, stride int) {
	var tmp [64]int64
	// Columns: frequencies v down each column to rows y.
	for x := 0; x < 8; x++ {
		s0, s1, s2, s3 := int64(blk[x]), int64(blk[8+x]), int64(blk[16+x]), int64(blk[24+x])
		s4, s5, s6, s7 := int64(blk[32+x]), int64(blk[40+x]), int64(blk[48+x]), int64(blk[56+x])
		if s1|s2|s3|s4|s5|s6|s7 == 0 {
			v := s0 * fixR2
			for y := 0; y < 8; y++ {
				tmp[y*8+x] = v
			}
			continue
		}
		a := (s0 + s4) * fixR2
		b := (s0 - s4) * fixR2
		p := s2*fixC2 + s6*fixC6
		q := s2*fixC6 - s6*fixC2
		e0, e1, e2, e3 := a+p, b+q, b-q, a-p
		o0 := s1*fixC1 + s3*fixC3 + s5*fixC5 + s7*fixC7
		o1 := s1*fixC3 - s3*fixC7 - s5*fixC1 - s7*fixC5
		o2 := s1*fixC5 - s3*fixC1 + s5*fixC7 + s7*fixC3
		o3 := s1*fixC7 - s3*fixC5 + s5*fixC3 - s7*fixC1
		tmp[x] = e0 + o0
		tmp[8+x] = e1 + o1
		tmp[16+x] = e2 + o2
		tmp[24+x] = e3 + o3
		tmp[32+x] = e3 - o3
		tmp[40+x] = e2 - o2
		tmp[48+x] = e1 - o1
		tmp[56+x] = e0 - o0
	}
	// Rows: frequencies u along each row to columns x.
	for y := 0; y < 8; y++ {
		t := tmp[y*8 : y*8+8 : y*8+8]
		row := dst[y*stride : y*stride+8 : y*stride+8]
		s0, s1, s2, s3, s4, s5, s6, s7 := t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
		if s1|s2|s3|s4|s5|s6|s7 == 0 {
			v := clamp8((s0*fixR2 + idctBias) >> idctShift)
			row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = v, v, v, v, v, v, v, v
			continue
		}
		a := (s0+s4)*fixR2 + idctBias
		b := (s0-s4)*fixR2 + idctBias
		p := s2*fixC2 + s6*fixC6
		q := s2*fixC6 - s6*fixC2
		e0, e1, e2, e3 := a+p, b+q, b-q, a-p
		o0 := s1*fixC1 + s3*fixC3 + s5*fixC5 + s7*fixC7
		o1 := s1*fixC3 - s3*fixC7 - s5*fixC1 - s7*fixC5
		o2 := s1*fixC5 - s3*fixC1 + s5*fixC7 + s7*fixC3
		o3 := s1*fixC7 - s3*fixC5 + s5*fixC3 - s7*fixC1
		row[0] = clamp8((e0 + o0) >> idctShift)
		row[1] = clamp8((e1 + o1) >> idctShift)
		row[2] = clamp8((e2 + o2) >> idctShift)
		row[3] = clamp8((e3 + o3) >> idctShift)
		row[4] = clamp8((e3 - o3) >> idctShift)
		row[5] = clamp8((e2 - o2) >> idctShift)
		row[6] = clamp8((e1 - o1) >> idctShift)
		row[7] = clamp8((e0 - o0) >> idctShift)
	}
}

// idct4 writes the 4-point inverse DCT, in each dimension, of the 4x4
// lowest frequencies: the block band-limited to half its resolution and
// sampled at the centres of its 2x2 cells.
func idct4(blk *[65]int32, dst []byte, stride int) {
	var tmp [16]int64
	for x := 0; x < 4; x++ {
		s0, s1, s2, s3 := int64(blk[x]), int64(blk[8+x]), int64(blk[16+x]), int64(blk[24+x])
		if s1|s2|s3 == 0 {
			v := s0 * fixR2
			tmp[x], tmp[4+x], tmp[8+x], tmp[12+x] = v, v, v, v
			continue
		}
		e0 := (s0 + s2) * fixR2
		e1 := (s0 - s2) * fixR2
		o0 := s1*fixC2 + s3*fixC6
		o1 := s1*fixC6 - s3*fixC2
		tmp[x] = e0 + o0
		tmp[4+x] = e1 + o1
		tmp[8+x] = e1 - o1
		tmp[12+x] = e0 - o0
	}
	for y := 0; y < 4; y++ {
		t := tmp[y*4 : y*4+4 : y*4+4]
		row := dst[y*stride : y*stride+4 : y*stride+4]
		e0 := (t[0]+t[2])*fixR2 + idctBias
		e1 := (t[0]-t[2])*fixR2 + idctBias
		o0 := t[1]*fixC2 + t[3]*fixC6
		o1 := t[1]*fixC6 - t[3]*fixC2
		row[0] = clamp8((e0 + o0) >> idctShift)
		row[1] = clamp8((e1 + o1) >> idctShift)
		row[2] = clamp8((e1 - o1) >> idctShift)
		row[3] = clamp8((e0 - o0) >> idctShift)
	}
}

// idct2 writes the 2-point inverse DCT of the 2x2 lowest frequencies. With
// C(0) = cos(π/4) = 1/√2 the sums reduce to (S00 ± S01 ± S10 ± S11)/8.
func idct2(blk *[65]int32, dst []byte, stride int) {
	s00, s01, s10, s11 := int64(blk[0]), int64(blk[1]), int64(blk[8]), int64(blk[9])
	const bias = 128<<3 + 4
	a, b := s00+s10, s00-s10
	r0 := dst[0:2:2]
	r1 := dst[stride : stride+2 : stride+2]
	r0[0] = clamp8((a + s01 + s11 + bias) >> 3)
	r0[1] = clamp8((a - s01 - s11 + bias) >> 3)
	r1[0] = clamp8((b + s01 - s11 + bias) >> 3)
	r1[1] = clamp8((b - s01 + s11 + bias) >> 3)
}
