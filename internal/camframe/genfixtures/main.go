// Command genfixtures writes the JPEG fixtures and their README into a
// directory (fixtures/jpeg). Base frames encoded by Go are rebuilt every
// time; the progressive and restart-interval frames are encoded by cjpeg
// (libjpeg-turbo-progs) and rebuilt only with -cjpeg, since another
// libjpeg version may encode them differently. Every defect file is then
// made from its base frame by the builders in package camframe.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"maison/internal/camframe"
)

func main() {
	out := flag.String("out", "fixtures/jpeg", "directory to write into")
	withCjpeg := flag.Bool("cjpeg", false, "also re-encode the progressive and restart-interval frames with cjpeg")
	flag.Parse()
	if err := run(*out, *withCjpeg); err != nil {
		fmt.Fprintln(os.Stderr, "genfixtures:", err)
		os.Exit(1)
	}
}

func run(dir string, withCjpeg bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	scenes := camframe.Scenes()
	cjpegArgs := map[string][]string{
		"base.progressive-1280x720.jpeg":         {"-quality", "80", "-progressive"},
		"base.restart-1280x720.jpeg":             {"-quality", "80", "-restart", "1"},
		"base.progressive-restart-1280x720.jpeg": {"-quality", "80", "-progressive", "-restart", "1"},
		"base.ir-progressive-640x480.jpeg":       {"-quality", "75", "-grayscale", "-progressive", "-restart", "2"},
	}
	bases := map[string][]byte{}
	for _, b := range camframe.Bases {
		path := filepath.Join(dir, b.File)
		sc := scenes[b.File]
		var data []byte
		switch args, ok := cjpegArgs[b.File]; {
		case ok && !withCjpeg && exists(path):
			var err error
			if data, err = os.ReadFile(path); err != nil {
				return fmt.Errorf("%w (run with -cjpeg to encode it)", err)
			}
		case ok:
			cmd := exec.Command("cjpeg", args...)
			cmd.Stdin = bytes.NewReader(sc.PPM())
			var err error
			if data, err = cmd.Output(); err != nil {
				return fmt.Errorf("cjpeg %s: %w", strings.Join(args, " "), err)
			}
		case b.File == "base.exif-icc-1280x720.jpeg":
			data = exifFrame(sc)
		default:
			data = sc.JPEG(quality(b.File))
		}
		bases[b.File] = data
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	for _, c := range camframe.Cases {
		if c.Build == nil {
			continue // a second expectation on a file listed before
		}
		data := c.Build(bases[c.Base])
		if err := os.WriteFile(filepath.Join(dir, c.File), data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "README.md"), readme(), 0o644)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func quality(file string) int {
	if strings.HasPrefix(file, "base.sub-") {
		return 75
	}
	return 80
}

// exifFrame encodes the scene and adds what a camera adds after SOI:
// Exif with a thumbnail, XMP and an ICC profile.
func exifFrame(sc camframe.Scene) []byte {
	thumb := camframe.Scene{Width: 160, Height: 90, Seed: sc.Seed, Noise: 1}.JPEG(60)
	exif := camframe.Exif{
		Make: "maison", Model: "test camera", Serial: "MAISON-TEST-0001",
		DateTime: "2025:11:29 23:41:07", Lat: 45.5, Lon: 4.85, Thumbnail: thumb,
	}
	frame := sc.JPEG(80)
	var b []byte
	b = append(b, frame[:2]...)
	b = append(b, exif.Segment()...)
	b = append(b, camframe.XMP("2025-11-29T23:41:07")...)
	b = append(b, camframe.ICC()...)
	return append(b, frame[2:]...)
}

func readme() []byte {
	var b strings.Builder
	b.WriteString(`# JPEG fixtures

Broken camera frames for ` + "`jpegfix`" + `, each made by injecting one defect modelled on a public
report into a clean base frame. The expected repair of each file is its base frame (byte for
byte), never Repair's own output; the refused ones list the expected problem. The frames are
drawn, not photographed: a house, a car, a tree, sensor noise, vignetting and a timestamp overlay.

Everything here is written by ` + "`go generate ./jpegfix`" + ` (internal/camframe/genfixtures, with
` + "`-cjpeg`" + ` to re-encode the two cjpeg frames). Do not edit these files by hand. A 3840×2160 frame
of about 2 MB is drawn at test time instead of being committed (camframe.Frame4K).

## Base frames

| file | what it is |
|---|---|
`)
	for _, base := range camframe.Bases {
		fmt.Fprintf(&b, "| `%s` | %s |\n", base.File, base.About)
	}
	b.WriteString(`
## Defects

| file | base | expected | what it models | public source |
|---|---|---|---|---|
`)
	for _, c := range camframe.Cases {
		want := "the base, byte for byte"
		switch c.Want {
		case camframe.WantBaseStripped:
			want = "with metadata stripping: the base without Exif and XMP, byte for byte"
		case camframe.WantRefused:
			want = "refused: " + c.Problem
		}
		if c.Verify {
			want = "with VerifyData: " + want
		}
		base := "–"
		if c.Base != "" {
			base = "`" + c.Base + "`"
		}
		src := c.Source
		if src == "" {
			src = "as above"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.File, base, want, c.Models, src)
	}
	return []byte(b.String())
}
