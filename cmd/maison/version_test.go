package main

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--version", "version"} {
		var out bytes.Buffer
		code := run(context.Background(), []string{arg}, strings.NewReader(""), &out, io.Discard, func(string) string { return "" })
		want := "maison " + currentVersion() + " (" + runtime.GOOS + "/" + runtime.GOARCH + ", " + runtime.Version() + ")\n"
		if code != 0 || out.String() != want {
			t.Errorf("maison %s: exit %d, %q; want 0, %q", arg, code, out.String(), want)
		}
	}
}

// A build without a stamped version (a plain go build, or a docker build
// given an empty VERSION) says dev and, when Go recorded it, the commit.
func TestVersionFrom(t *testing.T) {
	t.Parallel()
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"v0.3.0", vcs(rev, "true"), "v0.3.0"},
		{"", nil, "dev"},
		{" ", &debug.BuildInfo{}, "dev"},
		{"dev", vcs(rev, "false"), "dev-0123456789ab"},
		{"", vcs(rev, "true"), "dev-0123456789ab-dirty"},
	} {
		if got := versionFrom(tc.stamped, tc.bi); got != tc.want {
			t.Errorf("versionFrom(%q) = %q, want %q", tc.stamped, got, tc.want)
		}
	}
}
