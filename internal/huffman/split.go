package huffman

import (
	"bytes"
	"sync/atomic"
)

// The second walk of SkipMCUsSplit keeps the reader's state after each of
// its last ring MCUs, and where each of its first keep MCUs ended: the
// walks meet, when they do, a few MCUs after the middle.
const (
	ring = 64
	keep = 4096
)

// SkipMCUsSplit is SkipMCUs for a reader fresh from Reset, walked on two
// goroutines when no marker stands in the first half of the data. A second walk starts at the
// middle of the data as if an MCU started there, and notes where each of
// its MCUs ends; the first walk, from the start, takes the second's work
// as its own only where it ends an MCU exactly where the second ended one,
// since from the same bit at the start of an MCU both read the same. When
// the walks never meet, or the second stopped before the last MCU, the
// first walks on alone: the answer and the reader's state are always
// those of SkipMCUs.
func (b *Reader) SkipMCUsSplit(blocks []SeqBlock, mcus int) (done int, ok bool) {
	from := b.Pos
	mid := from + (b.end-from)/2
	if b.src[mid-1] == 0xff {
		mid++ // not on a stuffed zero
	}
	if mcus < 2 || NextMarker(b.src[:mid], from) < mid {
		return b.SkipMCUs(blocks, mcus)
	}
	zeros := bytes.Count(b.src[from:mid], []byte{0xff})
	base := 8 * (mid - from - zeros)

	// The second walk: how many MCUs it walked, the bits read when each of
	// the first keep ended, and the reader's state after the last ring.
	var (
		c      Reader
		walked int
		ends   = make([]int, 1, keep)
		after  [ring]Reader
		quit   atomic.Bool
		fin    = make(chan struct{})
	)
	c.Reset(b.src, mid, b.end)
	ends[0] = base
	go func() {
		defer close(fin)
		for walked < mcus && !quit.Load() {
			if d, _ := c.SkipMCUs(blocks, 1); d < 1 {
				return
			}
			walked++
			after[walked%ring] = c
			if len(ends) < keep {
				ends = append(ends, base+c.bits())
			}
		}
	}()
	stop := func() { quit.Store(true); <-fin }

	// The first walk goes to the middle in steps of half the MCUs that
	// seem left before it; it may pass it, since the walks, once met, stay
	// together.
	m, perMCU := 0, max(1, 2*base/mcus)
	for m < mcus && b.bits() < base {
		step := min(mcus-m, max(1, (base-b.bits())/perMCU/2))
		d, ok := b.SkipMCUs(blocks, step)
		m += d
		if d < step {
			stop()
			return m, ok
		}
	}
	if m == mcus {
		stop()
		return m, true
	}
	<-fin
	for j := 0; m < mcus; {
		at := b.bits()
		for j < len(ends) && ends[j] < at {
			j++
		}
		if j == len(ends) {
			break // past what the second walk kept: they never met
		}
		if ends[j] == at {
			last := j + mcus - m // the second walk's count at the last MCU
			if last <= walked && last > walked-ring {
				s := &after[last%ring]
				b.Acc, b.N, b.Pos, b.pad, b.stop, b.zeros = s.Acc, s.N, s.Pos, s.pad, s.stop, s.zeros+zeros
				return mcus, true
			}
			break // the second walk stopped before the last MCU
		}
		if d, ok := b.SkipMCUs(blocks, 1); d < 1 {
			return m, ok
		}
		m++
	}
	d, ok := b.SkipMCUs(blocks, mcus-m)
	return m + d, ok
}

// bits returns how many bits were read since Reset, stuffed zero bytes
// left out and padding included.
func (b *Reader) bits() int {
	return 8*(b.Pos-b.start-b.zeros) + int(b.pad) - int(b.N)
}
