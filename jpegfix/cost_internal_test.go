package jpegfix

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maison/internal/camframe"
)

// The cost of a hostile frame to the repair and the check stays bounded:
// each test below is a frame that once took a minute or more.

// TestLandingsInOneLongFillRun: a comment whose length lies, followed by
// thousands of candidate segments whose ends all land in one long run of
// 0xFF, made every candidate step over the run again: 4 MB took over a
// minute and a half. The run is stepped over once, whatever lands in it.
func TestLandingsInOneLongFillRun(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestProgressiveScanBomb: a progressive frame can repeat a scan that
// codes a whole 4-million-block picture in a few hundred bytes; the walk
// of 200 of them took 49 s for 570 KB. The blocks the walk reads are
// bounded, and a frame beyond the bound is refused, not left unchecked
// (the camera path would then decode it, at the same cost).
func TestProgressiveScanBomb(t *testing.T) {
	t.Parallel()
	in := camframe.ProgressiveBomb(16000, 16000, 1, 200, false)
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
	in = camframe.ProgressiveBomb(16000, 16000, 1, 200, true)
	_, _, err = Options{}.Repair(in[:len(in)-2])
	if err == nil || !strings.Contains(err.Error(), "scans") {
		t.Errorf("the bomb cut before its end: %v, want a refusal naming the scans", err)
	}
	// A few scans over the same picture are a frame like any other.
	if _, rep, err := (Options{VerifyData: true}).Repair(camframe.ProgressiveBomb(2000, 1500, 1, 3, false)); err != nil || rep.Unchecked != "" {
		t.Errorf("a small frame of three AC scans: %v %q", err, rep.Unchecked)
	}
}

// TestUncheckedProgressiveScanBomb: a frame whose data the walk does not
// read (here four components, CMYK) went unwalked to the camera path's
// decoder: 500 scans over a 7000×7000 picture, 421 KB, took it 58 s where
// one scan takes 17 s. The blocks its scans code are counted from their
// headers against the same bound.
func TestUncheckedProgressiveScanBomb(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{{}, {VerifyData: true}} {
		_, rep, err := o.Repair(camframe.ProgressiveBomb(7000, 7000, 4, 100, false))
		if err == nil || !strings.Contains(err.Error(), "scans") {
			t.Errorf("%+v: %v (unchecked: %q), want a refusal naming the scans", o, err, rep.Unchecked)
		}
		if _, rep, err := o.Repair(camframe.ProgressiveBomb(2000, 1500, 4, 3, false)); err != nil || o.VerifyData && rep.Unchecked == "" {
			t.Errorf("%+v: a small CMYK frame of three AC scans: %v %q", o, err, rep.Unchecked)
		}
	}
}

// TestSkipFillIsTheByteLoop: skipping fill through the block map lands
// where stepping byte by byte does, from every offset, on runs of every
// length and alignment.
func TestSkipFillIsTheByteLoop(t *testing.T) {
	t.Parallel()
	for _, runs := range [][2]int{{0, 1}, {3, 200}, {64, 128}, {65, 4096}, {1, 70}, {100, 5000}} {
		src := bytes.Repeat([]byte{0x12}, 6000)
		copy(src[runs[0]:], bytes.Repeat([]byte{0xff}, runs[1]))
		copy(src[5990:], bytes.Repeat([]byte{0xff}, 10)) // a run that ends the input
		r := repairer{src: src}
		for q := range len(src) + 1 {
			want := q
			for want < len(src) && src[want] == 0xff {
				want++
			}
			if got := r.skipFill(q); got != want {
				t.Fatalf("run %v: skipFill(%d) = %d, want %d", runs, q, got, want)
			}
		}
	}
}
