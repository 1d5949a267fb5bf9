package jpegenc

// The forward DCT is the 11-multiply factorisation of Loeffler, Ligtenberg
// and Moschytz (ICASSP 1989), in the fixed-point arithmetic image/jpeg has
// used since Go 1.25: columns first with 18-bit constants, then rows with
// 14-bit constants, each rotation done with three multiplies. Every shift
// and rounding step matters, since the output must match that encoder's bit
// for bit. Outputs are eight times the DCT of the JPEG standard.

// Rotation constants k·cos θ and k·sin θ, rounded to 18 and 14 fraction
// bits (TestConstants checks them against math.Cos and math.Sin).
const (
	c1cos18, c1sin18 = 257107, 51142  // θ = π/16
	c3cos18, c3sin18 = 217965, 145639 // θ = 3π/16
	c6cos18, c6sin18 = 141871, 342508 // √2 × (cos, sin) 6π/16
	sqrt2q12         = 5793           // √2 with 12 fraction bits

	c1cos14, c1sin14 = 16069, 3196
	c3cos14, c3sin14 = 13623, 9102
	c6cos14, c6sin14 = 8867, 21407
	sqrt2q14         = 23170
)

// rotate returns (a·kc + b·ks, b·kc − a·ks) with three multiplies.
func rotate(a, b, kc, ks int32) (int32, int32) {
	t := kc * (a + b)
	return t + (ks-kc)*b, t - (kc+ks)*a
}

// fdct transforms the 8×8 samples in b (0..255, row-major) in place.
func fdct(b *[64]int32) {
	for c := range 8 {
		s0, d0 := b[c]+b[56+c], b[c]-b[56+c]
		s1, d1 := b[8+c]+b[48+c], b[8+c]-b[48+c]
		s2, d2 := b[16+c]+b[40+c], b[16+c]-b[40+c]
		s3, d3 := b[24+c]+b[32+c], b[24+c]-b[32+c]

		e0, e3 := s0+s3, s0-s3
		e1, e2 := s1+s2, s1-s2
		r2, r3 := rotate(e2, e3, c6cos18, c6sin18)
		b[c] = (e0 + e1 - 1024) << 18 // the level shift: 8 × 128
		b[32+c] = (e0 - e1) << 18
		b[16+c] = r2
		b[48+c] = r3

		o3, o0 := rotate(d3, d0, c3cos18, c3sin18)
		o2, o1 := rotate(d2, d1, c1cos18, c1sin18)
		p3, p1 := o3+o1, o3-o1
		p0, p2 := o0+o2, o0-o2
		b[8+c] = p0 + p3
		b[24+c] = (p2 >> 12) * sqrt2q12
		b[40+c] = (p1 >> 12) * sqrt2q12
		b[56+c] = p0 - p3
	}
	for r := 0; r < 64; r += 8 {
		x := b[r : r+8 : r+8]
		s0, d0 := x[0]+x[7], x[0]-x[7]
		s1, d1 := x[1]+x[6], x[1]-x[6]
		s2, d2 := x[2]+x[5], x[2]-x[5]
		s3, d3 := x[3]+x[4], x[3]-x[4]

		o3, o0 := rotate(d3>>14, d0>>14, c3cos14, c3sin14)
		o2, o1 := rotate(d2>>14, d1>>14, c1cos14, c1sin14)
		e0, e3 := s0+s3, s0-s3
		e1, e2 := s1+s2, s1-s2
		r2, r3 := rotate(e2>>14, e3>>14, c6cos14, c6sin14)
		f0, f4 := e0+e1, e0-e1
		p3, p1 := o3+o1, o3-o1
		p0, p2 := o0+o2, o0-o2
		p2 = (p2 >> 14) * sqrt2q14
		p1 = (p1 >> 14) * sqrt2q14
		const half = 1 << 17
		x[0] = (f0 + half) >> 18
		x[1] = (p0 + p3 + half) >> 18
		x[2] = (r2 + half) >> 18
		x[3] = (p2 + half) >> 18
		x[4] = (f4 + half) >> 18
		x[5] = (p1 + half) >> 18
		x[6] = (r3 + half) >> 18
		x[7] = (p0 - p3 + half) >> 18
	}
}
