package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"slices"

	"maison/jpegfix"
	"maison/jpegscale"
)

// Frame is a camera's picture on its way to a client: its repaired bytes
// and what jpegfix read of them in the repair pass, or for a damaged frame
// the part of it that decodes (see Salvage). Nothing after the repair
// reads the JPEG's segments again, and every picture made from it (the
// fit, a cut part, an overview tile) is made from these pixels, never from
// another picture already encoded.
type Frame struct {
	body []byte
	// info is the frame header and the Exif orientation; Components is 0
	// when body is not a JPEG (some cameras answer PNG), which the
	// standard decoders then judge.
	info jpegfix.Frame
	// reencode is set when jpegfix could not walk the image data: such a
	// frame is never passed on as it came.
	reencode bool
	// damaged is set for the part of a damaged frame that decodes: body is
	// the damaged bytes, decoded again (within the memory budget) when a
	// picture is made of them, grey where they do not decode; no pixels
	// are kept between pictures.
	damaged bool
}

// IsJPEG reports whether jpegfix read the frame as a JPEG.
func (f Frame) IsJPEG() bool { return f.info.Components > 0 }

// Orientation is the frame's Exif orientation, 1 to 8, or 0 when it is not
// a JPEG.
func (f Frame) Orientation() int { return f.info.Orientation }

// ReadFrame reads the headers of a strict JPEG, such as a frame fitted
// before; anything else is left to the standard decoders.
func ReadFrame(src []byte) Frame {
	info, err := jpegfix.ReadFrame(src)
	if err != nil {
		return Frame{body: src}
	}
	return Frame{body: src, info: info}
}

// repairPolicy is the camera path's one pass over a frame: repaired
// losslessly, its image data walked as a strict decoder reads it, every
// comment dropped and all metadata decoding does not need, so no camera
// serial or location leaves the house. The Exif orientation is read
// before the metadata goes.
// A frame no client could be shown is refused from its header, before
// its data is walked (admitHeader).
var repairPolicy = jpegfix.Options{VerifyData: true, StripMetadata: true, Admit: admitHeader}

// Repair repairs a camera's bytes in one pass (see repairPolicy). Bytes
// that are not a JPEG are passed on as they are, for the standard decoders
// to judge. A frame whose data jpegfix cannot walk says why in
// rep.Unchecked, and is re-encoded by Fit. The report lists what was
// repaired, not the metadata the policy drops; a refusal wraps jpegfix's
// FormatError.
func Repair(raw []byte) (Frame, jpegfix.Report, error) {
	body, rep, err := repairPolicy.Repair(raw)
	rep.Fixes = slices.DeleteFunc(rep.Fixes, func(f jpegfix.Fix) bool { return f.Kind == jpegfix.FixMetadata })
	if err != nil {
		var fe jpegfix.FormatError
		if errors.As(err, &fe) && fe.Problem == jpegfix.ProblemNotJPEG {
			return Frame{body: raw}, jpegfix.Report{}, nil
		}
		if Unusability(err) != 0 {
			return Frame{}, rep, err
		}
		return Frame{}, rep, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	// A frame whose data jpegfix could not walk, or whose colours are not
	// the grey or Y'CbCr every client shows (RGB, CMYK, YCCK), is
	// re-encoded.
	reencode := rep.Unchecked != "" || !jpegscale.Standard(body)
	return Frame{body: body, info: rep.Frame, reencode: reencode}, rep, nil
}

// Process is the whole path of a camera frame's bytes, in one pass over
// its segments: Repair, then Fit to l from what the repair read. A frame
// whose data jpegfix cannot walk (arithmetic or 12-bit coding, say) is
// decoded and re-encoded rather than passed on as it is.
func Process(ctx context.Context, raw []byte, l Limits) (Fitted, jpegfix.Report, error) {
	f, rep, err := Repair(raw)
	if err != nil {
		return Fitted{}, rep, err
	}
	fit, err := f.Fit(ctx, l)
	return fit, rep, err
}

// Fit makes the frame fit l: passed through when it already does (and
// jpegfix walked its data), otherwise decoded, turned upright, resized and
// re-encoded, quality first and then size. The part of a damaged frame
// that decodes carries no pixel facts: they would speak of the grey.
func (f Frame) Fit(ctx context.Context, l Limits) (Fitted, error) {
	fit, err := fitFrame(ctx, f, l, f.reencode || f.damaged)
	if f.damaged {
		fit.Luma = nil
	}
	return checked(fit, err)
}

// Luma is the frame's pixel facts from the DC terms alone (an eighth of
// each side, no IDCT), as the fit reports them for a frame it passes
// through; nil when the frame is not a JPEG jpegscale reads, or is the
// part of a damaged one.
func (f Frame) Luma(ctx context.Context, l Limits) *Stats {
	if f.damaged || !f.IsJPEG() {
		return nil
	}
	hdr, err := jpegscale.ReadHeader(f.body)
	if err != nil {
		return nil
	}
	return dcLuma(ctx, f.body, hdr, l)
}

// Size is the stored size of the frame's pixels, as its header says,
// refused when it claims more than any camera sends.
func (f Frame) Size() (image.Point, error) {
	if f.IsJPEG() || f.damaged {
		return image.Pt(f.info.Width, f.info.Height), checkFrameSize(f.info.Width, f.info.Height)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(f.body))
	if err != nil {
		return image.Point{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return image.Pt(cfg.Width, cfg.Height), checkFrameSize(cfg.Width, cfg.Height)
}

// Upright is the frame's size as a person sees it, turned by its Exif
// orientation.
func (f Frame) Upright() (image.Point, error) {
	p, err := f.Size()
	if f.info.Orientation >= 5 {
		p.X, p.Y = p.Y, p.X
	}
	return p, err
}

// Held is the bytes the frame holds while it is kept: its repaired bytes,
// or for a damaged frame the bytes the camera sent (never its pixels).
func (f Frame) Held() int64 { return int64(len(f.body)) }
