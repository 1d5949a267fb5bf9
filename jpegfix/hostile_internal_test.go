package jpegfix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLandingsInOneLongFillRun: a comment whose length lies, followed by
// thousands of candidate segments whose ends all land in one long run of
// 0xFF, made every candidate step over the run again: 4 MB took over a
// minute and a half. The run is stepped over once, whatever lands in it.
func TestLandingsInOneLongFillRun(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", "base.sub-640x480.jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	const k, run = 2000, 200_000
	var b bytes.Buffer
	b.Write(base[:2])
	b.Write([]byte{0xff, 0xfe, 0, 6}) // a comment announcing 4 bytes it does not hold
	for i := range k {
		// Each candidate's end lands somewhere in the run.
		l := (k-i)*4 - 2 + i*37%50_000
		b.Write([]byte{0xff, 0xe1, byte(l >> 8), byte(l)})
	}
	b.Write(bytes.Repeat([]byte{0xff}, run))
	b.WriteByte(0)
	b.Write(base[2:])
	in := b.Bytes()
	r := repairer{src: in}
	if err := r.run(); err != nil {
		t.Fatalf("the frame after the damage is lost: %v", err)
	}
	if r.stepped > 4*len(in) {
		t.Errorf("stepped over %d bytes of fill one at a time for an input of %d", r.stepped, len(in))
	}
}

// TestEmbeddedImagesWalkedOnce: a damaged span can hide the start of an
// image (FF D8 FF) in every one of a chain of long Huffman table segments,
// each start's walk running through the rest of the chain to the same
// dead end: 16 MB took nearly a minute. Each segment is walked once.
func TestEmbeddedImagesWalkedOnce(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", "base.sub-640x480.jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	table := func(symbols []byte) []byte {
		counts := make([]byte, 16)
		counts[14], counts[15] = byte(len(symbols)/2), byte(len(symbols)-len(symbols)/2)
		return append(append([]byte{0x10}, counts...), symbols...)
	}
	// Eight full tables: longer than a candidate table segment may be.
	var rest []byte
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for range 8 {
		rest = append(rest, table(all)...)
	}
	// The first table's symbols end with the start of an image and a table
	// segment whose tables are the same eight.
	inner := len(rest) + 2
	first := table(append(make([]byte, 200), 0xff, 0xd8, 0xff, 0xc4, byte(inner>>8), byte(inner)))
	body := append(first, rest...)
	seg := append([]byte{0xff, 0xc4, byte((len(body) + 2) >> 8), byte(len(body) + 2)}, body...)
	var b bytes.Buffer
	b.Write(base[:2])
	b.Write([]byte{0xff, 0xfe, 0, 6}) // a comment announcing 4 bytes it does not hold
	const k = 400
	for range k {
		b.Write(seg)
	}
	b.WriteByte(0) // the chain's dead end
	b.Write(base[2:])
	in := b.Bytes()
	r := repairer{src: in}
	if err := r.run(); err != nil {
		t.Fatalf("the frame after the damage is lost: %v", err)
	}
	if r.embedded == nil {
		t.Fatal("no embedded image was walked: the test builds the wrong bytes")
	}
	if r.embedded.steps > 3*k {
		t.Errorf("walked %d segments of embedded images for a chain of %d", r.embedded.steps, k)
	}
}
