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
