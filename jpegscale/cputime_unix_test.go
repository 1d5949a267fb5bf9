//go:build unix

package jpegscale

import "syscall"

// cpuNanos is the CPU time (user + system) used by this process so far. Wall
// time per operation moves with whatever else runs on the machine; CPU time
// much less, and it counts the work of parallel helpers too.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
