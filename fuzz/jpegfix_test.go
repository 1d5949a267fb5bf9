// Package fuzz holds the project's fuzz targets. Run one with, e.g.,
//
//	go test ./fuzz -run '^$' -fuzz 'FuzzRepair$' -fuzztime 10m -fuzzminimizetime 0
//
// (-fuzzminimizetime 0: Go minimizes every new input before going on, and
// on frames of tens of kilobytes that stalls a worker for its whole
// minute; failures are still written whole to testdata).
//
// Plain `go test ./fuzz` runs each target's seeds and committed corpus.
package fuzz

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"maison/jpegfix"
)

// FuzzRepair seeds from fixtures/jpeg and checks that Repair, with each
// option, never panics, is idempotent, only ever returns strict
// length-chained JPEGs without comments, never grows its input by more
// than an EOI, never shares memory with it, and refuses only with a
// FormatError.
func FuzzRepair(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "jpeg", "*.jpeg"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if testing.Short() && len(b) > 64<<10 {
			continue // large frames slow the seed run more than they add
		}
		f.Add(b)
	}
	// Tiny inline seeds for the corners of the grammar.
	for _, s := range []string{
		"",
		"\xff\xd8",
		"\xff\xd8\xff\xd9",
		"\xff\xd8\xff\xfe\x00\x02\xff\xd9",
		"\xff\xd8\xff\xff\xff\xfe\x00\x05ab\xff\xd9",
		"\x00\x00\xff\xd8\xff\xd8\xff\xd0\xff\x01",
		"<html>401</html>",
	} {
		f.Add([]byte(s))
	}
	count := tally("FuzzRepair")
	f.Fuzz(func(t *testing.T, in []byte) {
		count()
		orig := bytes.Clone(in)
		for _, o := range []jpegfix.Options{{}, {StripMetadata: true}, {VerifyData: true}} {
			out, rep, err := o.Repair(in)
			if !bytes.Equal(in, orig) {
				t.Fatal("Repair modified its input")
			}
			if err != nil {
				var fe jpegfix.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("error %v is not a FormatError", err)
				}
				if out != nil {
					t.Fatal("refused but returned output")
				}
				continue
			}
			if len(out) > len(in)+2 {
				t.Fatalf("output %d bytes, input %d: more than an EOI added", len(out), len(in))
			}
			if rep.InBytes != len(in) || rep.OutBytes != len(out) {
				t.Fatalf("report sizes %d→%d, real %d→%d", rep.InBytes, rep.OutBytes, len(in), len(out))
			}
			if err := jpegfix.Check(out); err != nil {
				t.Fatalf("output is not strict: %v\nfixes: %q", err, rep.Sentences())
			}
			if err := noComment(out); err != nil {
				t.Fatal(err)
			}
			if len(out) > 0 && len(in) > 0 {
				saved := out[0]
				out[0] ^= 0xff
				if !bytes.Equal(in, orig) {
					t.Fatal("output shares memory with the input")
				}
				out[0] = saved
			}
			again, rep2, err := o.Repair(out)
			if err != nil {
				t.Fatalf("Repair(Repair(x)) failed: %v\nfirst fixes: %q", err, rep.Sentences())
			}
			if !bytes.Equal(again, out) {
				t.Fatalf("not idempotent: %d bytes then %d; second fixes: %q", len(out), len(again), rep2.Sentences())
			}
			if len(rep2.Fixes) != 0 {
				t.Fatalf("second pass still fixed: %q", rep2.Sentences())
			}
			for _, f := range rep.Fixes {
				if s := f.String(); s == "" || s[len(s)-1] != '.' {
					t.Fatalf("bad sentence %q", s)
				}
			}
		}
	})
}

// noComment walks the strict output's header segments, independently of
// jpegfix, and reports a COM segment.
func noComment(b []byte) error {
	p := 2
	for p+4 <= len(b) {
		code := b[p+1]
		if code == 0xfe {
			return errors.New("output holds a comment segment")
		}
		if code == 0xd9 {
			return nil
		}
		l := int(b[p+2])<<8 | int(b[p+3])
		p += 2 + l
		if code == 0xda {
			for p+1 < len(b) && (b[p] != 0xff || b[p+1] == 0 || (b[p+1] >= 0xd0 && b[p+1] <= 0xd7)) {
				p++
			}
		}
	}
	return nil
}
