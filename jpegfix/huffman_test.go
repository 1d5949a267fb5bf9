package jpegfix

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"

	"maison/internal/huffman"
)

// TestStandardTablesAreAnnexK checks the tables used for frames without a
// DHT segment against those Go's encoder writes, which are the same
// tables of ITU-T T.81 Annex K.3.
func TestStandardTablesAreAnnexK(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewYCbCr(image.Rect(0, 0, 16, 16), image.YCbCrSubsampleRatio420), nil); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	p := bytes.Index(b, []byte{0xff, 0xc4})
	if p < 0 {
		t.Fatal("no DHT segment")
	}
	end := p + 2 + (int(b[p+2])<<8 | int(b[p+3]))
	found := 0
	for q := p + 4; q < end; {
		tc, th := b[q]>>4, b[q]&15
		total := 0
		for _, c := range b[q+1 : q+17] {
			total += int(c)
		}
		table := b[q+1 : q+17+total]
		if want := stdTables[tc][th]; !bytes.Equal(table, want) {
			t.Errorf("table class %d id %d: Go writes % x, stdTables hold % x", tc, th, table, want)
		}
		found++
		q += 17 + total
	}
	if found != 4 {
		t.Errorf("%d tables in Go's DHT, want 4", found)
	}
	var h huffman.Table
	for class := range 2 {
		for id := range 2 {
			if why := build(&h, stdTables[class][id][:16], stdTables[class][id][16:], class == 0); why != "" {
				t.Errorf("standard table %d/%d: %s", class, id, why)
			}
		}
	}
}
