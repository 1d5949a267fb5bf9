// Package cputime reads the CPU time this process has used, for benchmarks
// that report it beside wall time: wall time per operation moves with
// whatever else runs on the machine, CPU time much less, and it counts the
// work of parallel helpers too.
package cputime

// Nanos is the CPU time (user and system) the process has used so far, or
// 0 where the system does not say.
func Nanos() int64 { return nanos() }
