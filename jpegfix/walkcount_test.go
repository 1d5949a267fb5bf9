package jpegfix

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"maison/internal/camframe"
)

// The walk skips several codes a look-up (huffman.SkipMCUs) in long
// sequential data and a code at a time elsewhere. These tests hold the two
// to the same verdicts: every repair, report and refusal (whose words carry
// the byte offsets and the share of the picture where a walk stopped) of
// every input is the same whichever walks, under the four option sets.

// sameWalk repairs in with every scan walked by count tables and with none,
// and fails t where the two differ.
func sameWalk(t testing.TB, name string, in []byte) {
	t.Helper()
	for _, o := range []Options{{}, {StripMetadata: true}, {VerifyData: true}, {VerifyData: true, StripMetadata: true}} {
		fast, slow := o, o
		fast.countMin, slow.countMin = 1, -1
		fo, fr, fe := fast.Repair(in)
		so, sr, se := slow.Repair(in)
		if (fe == nil) != (se == nil) || fe != nil && (fe.Error() != se.Error() || !reflect.DeepEqual(fe, se)) {
			t.Fatalf("%s, %+v: count tables: %v; a code at a time: %v", name, o, fe, se)
		}
		if !bytes.Equal(fo, so) || !reflect.DeepEqual(fr, sr) {
			t.Fatalf("%s, %+v: the repairs differ (%d and %d bytes; %v and %v)", name, o, len(fo), len(so), fr.Sentences(), sr.Sentences())
		}
	}
}

// corpusInputs reads the byte slices of the fuzz corpus files in dir.
func corpusInputs(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			lit, ok := strings.CutPrefix(line, "[]byte(")
			if !ok {
				continue
			}
			s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				t.Fatalf("%s line %d: %v", f, i+1, err)
			}
			out[filepath.Base(dir)+"/"+filepath.Base(f)+"#"+strconv.Itoa(i)] = []byte(s)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no corpus input in %s", dir)
	}
	return out
}

// mutate returns in damaged one way, chosen by r: cut, cut and closed with
// an EOI, bits flipped, a marker or a stuffed byte put in, bytes dropped or
// overwritten with 0xFF.
func mutate(r *rand.Rand, in []byte) []byte {
	at := len(in)/8 + r.IntN(len(in)-len(in)/8)
	out := bytes.Clone(in)
	switch r.IntN(8) {
	case 0:
		return out[:at]
	case 1:
		return append(out[:at:at], 0xff, 0xd9)
	case 2:
		for range 1 + r.IntN(4) {
			i := len(in)/8 + r.IntN(len(in)-len(in)/8)
			out[i] ^= 1 << r.IntN(8)
		}
		return out
	case 3:
		return bytes.Join([][]byte{out[:at], {0xff, 0xd0 + byte(r.IntN(8))}, out[at:]}, nil)
	case 4:
		return bytes.Join([][]byte{out[:at], {0xff, 0}, out[at:]}, nil)
	case 5:
		return append(out[:at:at], out[min(len(out), at+1+r.IntN(64)):]...)
	case 6:
		for i := at; i < min(len(out), at+1+r.IntN(16)); i++ {
			out[i] = 0xff
		}
		return out
	}
	return out[:len(out)-2] // the EOI lost
}

func TestWalkCountFixtures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("../fixtures/jpeg", "*.jp*g"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	r := rand.New(rand.NewPCG(12, 1))
	mutations := 12
	if testing.Short() || raceDetector {
		mutations = 3
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		sameWalk(t, name, in)
		for i := range mutations {
			sameWalk(t, name+"#"+strconv.Itoa(i), mutate(r, in))
		}
	}
}

func TestWalkCountCorpora(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{
		"../fuzz/testdata/fuzz/FuzzRepair",
		"../fuzz/testdata/fuzz/FuzzRepairVerdict",
		"../jpegscale/testdata/fuzz/FuzzDecode",
	} {
		for name, in := range corpusInputs(t, dir) {
			sameWalk(t, name, in)
		}
	}
}

// TestWalkCount4K damages the 4K frame, whose data the walk skips several
// codes a look-up by default, in many ways.
func TestWalkCount4K(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("draws and encodes a 4K frame")
	}
	in := camframe.Frame4K()
	sameWalk(t, "4K", in)
	sameWalk(t, "4K without EOI", in[:len(in)-2])
	// Fill bytes before a stuffed zero (FF FF 00), which libjpeg reads as
	// one stuffed 0xFF, where the walk reads eight bytes at a time.
	for _, share := range []int{2, 3} {
		at := len(in) / share
		at += bytes.Index(in[at:], []byte{0xff, 0})
		padded := slices.Concat(in[:at], []byte{0xff, 0xff}, in[at:])
		sameWalk(t, "4K with FF FF FF 00", padded)
		sameWalk(t, "4K with FF FF FF 00, without EOI", padded[:len(padded)-2])
		if out, _, err := (Options{VerifyData: true}).Repair(padded[:len(padded)-2]); err != nil || !bytes.Equal(out, in) {
			t.Errorf("4K with FF FF FF 00 at %d, without EOI: not the frame itself (%d bytes of %d): %v", at, len(out), len(in), err)
		}
	}
	r := rand.New(rand.NewPCG(12, 2))
	mutations := 12
	if raceDetector {
		mutations = 3
	}
	for i := range mutations {
		sameWalk(t, "4K#"+strconv.Itoa(i), mutate(r, in))
	}
}

func FuzzWalkCount(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("../fixtures/jpeg", "*.jp*g"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) { sameWalk(t, "input", in) })
}
