package jpegfix_test

import (
	"bytes"
	"slices"
	"testing"

	"maison/internal/camframe"
	"maison/internal/cputime"
	"maison/jpegfix"
)

// Benchmarks compare Repair with a plain copy of the same bytes, on the
// 31 KB sub-stream frame and the 2 MB 4K frame, clean and carrying the
// Dahua comment pair (a COM whose length is short by 608 bytes), and
// measure what walking every scan's data (VerifyData) costs on top, and
// proving a progressive frame without EOI complete.
//
//	go test ./jpegfix -run '^$' -bench . -benchmem

func benchInputs(b *testing.B) map[string][]byte {
	sub := readFixture(b, "base.sub-640x480.jpeg")
	big := camframe.Frame4K()
	com := camframe.DahuaComments(4094, 608)
	return map[string][]byte{
		"30KB/clean":      sub,
		"30KB/lying-COM":  slices.Concat(sub[:2], com, sub[2:]),
		"2MB/clean":       big,
		"2MB/lying-COM":   slices.Concat(big[:2], com, big[2:]),
		"2MB/missing-EOI": big[:len(big)-2],
	}
}

func BenchmarkRepair(b *testing.B) {
	inputs := benchInputs(b)
	for _, name := range []string{"30KB/clean", "30KB/lying-COM", "2MB/clean", "2MB/lying-COM", "2MB/missing-EOI"} {
		in := inputs[name]
		b.Run(name+"/Repair", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cputime.Loop(b, func() {
				if _, _, err := jpegfix.Repair(in); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(name+"/Clone", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cputime.Loop(b, func() {
				if out := bytes.Clone(in); len(out) != len(in) {
					b.Fatal("short copy")
				}
			})
		})
	}
}

func BenchmarkRepairVerifyData(b *testing.B) {
	inputs := benchInputs(b)
	for _, name := range []string{"30KB/clean", "2MB/clean", "2MB/missing-EOI"} {
		in := inputs[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := (jpegfix.Options{VerifyData: true}).Repair(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRepairProgressiveMissingEOI proves complete the last scan of an
// 84 KB progressive frame, an AC refinement, replaying the history of the
// scans before it (with restart intervals in every scan, and without).
func BenchmarkRepairProgressiveMissingEOI(b *testing.B) {
	for _, name := range []string{"progressive.missing-eoi.jpeg", "progressive-restart.missing-eoi.jpeg"} {
		in := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := jpegfix.Repair(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
