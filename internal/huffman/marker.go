package huffman

// NextMarker returns the offset of the first 0xFF at or after pos that is
// not a stuffed byte (0xFF 0x00), or len(src) when there is none: where
// the entropy-coded data before it may end (section B.1.1.5). An 0xFF
// that is the last byte counts. In image data one byte in a hundred or so
// is a stuffed 0xFF and markers are rare, so on amd64 sixteen bytes are
// judged at once, stuffed bytes included.
func NextMarker(src []byte, pos int) int {
	n := len(src)
	if pos >= n {
		return n
	}
	i := pos + scanMarker(src[pos:])
	for ; i < n; i++ {
		if src[i] == 0xff && (i+1 == n || src[i+1] != 0) {
			return i
		}
	}
	return n
}
