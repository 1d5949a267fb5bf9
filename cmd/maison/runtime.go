package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"

	"maison/camera/picture"
)

// reportOnSignal writes one line of maison's own figures (goroutines,
// memory) each time the process receives SIGUSR1, until ctx ends: what a
// soak or a fault run compares before and after, read from the log without
// any endpoint to guard.
func reportOnSignal(ctx context.Context, logger *slog.Logger, inFlight func() int) {
	report := reportSignal()
	if report == nil {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, report)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				logger.Info("runtime", "goroutines", runtime.NumGoroutine(), "in_flight", inFlight(),
					"heap_bytes", m.HeapAlloc, "sys_bytes", m.Sys, "gc_cycles", m.NumGC)
			}
		}
	}()
}

// Garbage collection for a server whose live heap is small (a few MB) and
// whose every request allocates: with Go's default the collector runs
// every few MB allocated, and under load it took a fifth of the CPU. maison
// lets the heap grow to five times what is live (GOGC=400), within a soft
// limit on all of its memory (96 MiB) past which it collects as often as it
// must. GOGC and GOMEMLIMIT in the environment win.
const (
	gcPercent   = 400
	memoryLimit = 96 << 20
)

// tuneGC applies gcPercent and memoryLimit unless the environment sets
// them (the Go runtime reads them itself).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// pictureMemory is the budget for pictures being made
// (picture.MemoryFor): two thirds of the soft memory limit, GOMEMLIMIT's
// when the environment sets it, else memoryLimit, which tuneGC sets.
func pictureMemory() *picture.Memory {
	limit := int64(memoryLimit)
	if os.Getenv("GOMEMLIMIT") != "" {
		limit = debug.SetMemoryLimit(-1)
	}
	return picture.MemoryFor(limit)
}
