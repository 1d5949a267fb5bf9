package jpegfix

import (
	"fmt"
	"strconv"
)

// FixKind says what a Fix changed.
type FixKind int

// The changes Repair makes. Comment, Metadata and Fill follow policy on
// legal content; every other kind repairs damage.
const (
	// FixComment: a valid COM segment was dropped (comments are never kept).
	FixComment FixKind = iota + 1
	// FixMetadata: a valid APPn segment was dropped by Options.StripMetadata.
	FixMetadata
	// FixFill: fill bytes (0xFF) before a marker were dropped.
	FixFill
	// FixLengthTooShort: a COM or APPn segment announced fewer bytes than it
	// spans up to the next real marker; the whole span was dropped.
	FixLengthTooShort
	// FixLengthTooLong: a COM or APPn segment announced more bytes than it
	// spans up to the next real marker; the span was dropped.
	FixLengthTooLong
	// FixTruncatedSegment: a COM or APPn segment after the image data was
	// cut off by the end of the file; it was dropped.
	FixTruncatedSegment
	// FixGarbage: bytes that belong to no segment were dropped.
	FixGarbage
	// FixLeadingJunk: bytes before the start-of-image marker were dropped.
	FixLeadingJunk
	// FixExtraSOI: a second start-of-image marker was dropped.
	FixExtraSOI
	// FixStrayMarker: a restart, TEM or early end-of-image marker outside
	// the image data was dropped.
	FixStrayMarker
	// FixTrailingData: bytes after the end-of-image marker were dropped.
	FixTrailingData
	// FixSecondImage: a second JPEG placed after the first was dropped.
	FixSecondImage
	// FixMissingEOI: the end-of-image marker was missing and was added.
	FixMissingEOI
	// FixExtraData: bytes inside the image data that no block uses, which
	// decoders skip with a warning, were dropped (Options.VerifyData).
	FixExtraData
	// FixBadJFIF: a JFIF header whose major version is neither 1 nor 2,
	// which libjpeg warns about, was dropped. Decoding needs nothing from
	// it, except that libjpeg reads three components named R, G and B as
	// RGB rather than YCbCr when no JFIF header is there.
	FixBadJFIF
)

var fixKindNames = [...]string{
	FixComment:          "comment",
	FixMetadata:         "metadata",
	FixFill:             "fill",
	FixLengthTooShort:   "length too short",
	FixLengthTooLong:    "length too long",
	FixTruncatedSegment: "truncated segment",
	FixGarbage:          "garbage",
	FixLeadingJunk:      "leading junk",
	FixExtraSOI:         "extra SOI",
	FixStrayMarker:      "stray marker",
	FixTrailingData:     "trailing data",
	FixSecondImage:      "second image",
	FixMissingEOI:       "missing EOI",
	FixExtraData:        "extra data",
	FixBadJFIF:          "bad JFIF version",
}

// String names the kind in a few words.
func (k FixKind) String() string {
	if k > 0 && int(k) < len(fixKindNames) {
		return fixKindNames[k]
	}
	return "FixKind(" + strconv.Itoa(int(k)) + ")"
}

// IsDefect reports whether the kind repairs damage rather than applying
// policy to legal content.
func (k FixKind) IsDefect() bool {
	switch k {
	case FixComment, FixMetadata, FixFill:
		return false
	}
	return true
}

// Fix is one change Repair made.
type Fix struct {
	Offset    int     // byte offset in the input where the change starts
	Marker    byte    // marker code (the byte after 0xFF) concerned, or 0
	Kind      FixKind // what was changed
	Announced int     // length the segment announced (its length field), if any
	Real      int     // length it really had, counted like its length field, if known
	Dropped   int     // bytes removed from the input
	Name      string  // plain name of an application segment, e.g. "Exif metadata"; may be empty
}

// Report lists what Repair changed.
type Report struct {
	Fixes []Fix // each change made, in input order, up to the first thousand
	// Unlisted counts the changes made beyond those Fixes lists.
	Unlisted        int
	unlistedDefects int
	InBytes         int // length of the input
	OutBytes        int // length of the output; 0 when Repair refused
	// Unchecked, with Options.VerifyData, says why the output is not
	// vouched for as decoding strictly: a coding or layout the walk does
	// not read, or an Adobe colour transform libjpeg warns about; "" when
	// the data was walked whole, or when VerifyData was off.
	Unchecked string
	// Start is the offset of the start-of-image marker in the input: 0,
	// or the length of the junk before it.
	Start int
	// Frame is what the frame header and the Exif segment tell of the
	// picture. When Repair refuses, it holds what was read before the
	// refusal: a FormatError with InData comes after a sound frame header.
	// Frame.Components is 0 when no frame header was read.
	Frame Frame
}

// Defects counts the fixes that repaired damage, leaving out policy drops
// such as a valid comment, stripped metadata or fill bytes, unlisted ones
// included.
func (r Report) Defects() int {
	n := r.unlistedDefects
	for _, f := range r.Fixes {
		if f.Kind.IsDefect() {
			n++
		}
	}
	return n
}

// Sentences returns one plain English sentence per fix listed, and one
// more counting the unlisted ones.
func (r Report) Sentences() []string {
	s := make([]string, len(r.Fixes), len(r.Fixes)+1)
	for i, f := range r.Fixes {
		s[i] = f.String()
	}
	if r.Unlisted > 0 {
		s = append(s, commas(r.Unlisted)+" more changes were made after these; they are not listed one by one.")
	}
	return s
}

