//go:build amd64 && !purego

package huffman

// scanMarker returns the index of the first 0xFF in b followed by a byte
// other than 0x00, or an index before which there is none; it judges
// sixteen bytes at a time while seventeen remain.
//
//go:noescape
func scanMarker(b []byte) int
