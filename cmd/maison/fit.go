package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"maison/camera"
)

// runFit passes a picture file through the whole snapshot path (lossless
// repair, metadata stripped, fitted to what clients accept) and writes what a
// client would receive. It exits 1 with the reason when the picture cannot
// be used.
func runFit(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			// A setting given to a command that takes none: named, never
			// echoed with its value, which may be a secret.
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			fmt.Fprintf(stderr, "maison fit: --%s is not a setting of maison fit, which takes two files, IN and OUT, and no settings (a file whose name starts with a dash is written ./-name)\n", name)
			return 2
		}
	}
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: maison fit IN OUT   (OUT is the JPEG a client would receive)")
		return 2
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "maison fit: %v\n", err)
		return 1
	}
	fit, rep, err := camera.Process(raw, camera.Limits{})
	if err != nil {
		fmt.Fprintf(stderr, "maison fit: %s: %v\n", args[0], err)
		return 1
	}
	if err := os.WriteFile(args[1], fit.JPEG, 0o644); err != nil {
		fmt.Fprintf(stderr, "maison fit: %v\n", err)
		return 1
	}
	what := "passed through unchanged, already within client limits"
	if fit.Reencoded {
		what = fmt.Sprintf("fitted to %dx%d at quality %d", fit.Width, fit.Height, fit.Quality)
	}
	fmt.Fprintf(stdout, "%s: %dx%d, %d bytes in; %s; %d bytes out.\n", args[1], fit.SourceWidth, fit.SourceHeight, len(raw), what, len(fit.JPEG))
	if s := rep.Sentences(); len(s) > 0 && rep.Defects() > 0 {
		fmt.Fprintln(stdout, strings.Join(s, "\n"))
	}
	return 0
}
