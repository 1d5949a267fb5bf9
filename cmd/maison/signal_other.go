//go:build !unix

package main

import "os"

// reportSignal is nil where there is no SIGUSR1 (Windows): maison's
// figures are then not reported on a signal.
func reportSignal() os.Signal { return nil }

// ignoreBrokenPipe does nothing where there is no SIGPIPE: a closed pipe
// fails the write.
func ignoreBrokenPipe() {}
