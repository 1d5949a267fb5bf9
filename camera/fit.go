package camera

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png" // some cameras answer PNG; it is decoded and sent on as JPEG
	"math"

	"github.com/disintegration/imaging"

	"maison/jpegscale"
)

// Limits is the image budget clients accept.
type Limits struct {
	MaxEdge   int // longest side in pixels; zero means 1568
	MaxPixels int // width × height; zero means 1,150,000
	MaxBytes  int // raw JPEG bytes, so the whole tool result stays under 1 MiB after base64; zero means 700,000
}

func (l Limits) withDefaults() Limits {
	if l.MaxEdge == 0 {
		l.MaxEdge = 1568
	}
	if l.MaxPixels == 0 {
		l.MaxPixels = 1_150_000
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = 700_000
	}
	return l
}

// Fitted is a frame ready to leave the server.
type Fitted struct {
	JPEG          []byte
	Width, Height int
	// SourceWidth and SourceHeight are the frame's size as the camera sent it.
	SourceWidth, SourceHeight int
	Reencoded                 bool   // false when the repaired frame already fit and was passed through untouched
	Quality                   int    // encoder quality when Reencoded
	Luma                      *Stats // pixel facts, when the frame was decoded
	// Damage is set when only the part of a damaged frame that decodes
	// was fitted (see Salvage).
	Damage *Damage
}

// Stats are facts measured from the pixels.
type Stats struct {
	Mean   float64 // mean luma, 0..255
	StdDev float64 // luma spread; near zero means a uniform frame
}

// ErrNotImage is returned when the camera's bytes are not a picture at all.
var ErrNotImage = errors.New("camera: the camera sent something that is not a picture")

// fitSize returns the largest size with the same aspect that respects l.
func fitSize(w, h int, l Limits) (int, int) {
	scale := 1.0
	if long := max(w, h); long > l.MaxEdge {
		scale = float64(l.MaxEdge) / float64(long)
	}
	if px := float64(w) * float64(h) * scale * scale; px > float64(l.MaxPixels) {
		scale *= math.Sqrt(float64(l.MaxPixels) / px)
	}
	nw, nh := int(float64(w)*scale), int(float64(h)*scale)
	return max(nw, 1), max(nh, 1)
}

// Fit makes a frame fit l: passed through when it already does, otherwise
// decoded, turned upright (Exif orientation), resized and re-encoded,
// stepping quality down until the bytes fit. Fit reads the orientation from
// src, so call it before metadata is stripped, or pass it with FitOriented.
func Fit(src []byte, l Limits) (Fitted, error) {
	return FitOriented(src, orientation(src), l)
}

// FitOriented is Fit with the Exif orientation o (1..8) already read.
func FitOriented(src []byte, o int, l Limits) (Fitted, error) {
	l = l.withDefaults()
	isJPEG := len(src) >= 3 && src[0] == 0xFF && src[1] == 0xD8 && src[2] == 0xFF
	if isJPEG && o <= 1 {
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(src))
		if err != nil {
			return Fitted{}, fmt.Errorf("%w: %v", ErrNotImage, err)
		}
		w, h := fitSize(cfg.Width, cfg.Height, l)
		if w == cfg.Width && h == cfg.Height && len(src) <= l.MaxBytes {
			f := Fitted{JPEG: src, Width: w, Height: h, SourceWidth: w, SourceHeight: h}
			// Pixel facts from the DC terms alone: an eighth of each side, no IDCT.
			if small, err := jpegscale.Decode(src, 8); err == nil {
				st := lumaStats(small)
				f.Luma = &st
			}
			return f, nil
		}
	}
	img, sb, err := decodeFor(src, isJPEG, o, l)
	if err != nil {
		return Fitted{}, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	return fitImage(img, sb, o, l)
}

// fitImage turns img upright (Exif orientation o), resizes it to fit l and
// encodes it, stepping quality down until the bytes fit. sb is the frame's
// full stored size, which img may be a reduced decode of.
func fitImage(img image.Image, sb image.Rectangle, o int, l Limits) (Fitted, error) {
	img = upright(img, o)
	b := img.Bounds()
	w, h := fitSize(sb.Dx(), sb.Dy(), l)
	if o >= 5 { // stored sideways: the upright frame's sides are swapped
		w, h = fitSize(sb.Dy(), sb.Dx(), l)
	}
	if w != b.Dx() || h != b.Dy() {
		if r, err := jpegscale.Resize(img, w, h); err == nil {
			img = r
		} else {
			img = imaging.Resize(img, w, h, imaging.Lanczos)
		}
	}
	stats := lumaStats(img)
	var buf bytes.Buffer
	for _, q := range []int{80, 70, 60, 50, 40, 30} {
		buf.Reset()
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
			return Fitted{}, fmt.Errorf("camera: encoding the fitted frame: %w", err)
		}
		if buf.Len() <= l.MaxBytes {
			return Fitted{JPEG: bytes.Clone(buf.Bytes()), Width: w, Height: h, SourceWidth: sb.Dx(), SourceHeight: sb.Dy(), Reencoded: true, Quality: q, Luma: &stats}, nil
		}
	}
	return Fitted{}, fmt.Errorf("camera: the frame stays over %d bytes even at low quality", l.MaxBytes)
}

// lumaStats samples the image's luma on a grid.
func lumaStats(img image.Image) Stats {
	b := img.Bounds()
	step := max(1, min(b.Dx(), b.Dy())/64)
	var n, sum, sq float64
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			lum := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum += lum
			sq += lum * lum
			n++
		}
	}
	if n == 0 {
		return Stats{}
	}
	mean := sum / n
	return Stats{Mean: mean, StdDev: math.Sqrt(max(0, sq/n-mean*mean))}
}

// maxSourcePixels bounds the frames decoded: 64 megapixels, beyond any
// camera's frame. A header that claims more is refused before a decoder
// allocates for it (a progressive JPEG decoder keeps every coefficient).
const maxSourcePixels = 64 << 20

// tooLarge says why a frame of w×h pixels is not decoded, or "".
func tooLarge(w, h int) string {
	if int64(w)*int64(h) > maxSourcePixels {
		return fmt.Sprintf("its header claims %d×%d pixels, more than any camera sends", w, h)
	}
	return ""
}

// decodeFor decodes src no larger than the fit needs: a JPEG is decoded in the
// DCT domain at the smallest 1/n scale that still covers the fitted size, so a
// 4K frame bound for 1429x804 costs a 1920x1080 decode. It returns the image
// and the frame's full stored bounds. Anything jpegscale does not handle goes
// to the standard decoders. A frame claiming more than maxSourcePixels is
// refused unread.
func decodeFor(src []byte, isJPEG bool, o int, l Limits) (image.Image, image.Rectangle, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(src))
	if err != nil {
		return nil, image.Rectangle{}, err
	}
	if why := tooLarge(cfg.Width, cfg.Height); why != "" {
		return nil, image.Rectangle{}, errors.New(why)
	}
	if isJPEG {
		full := image.Rect(0, 0, cfg.Width, cfg.Height)
		w, h := fitSize(cfg.Width, cfg.Height, l)
		if o >= 5 {
			h, w = fitSize(cfg.Height, cfg.Width, l)
		}
		if img, _, err := jpegscale.DecodeAtLeast(src, w, h); err == nil {
			return img, full, nil
		}
	}
	img, _, err := image.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, image.Rectangle{}, err
	}
	return img, img.Bounds(), nil
}
