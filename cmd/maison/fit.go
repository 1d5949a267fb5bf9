package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"maison/camera/picture"
)

const fitUsage = `Usage: maison fit IN OUT

Passes the picture file IN through the whole snapshot path, as a camera's
frame would go (lossless repair, metadata removed, fitted to what clients
accept), and writes to OUT the JPEG a client would receive.

Exit status: 0 when OUT was written, 1 when the picture cannot be used (the
reason is printed), 2 on a usage error.
`

// fitCmd passes a picture through the snapshot path; it reads its own arguments.
func fitCmd() command {
	return command{
		name: "fit", args: "IN OUT",
		short: "pass a picture through the snapshot path: what a client receives",
		does:  "takes two files, IN and OUT, and no settings (a file whose name starts with a dash is written ./-name)",
		self:  runFit,
	}
}

// runFit passes a picture file through the whole snapshot path (lossless
// repair, metadata stripped, fitted to what clients accept) and writes what a
// client would receive. It exits 1 with the reason when the picture cannot
// be used.
func runFit(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch {
		case a == "-h" || a == "-help" || a == "--help":
			fmt.Fprint(stdout, fitUsage)
			return 0
		case len(a) > 1 && a[0] == '-':
			// A setting given to a command that takes none: named, never
			// echoed with its value, which may be a secret.
			fmt.Fprintf(stderr, "maison fit: %v\n", notASetting("fit", flagName(a)))
			return 2
		}
	}
	if len(args) != 2 {
		fmt.Fprint(stderr, fitUsage)
		return 2
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "maison fit: %v\n", err)
		return 1
	}
	fit, rep, err := picture.Process(context.Background(), raw, picture.Limits{Memory: pictureMemory()})
	if err != nil {
		fmt.Fprintf(stderr, "maison fit: %s: %v\n", args[0], err)
		return 1
	}
	if err := os.WriteFile(args[1], fit.JPEG, 0o644); err != nil {
		fmt.Fprintf(stderr, "maison fit: %v\n", err)
		return 1
	}
	what := "not resized or re-encoded, already within client limits"
	if fit.Reencoded {
		what = fmt.Sprintf("fitted to %dx%d at quality %d", fit.Width, fit.Height, fit.Quality)
	}
	fmt.Fprintf(stdout, "%s: %dx%d, %d bytes in; %s; %d bytes out.\n", args[1], fit.SourceWidth, fit.SourceHeight, len(raw), what, len(fit.JPEG))
	if s := rep.Sentences(); len(s) > 0 && rep.Defects() > 0 {
		fmt.Fprintln(stdout, strings.Join(s, "\n"))
	}
	return 0
}
