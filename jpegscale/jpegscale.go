// Package jpegscale decodes JPEG images at 1/1, 1/2, 1/4 or 1/8 of their size
// by computing a reduced inverse DCT for each 8x8 block (8x8, 4x4, 2x2 or the
// DC term alone) instead of decoding at full size and shrinking afterwards.
//
// The syntax follows ITU-T T.81 Annex B, sequential Huffman decoding Annex
// F.2, progressive decoding Annex G.2 and the inverse DCT section A.3.3.
// Supported: baseline and extended sequential (SOF0, SOF1) and progressive
// (SOF2) Huffman coding with 8-bit samples, one (grey) or three (YCbCr)
// components, chroma subsampling 4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1 and
// 4:1:0, and restart intervals. Anything else returns an UnsupportedError so
// that the caller can fall back to image/jpeg.
package jpegscale

import (
	"errors"
	"fmt"
	"image"
)

// FormatError reports input that is not a valid JPEG.
type FormatError string

func (e FormatError) Error() string { return "jpegscale: invalid JPEG: " + string(e) }

// UnsupportedError reports a valid JPEG that uses a feature this package does
// not decode (arithmetic coding, lossless, 12-bit, CMYK, RGB, ...). Callers
// should fall back to image/jpeg.
type UnsupportedError string

func (e UnsupportedError) Error() string { return "jpegscale: unsupported JPEG: " + string(e) }

// ErrScale is returned (wrapped) when the scale is not 1, 2, 4 or 8.
var ErrScale = errors.New("jpegscale: scale must be 1, 2, 4 or 8")

// Decode decodes a baseline or progressive JPEG at 1/scale of its size in each
// dimension, scale ∈ {1, 2, 4, 8}, computing a reduced inverse DCT per 8x8
// block (8x8, 4x4, 2x2 or DC only) instead of decoding full size and
// shrinking. The result is an *image.YCbCr (with the subsampling ratio of the
// file) or an *image.Gray, with bounds (0, 0, ⌈w/scale⌉, ⌈h/scale⌉).
func Decode(data []byte, scale int) (image.Image, error) {
	if scale != 1 && scale != 2 && scale != 4 && scale != 8 {
		return nil, fmt.Errorf("%w, not %d", ErrScale, scale)
	}
	d := new(decoder)
	return d.decode(data, func(int, int) int { return scale })
}

// DecodeRegion decodes, at 1/scale of its size, only the part of a JPEG
// within r (in the full-size image's pixels): every block is still read,
// since entropy-coded data can only be read in order, but only the blocks
// of the MCUs that r touches go through the inverse DCT and into memory.
// The result's bounds are r at 1/scale (⌊min/scale⌋ to ⌈max/scale⌉),
// within the image; its pixels are those Decode gives at the same places.
func DecodeRegion(data []byte, scale int, r image.Rectangle) (image.Image, error) {
	if scale != 1 && scale != 2 && scale != 4 && scale != 8 {
		return nil, fmt.Errorf("%w, not %d", ErrScale, scale)
	}
	if r.Empty() {
		return nil, FormatError("empty region")
	}
	d := &decoder{region: r}
	img, err := d.decode(data, func(int, int) int { return scale })
	if err != nil {
		return nil, err
	}
	want := image.Rect(r.Min.X/scale, r.Min.Y/scale, ceilDiv(r.Max.X, scale), ceilDiv(r.Max.Y, scale)).Intersect(img.Bounds())
	if want.Empty() {
		return nil, FormatError("region outside the image")
	}
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(want), nil
}

// DecodeAtLeast picks the largest scale whose output is still at least
// minW x minH (never smaller than asked) and decodes at it. An image already
// smaller than minW x minH is decoded at full size (scale 1).
func DecodeAtLeast(data []byte, minW, minH int) (image.Image, int, error) {
	chosen := 1
	d := new(decoder)
	img, err := d.decode(data, func(w, h int) int {
		chosen = pickScale(w, h, minW, minH)
		return chosen
	})
	if err != nil {
		return nil, 0, err
	}
	return img, chosen, nil
}

// pickScale returns the largest scale in {8, 4, 2} whose output of a w x h
// image is at least minW x minH, or 1.
func pickScale(w, h, minW, minH int) int {
	for s := 8; s > 1; s /= 2 {
		if ceilDiv(w, s) >= minW && ceilDiv(h, s) >= minH {
			return s
		}
	}
	return 1
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
