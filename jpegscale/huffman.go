package jpegscale

import "maison/internal/huffman"

// huffTable is a decoding table built from a DHT segment (T.81 Annex C).
type huffTable struct {
	huffman.Table
	defined bool
}

// build makes the decoding tables from the code counts per length (BITS)
// and the symbols (HUFFVAL).
func (t *huffTable) build(counts *[16]uint8, vals []byte, ac bool) error {
	t.defined = false
	if ok, _ := t.Build(counts[:], vals, ac); !ok {
		return FormatError("bad Huffman table (too many codes)")
	}
	t.defined = true
	return nil
}

// decodeSym decodes one Huffman-coded symbol.
func decodeSym(br *huffman.Reader, t *huffTable) (uint8, error) {
	s := br.Decode(&t.Table)
	if s < 0 {
		return 0, FormatError("bad Huffman code")
	}
	return uint8(s), nil
}
