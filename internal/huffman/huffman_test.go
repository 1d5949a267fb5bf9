package huffman

import (
	"math/rand/v2"
	"testing"
)

// nextMarker is NextMarker one byte at a time.
func nextMarker(src []byte, pos int) int {
	for ; pos < len(src); pos++ {
		if src[pos] == 0xff && (pos+1 == len(src) || src[pos+1] != 0) {
			return pos
		}
		if src[pos] == 0xff {
			pos++ // the stuffed zero
		}
	}
	return len(src)
}

func FuzzNextMarker(f *testing.F) {
	f.Add([]byte{1, 2, 0xff, 0, 3, 0xff, 0xd0}, 0)
	f.Add([]byte{0xff}, 0)
	f.Add([]byte{0xff, 0xff, 0}, 1)
	f.Fuzz(func(t *testing.T, src []byte, pos int) {
		if pos < 0 || pos > len(src) {
			return
		}
		if got, want := NextMarker(src, pos), nextMarker(src, pos); got != want {
			t.Fatalf("NextMarker(% x, %d) = %d, want %d", src, pos, got, want)
		}
	})
}

// TestNextMarker compares NextMarker with the byte loop on data where 0xFF,
// stuffed zeros and markers come often, at every start.
func TestNextMarker(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 2000 {
		src := make([]byte, r.IntN(600))
		sparse := 8 << (k % 6) // from one 0xFF in 8 to one in 256
		for i := range src {
			switch r.IntN(sparse) {
			case 0:
				src[i] = 0xff
			case 1:
				src[i] = 0
			default:
				src[i] = byte(r.IntN(256))
			}
		}
		for pos := 0; pos <= len(src); pos++ {
			if got, want := NextMarker(src, pos), nextMarker(src, pos); got != want {
				t.Fatalf("NextMarker(% x, %d) = %d, want %d", src, pos, got, want)
			}
		}
	}
}

// TestReaderPaddedStuffedByte: fill bytes before a stuffed zero (FF FF 00)
// are read as one stuffed 0xFF, as libjpeg reads them, and Used counts
// them with it; a run of 0xFF before anything but a zero still stops.
func TestReaderPaddedStuffedByte(t *testing.T) {
	t.Parallel()
	src := []byte{0x12, 0xff, 0xff, 0xff, 0x00, 0x34, 0xff, 0xd9}
	var b Reader
	b.Reset(src, 0, 6)
	if got := b.Get(24); got != 0x12ff34 {
		t.Fatalf("read %#x, want 0x12ff34", got)
	}
	if b.Overrun() || b.Used() != 6 {
		t.Errorf("overrun %v, used %d; want false, 6", b.Overrun(), b.Used())
	}
	b.Reset(src, 0, 6)
	b.Get(8)
	if u := b.Used(); u != 1 {
		t.Errorf("after one byte, used %d, want 1 (the padded stuffed byte unread)", u)
	}
	b.Reset([]byte{0x12, 0xff, 0xff, 0xd9}, 0, 4)
	b.Get(16)
	if !b.Stopped() || !b.Overrun() {
		t.Error("fill bytes before a marker were read as data")
	}
}

// A refinement run of r zeros from k ends on the (r+1)th coefficient of
// the band that is still zero, counted one by one as T.81 G.1.2.3 does.
func TestRunEndCountsZerosOneByOne(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nz       uint64
		k, se, r int
	}{{0, 1, 63, 0}, {0b1110, 1, 63, 0}, {0b1110, 1, 63, 2}, {^uint64(0), 1, 63, 0}, {0b1010_1010, 1, 9, 3}, {0, 5, 4, 0}, {1 << 63, 60, 63, 3}} {
		want, zeros := c.se+1, 0
		for i := c.k; i <= c.se; i++ {
			if c.nz&(1<<i) == 0 {
				if zeros == c.r {
					want = i
					break
				}
				zeros++
			}
		}
		if got := RunEnd(c.nz, c.k, c.se, c.r); got != want {
			t.Errorf("RunEnd(%b, %d, %d, %d) = %d, want %d", c.nz, c.k, c.se, c.r, got, want)
		}
	}
}
