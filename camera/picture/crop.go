package picture

import (
	"context"
	"fmt"
	"image"

	"maison/jpegscale"
)

// Cut is a part of a frame, fitted.
type Cut struct {
	Fitted
	// Shown is the part in the upright full frame's pixels, as cut: the
	// part asked for, widened to a few pixels' alignment.
	Shown image.Rectangle
	// Closer is how much larger the part appears than in the whole
	// frame's fit: 1 when the camera has no finer detail to give.
	Closer float64
}

// Crop cuts want (in the upright frame's pixels) out of the repaired
// frame, turned upright by its Exif orientation, decoding at the smallest
// 1/n scale that still holds the part at its fitted size (or smaller, when
// the memory budget asks it), and fits it to l.
func (f Frame) Crop(ctx context.Context, want image.Rectangle, l Limits) (Cut, error) {
	l = l.withDefaults()
	full, err := f.Size()
	if err != nil {
		return Cut{}, err
	}
	o := f.info.Orientation
	uw, uh := full.X, full.Y // upright size
	if o >= 5 {
		uw, uh = uh, uw
	}
	fw, fh := fitSize(want.Dx(), want.Dy(), l)
	scale, n, err := cropPlan(f, want, image.Pt(fw, fh), l)
	if err != nil {
		return Cut{}, err
	}
	release, err := l.admit(ctx, n)
	if err != nil {
		return Cut{}, err
	}
	defer release()
	part, cut, scale, err := cutOut(f, want, scale)
	if err != nil {
		return Cut{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	shown := image.Rect(cut.Min.X*scale, cut.Min.Y*scale, min(cut.Max.X*scale, uw), min(cut.Max.Y*scale, uh))
	fw, fh = fitSize(cut.Dx(), cut.Dy(), l)
	if fw != cut.Dx() || fh != cut.Dy() {
		part = resize(part, fw, fh)
	}
	stats := lumaStats(part)
	out, err := checked(encodeWithin(part, l.MaxBytes))
	if err != nil {
		return Cut{}, err
	}
	out.SourceWidth, out.SourceHeight, out.Luma = full.X, full.Y, &stats
	wholeW, _ := fitSize(uw, uh, l)
	return Cut{
		Fitted: out, Shown: shown,
		// Both as the limits' edges size them: the bytes shrink the part
		// and the whole alike, so they do not change how much closer.
		Closer: (float64(fw) / float64(shown.Dx())) / (float64(wholeW) / float64(uw)),
	}, nil
}

// cropPlan is the scale a part want (upright pixels) of f is decoded at,
// to be fitted to fit, and the bytes to admit: an upright JPEG decodes
// the part's window alone, any other frame whole.
func cropPlan(f Frame, want image.Rectangle, fit image.Point, l Limits) (int, int64, error) {
	fitTo := func(dec image.Point) image.Point { return image.Pt(fitSize(dec.X, dec.Y, l)) }
	if !f.IsJPEG() {
		cfg, format, err := configOther(f.body)
		if err != nil {
			return 0, 0, err
		}
		dec := image.Pt(cfg.Width, cfg.Height)
		n := otherBytes(f.body, format, cfg) + afterDecode(dec, fitTo(want.Size()), true, l.MaxBytes)
		if n > l.budget() {
			return 0, n, tooLargeWhole(n, l.budget())
		}
		return 1, n, nil
	}
	hdr, err := jpegscale.ReadHeader(f.body)
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	o := f.info.Orientation
	cover, r := want.Size(), want
	if o > 1 {
		r = image.Rectangle{} // decoded whole, then turned and cut
		if o >= 5 {
			cover.X, cover.Y, fit.X, fit.Y = cover.Y, cover.X, fit.Y, fit.X
		}
	}
	return plan(hdr, cover, fit, r, o > 1, l, fitTo)
}

// cutOut decodes the part want (upright pixels) of a frame whose Exif
// orientation is o at 1/scale, its corner moved onto the chroma grid (4 by
// 2 pixels covers every subsampling) so that the planes cut cleanly. An
// upright JPEG is cut in the decoder, which runs the inverse DCT of that
// part alone; anything else is decoded whole, turned upright and cut. It
// returns the part, where it lies at the scale decoded, and that scale.
func cutOut(f Frame, want image.Rectangle, scale int) (image.Image, image.Rectangle, int, error) {
	o := f.info.Orientation
	at := func(scale int) image.Rectangle {
		return image.Rect(want.Min.X/scale/4*4, want.Min.Y/scale/2*2, ceilDiv(want.Max.X, scale), ceilDiv(want.Max.Y, scale))
	}
	if o <= 1 && f.IsJPEG() {
		cut := at(scale)
		full := image.Rect(cut.Min.X*scale, cut.Min.Y*scale, cut.Max.X*scale, cut.Max.Y*scale)
		if part, err := jpegscale.DecodeRegion(f.body, scale, full); err == nil {
			return part, part.Bounds(), scale, nil
		}
	}
	img, scale, err := decodeScaled(f, scale)
	if err != nil {
		return nil, image.Rectangle{}, 0, err
	}
	img = upright(img, o)
	cut := at(scale).Intersect(img.Bounds())
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok || cut.Empty() {
		return nil, image.Rectangle{}, 0, fmt.Errorf("the part cannot be cut from a %T", img)
	}
	return sub.SubImage(cut), cut, scale, nil
}

// decodeScaled decodes a JPEG frame at 1/scale of its size in the DCT
// domain, and another picture (PNG) at full size with the standard
// decoders, after its header was checked; it returns the scale it decoded
// at.
func decodeScaled(f Frame, scale int) (image.Image, int, error) {
	if f.damaged {
		// The part that decodes, grey elsewhere, at the scale planned.
		img, got, _, err := jpegscale.DecodePartial(f.body, ceilDiv(f.info.Width, scale), ceilDiv(f.info.Height, scale))
		return img, got, err
	}
	if f.IsJPEG() {
		img, err := jpegscale.Decode(f.body, scale)
		return img, scale, err
	}
	img, _, err := decodeOther(f.body)
	return img, 1, err
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
