//go:build !amd64 || purego

package huffman

import "bytes"

// scanMarker returns the index of the first 0xFF in b followed by a byte
// other than 0x00, or an index before which there is none.
func scanMarker(b []byte) int {
	for q := 0; ; {
		i := bytes.IndexByte(b[q:], 0xff)
		if i < 0 {
			return len(b)
		}
		j := q + i
		if j+1 >= len(b) || b[j+1] != 0 {
			return j
		}
		q = j + 2
	}
}
