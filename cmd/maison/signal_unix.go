//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// reportSignal is the signal that asks maison for its own figures.
func reportSignal() os.Signal { return syscall.SIGUSR1 }

// ignoreBrokenPipe makes a write to a standard output the reader closed
// fail with EPIPE instead of killing maison with SIGPIPE.
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }
