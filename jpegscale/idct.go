package jpegscale

// Inverse DCT (T.81 A.3.3) and its reductions:
//
//	s(y, x) = 1/4 · Σu Σv C(u) C(v) S(v, u) cos((2x+1)uπ/16) cos((2y+1)vπ/16)
//
// with C(0) = 1/√2 and C(k) = 1 otherwise. The reduced forms compute, straight
// from the coefficients, the mean of each 2x2, 4x4 or 8x8 cell of s: the
// block shrunk by a box filter, as libjpeg's scaled decoding does. Each pass
// is split into even and odd halves. Arithmetic is in fixed point with 13
// fractional bits per constant, on int (64 bits), so nothing overflows for
// coefficients of valid 8-bit data (garbage merely wraps).

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
func clamp8(v int) byte {
	if uint(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return byte(v)
}

// fillDC writes the level-shifted mean dc/8 to an n x n area.
func fillDC(dc int32, dst []byte, stride, n int) {
	v := clamp8((int(dc) + 4 + 1024) >> 3)
	for r := 0; r < n; r++ {
		row := dst[r*stride : r*stride+n]
		for i := range row {
			row[i] = v
		}
	}
}

// idct8 writes the full 8x8 inverse DCT of blk (natural order, dequantized).
func idct8(blk *[65]int32, dst []byte, stride int) {
	var tmp [64]int
	// Columns: frequencies v down each column to rows y.
	for x := 0; x < 8; x++ {
		s0, s1, s2, s3 := int(blk[x]), int(blk[8+x]), int(blk[16+x]), int(blk[24+x])
		s4, s5, s6, s7 := int(blk[32+x]), int(blk[40+x]), int(blk[48+x]), int(blk[56+x])
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

// idct4 writes the 4x4 reduction of an 8x8 block: each output is the mean
// of a 2x2 cell of the full inverse DCT. Per dimension, the mean of outputs
// 2m and 2m+1 weighs frequency k by cos(kπ/16) cos((2m+1)kπ/8), so the eight
// coefficients fold into a 4-point IDCT of X(k)cos(kπ/16) - X(8-k)cos((8-k)π/16);
// frequency 4 drops out. The folded constants below are those products.
func idct4(blk *[65]int32, dst []byte, stride int) {
	const (
		k1c2 = 7423 // cos(π/16) cos(2π/16)
		k3c6 = 2607 // cos(3π/16) cos(6π/16)
		k5c6 = 1742 // cos(5π/16) cos(6π/16)
		k7c2 = 1477 // cos(7π/16) cos(2π/16)
		k1c6 = 3075 // cos(π/16) cos(6π/16)
		k3c2 = 6293 // cos(3π/16) cos(2π/16)
		k5c2 = 4205 // cos(5π/16) cos(2π/16)
		k7c6 = 612  // cos(7π/16) cos(6π/16)
		k2r2 = 5352 // cos(2π/16) / √2
		k6r2 = 2217 // cos(6π/16) / √2
	)
	var tmp [32]int // 4 rows of 8 columns
	for x := 0; x < 8; x++ {
		if x == 4 {
			continue
		}
		s0, s1, s2, s3 := int(blk[x]), int(blk[8+x]), int(blk[16+x]), int(blk[24+x])
		s5, s6, s7 := int(blk[40+x]), int(blk[48+x]), int(blk[56+x])
		if s1|s2|s3|s5|s6|s7 == 0 {
			v := s0 * fixR2
			tmp[x], tmp[8+x], tmp[16+x], tmp[24+x] = v, v, v, v
			continue
		}
		e := s0 * fixR2
		f := s2*k2r2 - s6*k6r2
		o0 := s1*k1c2 + s3*k3c6 - s5*k5c6 - s7*k7c2
		o1 := s1*k1c6 - s3*k3c2 + s5*k5c2 - s7*k7c6
		tmp[x] = e + f + o0
		tmp[8+x] = e - f + o1
		tmp[16+x] = e - f - o1
		tmp[24+x] = e + f - o0
	}
	for y := 0; y < 4; y++ {
		t := tmp[y*8 : y*8+8 : y*8+8]
		row := dst[y*stride : y*stride+4 : y*stride+4]
		s0, s1, s2, s3, s5, s6, s7 := t[0], t[1], t[2], t[3], t[5], t[6], t[7]
		e := s0*fixR2 + idctBias
		f := s2*k2r2 - s6*k6r2
		o0 := s1*k1c2 + s3*k3c6 - s5*k5c6 - s7*k7c2
		o1 := s1*k1c6 - s3*k3c2 + s5*k5c2 - s7*k7c6
		row[0] = clamp8((e + f + o0) >> idctShift)
		row[1] = clamp8((e - f + o1) >> idctShift)
		row[2] = clamp8((e - f - o1) >> idctShift)
		row[3] = clamp8((e + f - o0) >> idctShift)
	}
}

// idct2 writes the 2x2 reduction of an 8x8 block: each output is the mean of
// a 4x4 cell. Per dimension, even frequencies other than 0 cancel over four
// samples and odd frequency k weighs sin(kπ/2) / (8 sin(kπ/16)), with the
// sign alternating between the two outputs.
func idct2(blk *[65]int32, dst []byte, stride int) {
	const (
		w1 = 5249  // 1 / (8 sin(π/16))
		w3 = -1843 // -1 / (8 sin(3π/16))
		w5 = 1232  // 1 / (8 sin(5π/16))
		w7 = -1044 // -1 / (8 sin(7π/16))
	)
	var tmp [16]int // 2 rows of 8 columns
	for _, x := range [5]int{0, 1, 3, 5, 7} {
		e := int(blk[x]) * fixR2
		o := int(blk[8+x])*w1 + int(blk[24+x])*w3 + int(blk[40+x])*w5 + int(blk[56+x])*w7
		tmp[x], tmp[8+x] = e+o, e-o
	}
	for y := 0; y < 2; y++ {
		t := tmp[y*8 : y*8+8 : y*8+8]
		e := t[0]*fixR2 + idctBias
		o := t[1]*w1 + t[3]*w3 + t[5]*w5 + t[7]*w7
		row := dst[y*stride : y*stride+2 : y*stride+2]
		row[0] = clamp8((e + o) >> idctShift)
		row[1] = clamp8((e - o) >> idctShift)
	}
}
