package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// reportOnSignal writes one line of maison's own figures (goroutines,
// memory) each time the process receives SIGUSR1, until ctx ends: what a
// soak or a fault run compares before and after, read from the log without
// any endpoint to guard.
func reportOnSignal(ctx context.Context, logger *slog.Logger, inFlight func() int) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
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
