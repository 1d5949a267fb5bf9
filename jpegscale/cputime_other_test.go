//go:build !unix

package jpegscale

// cpuNanos is unavailable here; benchmarks then report 0 CPU time.
func cpuNanos() int64 { return 0 }
