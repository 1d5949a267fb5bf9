package jpegfix

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// progressiveBomb builds a progressive frame of w×h pixels, grey or of nf
// components, whose
// first AC scan, repeated k times, codes every block in a few hundred
// bytes with end-of-band runs of 32,767 blocks: each repeat costs a walk
// over every block of the picture. With refine, the repeats leave the
// lowest bit, and a last scan refines it.
func progressiveBomb(w, h, k int, refine bool, nf ...int) []byte {
	comps := 1
	if len(nf) > 0 {
		comps = nf[0]
	}
	seg := func(code byte, payload ...byte) []byte {
		return append([]byte{0xff, code, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}, payload...)
	}
	bits := func(s string) []byte {
		for len(s)%8 != 0 {
			s += "1"
		}
		var out []byte
		for i := 0; i < len(s); i += 8 {
			var c byte
			for _, b := range s[i : i+8] {
				c = c<<1 | byte(b-'0')
			}
			out = append(out, c)
			if c == 0xff {
				out = append(out, 0)
			}
		}
		return out
	}
	blocks := (w + 7) / 8 * ((h + 7) / 8)
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	b.Write(seg(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	dc := []byte{byte(comps)}
	for i := range comps {
		sof = append(sof, byte(i+1), 0x11, 0)
		dc = append(dc, byte(i+1), 0)
	}
	b.Write(seg(0xc2, sof...))
	b.Write(seg(0xc4, append([]byte{0x00, 1}, append(make([]byte, 15), 0x00)...)...)) // DC: one code, size 0
	b.Write(seg(0xc4, append([]byte{0x10, 1}, append(make([]byte, 15), 0xe0)...)...)) // AC: one code, EOBRUN of 2^14 and more
	b.Write(seg(0xda, append(dc, 0, 0, 0)...))
	b.Write(bits(strings.Repeat("0", blocks*comps)))
	runs := bits(strings.Repeat("011111111111111", (blocks+32766)/32767))
	al := byte(0)
	if refine {
		al = 1
	}
	ac := append(seg(0xda, 1, 1, 0x00, 1, 63, al), runs...)
	for range k {
		b.Write(ac)
	}
	if refine {
		b.Write(append(seg(0xda, 1, 1, 0x00, 1, 63, 0x10), runs...))
	}
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// TestProgressiveScanBomb: a progressive frame can repeat a scan that
// codes a whole 4-million-block picture in a few hundred bytes; the walk
// of 200 of them took 49 s for 570 KB. The blocks the walk reads are
// bounded, and a frame beyond the bound is refused, not left unchecked
// (the camera path would then decode it, at the same cost).
func TestProgressiveScanBomb(t *testing.T) {
	in := progressiveBomb(16000, 16000, 200, false)
	r := repairer{src: in, opts: Options{VerifyData: true}}
	err := r.run()
	var fe FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "scans") {
		t.Errorf("err = %v, want a refusal naming the scans", err)
	}
	if r.walker != nil && r.walker.walked > 2*maxWalkBlocks {
		t.Errorf("walked %d blocks", r.walker.walked)
	}
	// Cut before its end-of-image marker, a last scan that refines is
	// proven complete from a replay of the scans before it, bounded too.
	in = progressiveBomb(16000, 16000, 200, true)
	_, _, err = Options{}.Repair(in[:len(in)-2])
	if err == nil || !strings.Contains(err.Error(), "scans") {
		t.Errorf("the bomb cut before its end: %v, want a refusal naming the scans", err)
	}
	// A few scans over the same picture are a frame like any other.
	if _, rep, err := (Options{VerifyData: true}).Repair(progressiveBomb(2000, 1500, 3, false)); err != nil || rep.Unchecked != "" {
		t.Errorf("a small frame of three AC scans: %v %q", err, rep.Unchecked)
	}
}

// TestUncheckedProgressiveScanBomb: a frame whose data the walk does not
// read (here four components, CMYK) went unwalked to the camera path's
// decoder: 500 scans over a 7000×7000 picture, 421 KB, took it 58 s where
// one scan takes 17 s. The blocks its scans code are counted from their
// headers against the same bound.
func TestUncheckedProgressiveScanBomb(t *testing.T) {
	for _, o := range []Options{{}, {VerifyData: true}} {
		_, rep, err := o.Repair(progressiveBomb(7000, 7000, 100, false, 4))
		if err == nil || !strings.Contains(err.Error(), "scans") {
			t.Errorf("%+v: %v (unchecked: %q), want a refusal naming the scans", o, err, rep.Unchecked)
		}
		if _, rep, err := o.Repair(progressiveBomb(2000, 1500, 3, false, 4)); err != nil || o.VerifyData && rep.Unchecked == "" {
			t.Errorf("%+v: a small CMYK frame of three AC scans: %v %q", o, err, rep.Unchecked)
		}
	}
}
