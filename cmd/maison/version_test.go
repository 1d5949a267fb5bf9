package main

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out bytes.Buffer
		code := run(context.Background(), []string{arg}, strings.NewReader(""), &out, io.Discard, func(string) string { return "" })
		want := "maison " + version + " (" + runtime.GOOS + "/" + runtime.GOARCH + ", " + runtime.Version() + ")\n"
		if code != 0 || out.String() != want {
			t.Errorf("maison %s: exit %d, %q; want 0, %q", arg, code, out.String(), want)
		}
	}
}
