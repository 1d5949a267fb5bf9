package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionLine says which maison this is and what it was built for, as
// `maison --version` prints it: "maison v0.3.0 (linux/arm64, go1.26.8)".
// Release builds stamp version with -ldflags "-X main.version=…" (see
// scripts/release); a plain go build says "dev" and the commit it was built
// from (see versionFrom).
func versionLine() string {
	return fmt.Sprintf("maison %s (%s/%s, %s)", currentVersion(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// currentVersion is the version maison reports, in --version and to clients.
func currentVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(version, bi)
}

// versionFrom is the stamped version, or, when none was stamped (or an empty
// one, as a docker build outside a git clone passes), "dev" followed by the
// commit Go recorded for the build, with -dirty when the tree had changes:
// dev-1a2b3c4d5e6f-dirty.
func versionFrom(stamped string, bi *debug.BuildInfo) string {
	if v := strings.TrimSpace(stamped); v != "" && v != "dev" {
		return v
	}
	v := "dev"
	if bi == nil {
		return v
	}
	var rev string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) >= 12 {
		v += "-" + rev[:12]
		if modified {
			v += "-dirty"
		}
	}
	return v
}
