package jpegfix

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"maison/internal/visible"
)

// findSOI returns the offset of the start-of-image marker, searching the
// first maxLeadingJunk bytes for FF D8 FF, or a FormatError saying what the
// body is instead. Specified in section B.2.1: the image starts with SOI.
func findSOI(src []byte) (int, error) {
	if len(src) >= 2 && src[0] == 0xff && src[1] == soiMarker {
		return 0, nil
	}
	if otherImage(src) != "" {
		// A PNG or GIF is that picture, whatever its compressed bytes
		// happen to hold: never junk before a JPEG.
		return 0, refuse(ProblemNotJPEG, 0, describe(src))
	}
	if i := bytes.Index(src[:min(len(src), maxLeadingJunk)], []byte{0xff, soiMarker, 0xff}); i >= 0 {
		if bytes.Contains(src[:i], []byte("Exif\x00")) {
			// The junk holds the image's own Exif header: the real start is
			// damaged, and what follows is the embedded thumbnail.
			return 0, refuse(ProblemDamaged, 0, "the start of the file is damaged: the first image in it is the thumbnail inside its Exif metadata, not the picture")
		}
		return i, nil
	}
	return 0, refuse(ProblemNotJPEG, 0, describe(src))
}

// describe says in plain words what a body that is not a JPEG looks like.
// Cameras answer with HTML or JSON error pages, or a few bytes, when they
// fail.
func describe(src []byte) string {
	n := len(src)
	if n == 0 {
		return "the body is empty, not a JPEG"
	}
	trimmed := bytes.TrimLeft(src, " \t\r\n\ufeff") // \ufeff: a byte order mark
	switch {
	case otherImage(src) != "":
		return fmt.Sprintf("the body is %s image of %s, not a JPEG", otherImage(src), nbytes(n))
	case len(trimmed) > 0 && trimmed[0] == '<':
		return fmt.Sprintf("the body is an HTML or XML page of %s, not a JPEG%s", nbytes(n), quote(trimmed))
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return fmt.Sprintf("the body is JSON of %s, not a JPEG%s", nbytes(n), quote(trimmed))
	case isText(src):
		return fmt.Sprintf("the body is %s of text, not a JPEG%s", nbytes(n), quote(trimmed))
	case n < 128:
		return fmt.Sprintf("the body is only %s long, too short to be an image", nbytes(n))
	}
	return fmt.Sprintf("the body does not start with a JPEG start-of-image marker (its first bytes are % X)", src[:min(n, 4)])
}

// otherImage names, with its article, the image format other than JPEG
// that src starts as ("a PNG"), or returns "".
func otherImage(src []byte) string {
	switch {
	case bytes.HasPrefix(src, []byte("\x89PNG\r\n\x1a\n")):
		return "a PNG"
	case bytes.HasPrefix(src, []byte("GIF87a")), bytes.HasPrefix(src, []byte("GIF89a")):
		return "a GIF"
	case len(src) >= 12 && string(src[:4]) == "RIFF" && string(src[8:12]) == "WEBP":
		return "a WebP"
	}
	return ""
}

// isText reports whether the first bytes of b are printable UTF-8.
func isText(b []byte) bool {
	b = b[:min(len(b), 256)]
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			return len(b) < 4 // a rune cut by the 256-byte window
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
			return false
		}
		b = b[size:]
	}
	return true
}

// quote returns a short excerpt of a text body, to help the reader
// recognise an error page: `: it begins "<html><head><title>401…"`. It
// shows what a person would see of the first 60 runes (visible.Text: jpegfix
// sits below voice and takes the rule from below both), quoted as Go does.
func quote(b []byte) string {
	const max = 60
	s := visible.Text(string(b[:min(len(b), 4*max)]), max+1)
	if s == "" {
		return ""
	}
	return fmt.Sprintf(": it begins %q", s)
}
