package picture

import (
	"errors"
	"fmt"

	"maison/jpegfix"
)

// Unusable is what makes every frame a camera sends unusable, read from
// its header alone: a setting of the camera, never a passing fault, so
// asking again does not help and nothing of the picture is decoded.
type Unusable int

// The settings that make a camera's frames unusable.
const (
	// UnusableTwelveBit: 12-bit samples (extended JPEG), which clients
	// cannot show.
	UnusableTwelveBit Unusable = iota + 1
	// UnusableArithmetic: arithmetic coding rather than Huffman coding.
	UnusableArithmetic
	// UnusableLossless: lossless JPEG, which has no DCT to scale.
	UnusableLossless
	// UnusableHierarchical: hierarchical JPEG, a picture in differential
	// frames.
	UnusableHierarchical
	// UnusableNoHeight: a height of 0 in the frame header, given only
	// after the image data (a DNL segment), which common decoders do not
	// read.
	UnusableNoHeight
	// UnusableTooLarge: more pixels than any camera sends
	// (MaxFramePixels).
	UnusableTooLarge
	// UnusableMemory: making a picture of the frame, even at an eighth of
	// its size, needs more memory than maison gives pictures (Memory).
	UnusableMemory
	// UnusableMemoryWhole: making a picture of a frame that is not a JPEG
	// (PNG, say), which is decoded whole, needs more memory than maison
	// gives pictures: no smaller scale was there to try.
	UnusableMemoryWhole
)

// MaxFramePixels bounds the stored size of a frame maison decodes: half
// again an 8K camera's. A few kilobytes can declare far more.
const MaxFramePixels = 50_000_000

// UnusableError is a frame refused from its header: Why says which
// setting of the camera, Detail what the header says, in English for the
// log. It is an ErrNotImage.
type UnusableError struct {
	Why    Unusable
	Detail string
}

func (e *UnusableError) Error() string {
	return fmt.Sprintf("%v: %s", ErrNotImage, e.Detail)
}

// Unwrap makes an UnusableError an ErrNotImage.
func (e *UnusableError) Unwrap() error { return ErrNotImage }

// admitHeader refuses, from the frame header alone and before any image
// data is walked or decoded, a JPEG no client could be shown: a coding
// clients do not read, samples of other than 8 bits, a height left to the
// end of the data, more pixels than any camera sends. A frame without
// width is left to the repair, which refuses it as damaged.
func admitHeader(fr jpegfix.Frame) error {
	unusable := func(why Unusable, format string, args ...any) error {
		return &UnusableError{Why: why, Detail: fmt.Sprintf(format, args...)}
	}
	switch {
	case fr.Lossless:
		return unusable(UnusableLossless, "its frame header names lossless JPEG, which clients do not show")
	case fr.Hierarchical:
		return unusable(UnusableHierarchical, "its frame header names hierarchical JPEG, which clients do not show")
	case fr.Arithmetic:
		return unusable(UnusableArithmetic, "its frame header names arithmetic coding, which clients do not read")
	case fr.Precision != 8:
		return unusable(UnusableTwelveBit, "its samples have %d bits; clients show 8-bit JPEG", fr.Precision)
	case fr.Height == 0 && fr.Width > 0:
		return unusable(UnusableNoHeight, "its header gives it no height (%d×0), left to a DNL segment that common decoders do not read", fr.Width)
	}
	return checkFrameSize(fr.Width, fr.Height)
}

// checkFrameSize refuses, from its header alone, a frame without height or
// width, or with more pixels than any camera sends.
func checkFrameSize(w, h int) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%w: its header gives it no height or no width (%d×%d), which common decoders cannot read", ErrNotImage, w, h)
	}
	if px := int64(w) * int64(h); px > MaxFramePixels {
		return &UnusableError{Why: UnusableTooLarge, Detail: fmt.Sprintf("its header claims %d×%d pixels (%d megapixels), more than any camera sends", w, h, px/1_000_000)}
	}
	return nil
}

// Unusability says which setting of the camera err blames, or 0 when err
// is not a frame refused from its header.
func Unusability(err error) Unusable {
	var ue *UnusableError
	if errors.As(err, &ue) {
		return ue.Why
	}
	return 0
}
