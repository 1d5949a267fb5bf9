package huffman

import "math/bits"

// Band is the coefficients k to se of a block (se ≤ 63) as bits of a
// record of which coefficients are nonzero; empty when k > se.
func Band(k, se int) uint64 {
	if k > se {
		return 0
	}
	return ^uint64(0) >> (63 - se) &^ (1<<k - 1)
}

// RunEnd is where an AC refinement scan's run of r zero coefficients from
// k ends (ITU T.81 G.1.2.3): the index of the (r+1)th coefficient of k to
// se that nz does not mark nonzero, or se+1 when there is none. The
// nonzero coefficients before it each have a correction bit.
func RunEnd(nz uint64, k, se, r int) int {
	z := ^nz & Band(k, se)
	for ; r > 0 && z != 0; r-- {
		z &= z - 1
	}
	if z == 0 {
		return se + 1
	}
	return bits.TrailingZeros64(z)
}
