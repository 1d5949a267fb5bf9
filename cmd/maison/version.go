package main

import (
	"fmt"
	"runtime"
)

// versionLine says which maison this is and what it was built for, as
// `maison --version` prints it: "maison v0.3.0 (linux/arm64, go1.26.8)".
// Release builds stamp version with -ldflags "-X main.version=…" (see
// scripts/release); a plain go build says "dev".
func versionLine() string {
	return fmt.Sprintf("maison %s (%s/%s, %s)", version, runtime.GOOS, runtime.GOARCH, runtime.Version())
}
