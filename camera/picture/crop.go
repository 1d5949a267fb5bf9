package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"

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
// 1/n scale that still holds the part at its fitted size, and fits it to l.
func (f Frame) Crop(want image.Rectangle, l Limits) (Cut, error) {
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
	scale := 1
	if f.IsJPEG() {
		for s := 8; s > 1; s /= 2 {
			if want.Dx()/s >= fw && want.Dy()/s >= fh {
				scale = s
				break
			}
		}
	}
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

// decodeScaled decodes a frame at 1/scale of its size in the DCT domain
// when jpegscale can, else at full size with the standard decoders; it
// returns the scale it decoded at.
func decodeScaled(f Frame, scale int) (image.Image, int, error) {
	if f.IsJPEG() {
		if img, err := jpegscale.Decode(f.body, scale); err == nil {
			return img, scale, nil
		}
		img, err := jpeg.Decode(bytes.NewReader(f.body))
		return img, 1, err
	}
	img, _, err := image.Decode(bytes.NewReader(f.body))
	return img, 1, err
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
