// Package cputime reads the CPU time this process has used, for benchmarks
// that report it beside wall time: wall time per operation moves with
// whatever else runs on the machine, CPU time much less, and it counts the
// work of parallel helpers too.
package cputime

import "testing"

// Nanos is the CPU time (user and system) the process has used so far, or
// 0 where the system does not say.
func Nanos() int64 { return nanos() }

// Loop runs op in b's loop and reports the process's CPU time per
// operation, as cpu-ns/op, beside the wall time.
func Loop(b *testing.B, op func()) {
	cpu := Nanos()
	n := 0
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64(Nanos()-cpu)/float64(max(n, 1)), "cpu-ns/op")
}