// String describes the fix in one plain English sentence, such as "At byte
// 2, a comment segment announced 4,094 bytes but really spanned 4,958; it
// was removed."
func (f Fix) String() string {
	at := "At byte " + commas(f.Offset) + ", "
	switch f.Kind {
	case FixComment:
		return at + "a comment segment of " + nbytes(f.Dropped) + " was removed; comments are never kept."
	case FixMetadata:
		return at + f.segment() + " of " + nbytes(f.Dropped) + " was removed to strip metadata."
	case FixFill:
		if isRST(f.Marker) {
			return at + plural(f.Dropped, "fill byte", "fill bytes") + " before a restart marker inside the image data " + wasWere(f.Dropped) + " removed."
		}
		if f.Marker == 0 {
			return at + plural(f.Dropped, "fill byte", "fill bytes") + " before a stuffed byte inside the image data, which decoders read as part of it, " + wasWere(f.Dropped) + " removed."
		}
		return at + plural(f.Dropped, "fill byte", "fill bytes") + " before a marker " + wasWere(f.Dropped) + " removed."
	case FixLengthTooShort, FixLengthTooLong:
		return at + f.segment() + " announced " + nbytes(f.Announced) + " but really spanned " + commas(f.Real) + "; it was removed."
	case FixTruncatedSegment:
		return at + f.segment() + " announced " + nbytes(f.Announced) + " but the file ends after " + commas(f.Real) + "; it was removed."
	case FixGarbage:
		return at + nbytes(f.Dropped) + " of garbage that belong to no segment " + wasWere(f.Dropped) + " removed."
	case FixLeadingJunk:
		return at + nbytes(f.Dropped) + " of junk before the start of the image " + wasWere(f.Dropped) + " removed."
	case FixExtraSOI:
		return at + "a second start-of-image marker was removed."
	case FixStrayMarker:
		return at + "a stray " + strayName(f.Marker) + " marker outside the image data was removed."
	case FixTrailingData:
		return at + nbytes(f.Dropped) + " after the end of the image " + wasWere(f.Dropped) + " removed."
	case FixSecondImage:
		return at + "a second JPEG of " + nbytes(f.Dropped) + " placed after the first was removed."
	case FixMissingEOI:
		return at + "the missing end-of-image marker was added."
	case FixExtraData:
		return at + nbytes(f.Dropped) + " inside the image data that no block uses " + wasWere(f.Dropped) + " removed."
	case FixBadJFIF:
		name := f.Name
		if name == "" {
			name = "JFIF header"
		}
		return at + article(name) + " " + name + " (APP0), which decoders refuse, was removed."
	}
	return at + fmt.Sprintf("%s change to marker 0x%02X dropped %s.", f.Kind, f.Marker, nbytes(f.Dropped))
}

// segment names the segment with its article, e.g. "an Exif metadata
// segment (APP1)".
func (f Fix) segment() string {
	switch {
	case f.Marker == comMarker:
		return "a comment segment"
	case isAPP(f.Marker):
		app := "APP" + strconv.Itoa(int(f.Marker-app0Marker))
		if f.Name == "" {
			return "an " + app + " segment"
		}
		return article(f.Name) + " " + f.Name + " segment (" + app + ")"
	}
	return fmt.Sprintf("a segment with marker 0x%02X", f.Marker)
}

func strayName(c byte) string {
	switch {
	case isRST(c):
		return "restart (RST" + strconv.Itoa(int(c-rst0Marker)) + ")"
	case c == eoiMarker:
		return "end-of-image"
	case c == temMarker:
		return "TEM"
	}
	return fmt.Sprintf("0x%02X", c)
}

// appName names an application segment from its identifier, or returns ""
// when the identifier is not a common one.
func appName(code byte, payload []byte) string {
	has := func(id string) bool { return len(payload) >= len(id) && string(payload[:len(id)]) == id }
	switch code {
	case app0Marker:
		switch {
		case has("JFIF\x00"):
			return "JFIF header"
		case has("JFXX\x00"):
			return "JFIF thumbnail"
		case has("AVI1"):
			return "AVI1 video header"
		}
	case app1Marker:
		switch {
		case has("Exif\x00"):
			return "Exif metadata"
		case has("http://ns.adobe.com/xap/1.0/\x00"):
			return "XMP metadata"
		case has("http://ns.adobe.com/xmp/extension/\x00"):
			return "extended XMP metadata"
		}
	case app2Marker:
		switch {
		case has("ICC_PROFILE\x00"):
			return "ICC colour profile"
		case has("MPF\x00"):
			return "multi-picture index"
		case has("FPXR\x00"):
			return "FlashPix metadata"
		}
	case app13Marker:
		if has("Photoshop 3.0\x00") {
			return "IPTC metadata"
		}
	case app14Marker:
		if has("Adobe") {
			return "Adobe colour transform"
		}
	}
	return ""
}

func article(s string) string {
	if s != "" {
		switch s[0] {
		case 'A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u', 'X': // X for XMP, said "ex".
			return "an"
		}
	}
	return "a"
}

func nbytes(n int) string { return plural(n, "byte", "bytes") }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return commas(n) + " " + many
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// commas formats n with thousands separators: 4094 becomes "4,094".
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
