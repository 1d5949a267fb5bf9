//go:build unix

package main

import (
	"os"
	"syscall"
)

// reportSignal is the signal that asks maison for its own figures.
func reportSignal() os.Signal { return syscall.SIGUSR1 }
