package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"maison/jpegfix"
)

const jpegfixUsage = `Usage: maison jpegfix [-strip] IN [OUT]

Repairs the JPEG file IN without touching its pixels and says, one sentence
per change, what was wrong. The repaired file goes to OUT or, without OUT, next
to IN as NAME.repaired.jpeg (nothing is written when IN is already clean and
OUT is not given). Comments are always removed. The image data is walked as a
strict decoder reads it, so a file said repaired decodes under djpeg -strict.

A file damaged inside its image data (cut short, a restart interval damaged
or missing) cannot be repaired without loss: it is refused, with where the
damage lies, and nothing is written. (Serving a camera, maison shows the part
that decodes instead; this command never re-encodes.)

  -strip   also remove metadata (Exif, XMP, IPTC and other APPn segments:
           camera serial numbers, GPS positions), keeping what decoding needs

Exit status: 0 when the file is clean or was repaired, 1 when it cannot be
repaired without loss (the reason is printed), 2 on a usage error.
`

// jpegfixCmd repairs a JPEG file; it reads its own arguments.
func jpegfixCmd() command {
	return command{
		name: "jpegfix", args: "IN [OUT]",
		short: "repair a JPEG file and say what was wrong",
		does:  "only repairs a JPEG file and takes no setting but -strip",
		self:  runJpegfix,
	}
}

// runJpegfix runs `maison jpegfix [-strip] IN [OUT]` and returns the exit
// status.
func runJpegfix(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jpegfix", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	strip := fs.Bool("strip", false, "")
	// Accept -strip after the file names too, so that it is never taken
	// for OUT.
	var rest []string
	for _, a := range args {
		if a == "-strip" || a == "--strip" {
			*strip = true
			continue
		}
		rest = append(rest, a)
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, jpegfixUsage)
			return 0
		}
		if name, ok := undefinedFlag(err); ok {
			err = notASetting("jpegfix", name)
		}
		fmt.Fprintf(stderr, "maison jpegfix: %v\n", err)
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprint(stderr, jpegfixUsage)
		return 2
	}
	in := fs.Arg(0)
	src, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintf(stderr, "maison jpegfix: %v\n", err)
		return 1
	}
	out, rep, err := jpegfix.Options{StripMetadata: *strip, VerifyData: true}.Repair(src)
	if err != nil {
		var fe jpegfix.FormatError
		if errors.As(err, &fe) {
			fmt.Fprintf(stderr, "maison jpegfix: %s cannot be repaired without loss: %s. Nothing was written: this command only drops bytes and never re-encodes the picture.\n", in, fe.Reason)
		} else {
			fmt.Fprintf(stderr, "maison jpegfix: %s: %v\n", in, err)
		}
		return 1
	}
	dst := fs.Arg(1)
	if len(rep.Fixes) == 0 {
		if dst == "" {
			fmt.Fprintf(stdout, "%s is a clean JPEG of %s; nothing to repair.\n", in, jpegfixCount(len(src), "byte", "bytes"))
			if rep.Unchecked != "" {
				fmt.Fprintf(stdout, "Its image data was not walked: %s; only its segments were checked.\n", rep.Unchecked)
			}
			return 0
		}
	} else if dst == "" {
		dst = jpegfixOutName(in)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		fmt.Fprintf(stderr, "maison jpegfix: %v\n", err)
		return 1
	}
	summary := "is clean"
	switch d := rep.Defects(); {
	case d > 0:
		summary = "had " + jpegfixCount(d, "defect", "defects") + ", now repaired"
	case len(rep.Fixes) > 0:
		summary = "had no defect but " + jpegfixCount(len(rep.Fixes)+rep.Unlisted, "segment or byte run", "segments or byte runs") + " removed by policy"
	}
	fmt.Fprintf(stdout, "%s %s: %s became %s, written to %s.\n", in, summary,
		jpegfixCount(rep.InBytes, "byte", "bytes"), jpegfixCount(rep.OutBytes, "byte", "bytes"), dst)
	for _, s := range rep.Sentences() {
		fmt.Fprintln(stdout, s)
	}
	if rep.Unchecked != "" {
		fmt.Fprintf(stdout, "Its image data was not walked: %s; only its segments were checked.\n", rep.Unchecked)
	}
	return 0
}

// jpegfixOutName returns the default output path: garage.jpg becomes
// garage.repaired.jpeg in the same directory.
func jpegfixOutName(in string) string {
	ext := filepath.Ext(in)
	switch strings.ToLower(ext) {
	case ".jpg", ".jpeg", ".jpe", ".jfif":
		in = strings.TrimSuffix(in, ext)
	}
	return in + ".repaired.jpeg"
}

// jpegfixCount writes n with thousands separators and the right noun form.
func jpegfixCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " " + many
}
