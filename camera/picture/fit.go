// Package picture is what is done to a camera's bytes, with no I/O and no
// words for people: the repair pass, the fit to the limits the caller
// gives (long edge, pixels, bytes within the result budget), the salvage
// of a damaged frame, the cut of a region, and the overview grid with its
// labels. Every picture it returns has passed jpegfix.Check.
package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/png" // some cameras answer PNG; it is decoded and sent on as JPEG
	"math"

	"github.com/disintegration/imaging"

	"maison/internal/jpegenc"
	"maison/jpegfix"
	"maison/jpegscale"
)

// Limits is the image budget clients accept.
type Limits struct {
	MaxEdge   int // longest side in pixels; zero means 1568
	MaxPixels int // width × height; zero means 1,150,000
	// MaxBytes bounds the JPEG's bytes. Zero means DefaultMaxBytes.
	MaxBytes int
	// Memory is the process's budget every decode is admitted against.
	// Nil gives each call a budget of DefaultMemory of its own: the same
	// choice of scale, and no wait.
	Memory *Memory
}

// DefaultMaxBytes is the picture's share of the default result budget: a
// whole tool result, base64 and all, within 140,000 characters (the Claude
// app takes about 150,000) leaves about 105,000 bytes of JPEG once the
// spoken description and the JSON around it are counted.
const DefaultMaxBytes = 100_000

// The size the fitting never goes below unless it must, and the smallest
// it ever tries.
const (
	floorEdge = 1024
	leastEdge = 160
)

func (l Limits) withDefaults() Limits {
	if l.MaxEdge == 0 {
		l.MaxEdge = 1568
	}
	if l.MaxPixels == 0 {
		l.MaxPixels = 1_150_000
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
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
	// Reduced is set when the frame was made smaller than the usual fit to
	// stay within MaxBytes, after quality alone was not enough.
	Reduced bool
}

// MuchSmaller reports whether the picture had to be made much smaller than
// usual: below about 1024 pixels on its long side to fit the byte budget,
// which loses detail a person would notice.
func (f Fitted) MuchSmaller() bool { return f.Reduced && max(f.Width, f.Height) < floorEdge }

// FitBytes fits an already fitted, upright JPEG within maxBytes: passed
// through when it fits, otherwise re-encoded, quality first and then size.
// It is the tool result guard's last resort, which a picture fitted to the
// result budget in the first place never needs.
func FitBytes(ctx context.Context, src []byte, l Limits) (Fitted, error) {
	f := ReadFrame(src)
	f.info.Orientation = 1
	return checked(fitFrame(ctx, f, l, false))
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
// stepping quality down until the bytes fit. src is a strict JPEG, such as
// jpegfix.Repair writes (its orientation and size are read from its
// headers), or a picture in another format the standard decoders read.
func Fit(ctx context.Context, src []byte, l Limits) (Fitted, error) {
	return ReadFrame(src).Fit(ctx, l)
}

// FitSize is the largest size with the same aspect as w×h that respects
// l, zero limits meaning their defaults.
func FitSize(w, h int, l Limits) (int, int) { return fitSize(w, h, l.withDefaults()) }

// checked passes fit on only once jpegfix.Check accepts its bytes: every
// picture that leaves this package is a strict JPEG.
func checked(fit Fitted, err error) (Fitted, error) {
	if err != nil {
		return Fitted{}, err
	}
	if err := jpegfix.Check(fit.JPEG); err != nil {
		return Fitted{}, fmt.Errorf("camera: the fitted picture is not a strict JPEG: %w", err)
	}
	return fit, nil
}

// fitFrame is Fit of a frame whose headers jpegfix has read; with reencode,
// a frame that already fits is re-encoded all the same (one whose data
// jpegfix could not walk is never passed on as it came). Every decode is
// admitted against l's Memory for what it and the fit after it hold.
func fitFrame(ctx context.Context, f Frame, l Limits, reencode bool) (Fitted, error) {
	l = l.withDefaults()
	if !f.IsJPEG() {
		return fitOther(ctx, f.body, l)
	}
	fr := f.info
	if err := checkFrameSize(fr.Width, fr.Height); err != nil {
		return Fitted{}, err
	}
	hdr, err := jpegscale.ReadHeader(f.body)
	if err != nil {
		return Fitted{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	if fr.Orientation <= 1 && !reencode {
		w, h := fitSize(fr.Width, fr.Height, l)
		if w == fr.Width && h == fr.Height && len(f.body) <= l.MaxBytes {
			out := Fitted{JPEG: f.body, Width: w, Height: h, SourceWidth: w, SourceHeight: h}
			out.Luma = dcLuma(ctx, f.body, hdr, l)
			return out, nil
		}
	}
	turned := fr.Orientation > 1
	want := image.Pt(fitSize(fr.Width, fr.Height, l)) // as stored: turning comes after
	scale, n, err := plan(hdr, image.Pt(fr.Width, fr.Height), want, image.Rectangle{}, turned, l, func(dec image.Point) image.Point {
		return image.Pt(fitSize(dec.X, dec.Y, l))
	})
	if err != nil {
		return Fitted{}, err
	}
	release, err := l.admit(ctx, n)
	if err != nil {
		return Fitted{}, err
	}
	defer release()
	img, _, err := decodeScaled(f, scale)
	if err != nil {
		return Fitted{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return fitImage(img, image.Rect(0, 0, fr.Width, fr.Height), fr.Orientation, l)
}

// dcLuma is the pixel facts of a JPEG from its DC terms alone (an eighth
// of each side, no IDCT), admitted against l's Memory; nil when they
// cannot be read.
func dcLuma(ctx context.Context, body []byte, hdr jpegscale.Header, l Limits) *Stats {
	release, err := l.admit(ctx, afterSlack+hdr.DecodeBytes(8, image.Rectangle{}))
	if err != nil {
		return nil
	}
	defer release()
	small, err := jpegscale.Decode(body, 8)
	if err != nil {
		return nil
	}
	st := lumaStats(small)
	return &st
}

// fitOther fits a picture that is not a JPEG (some cameras answer PNG),
// decoded whole by the standard decoders once its header is checked and
// its decode admitted; a picture at least twice the fitted size on each
// side is first reduced by a whole factor, and what the decoder held
// besides its result is given back before the fit is admitted.
func fitOther(ctx context.Context, src []byte, l Limits) (Fitted, error) {
	cfg, format, err := configOther(src)
	if err != nil {
		return Fitted{}, err
	}
	dec := image.Pt(cfg.Width, cfg.Height)
	want := image.Pt(fitSize(dec.X, dec.Y, l))
	k := 1
	if reducible(cfg) {
		k = max(1, min(dec.X/want.X, dec.Y/want.Y))
	}
	held := image.Pt(ceilDiv(dec.X, k), ceilDiv(dec.Y, k))
	heldBytes := pixelBytes(cfg, held)
	decode := otherBytes(src, format, cfg)
	if k == 1 {
		decode -= heldBytes // the decoded picture is what is held
	}
	after := afterDecode(held, image.Pt(fitSize(held.X, held.Y, l)), false, l.MaxBytes)
	if n := heldBytes + max(decode, after); n > l.budget() {
		return Fitted{}, tooLargeWhole(n, l.budget())
	}
	releaseHeld, err := l.admit(ctx, heldBytes)
	if err != nil {
		return Fitted{}, err
	}
	defer releaseHeld()
	releaseDecode, err := l.admit(ctx, decode)
	if err != nil {
		return Fitted{}, err
	}
	img, sb, err := decodeOther(src)
	if err == nil && k > 1 {
		img = boxReduce(img, k)
	}
	releaseDecode()
	if err != nil {
		return Fitted{}, err
	}
	releaseAfter, err := l.admit(ctx, after)
	if err != nil {
		return Fitted{}, err
	}
	defer releaseAfter()
	return fitImage(img, sb, 1, l)
}

// reducible reports whether a picture that is not a JPEG decodes to
// 8-bit RGB(A) pixels, which boxReduce takes.
func reducible(cfg image.Config) bool {
	return cfg.ColorModel == color.RGBAModel || cfg.ColorModel == color.NRGBAModel
}

// boxReduce averages each k×k block of an 8-bit RGB(A) picture into one
// pixel, keeping its type; any other picture is returned as it is.
func boxReduce(img image.Image, k int) image.Image {
	var pix []uint8
	var stride int
	b := img.Bounds()
	var out image.Image
	var dst []uint8
	var dstStride int
	w, h := ceilDiv(b.Dx(), k), ceilDiv(b.Dy(), k)
	switch m := img.(type) {
	case *image.RGBA:
		pix, stride = m.Pix, m.Stride
		d := image.NewRGBA(image.Rect(0, 0, w, h))
		out, dst, dstStride = d, d.Pix, d.Stride
	case *image.NRGBA:
		pix, stride = m.Pix, m.Stride
		d := image.NewNRGBA(image.Rect(0, 0, w, h))
		out, dst, dstStride = d, d.Pix, d.Stride
	default:
		return img
	}
	for y := range h {
		y0, y1 := y*k, min((y+1)*k, b.Dy())
		for x := range w {
			x0, x1 := x*k, min((x+1)*k, b.Dx())
			var sum [4]int
			for sy := y0; sy < y1; sy++ {
				row := pix[sy*stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					sum[0] += int(p[0])
					sum[1] += int(p[1])
					sum[2] += int(p[2])
					sum[3] += int(p[3])
				}
			}
			n := (y1 - y0) * (x1 - x0)
			o := dst[y*dstStride+x*4:]
			for c := range 4 {
				o[c] = uint8((sum[c] + n/2) / n)
			}
		}
	}
	return out
}

// fitImage turns img upright (Exif orientation o), resizes it to fit l and
// encodes it, stepping quality down until the bytes fit. sb is the frame's
// full stored size, which img may be a reduced decode of.
func fitImage(img image.Image, sb image.Rectangle, o int, l Limits) (Fitted, error) {
	img = upright(img, o)
	b := img.Bounds()
	w, h := fitSize(sb.Dx(), sb.Dy(), l)
	if o >= 5 { // stored sideways: the upright frame's sides are swapped
		w, h = h, w
	}
	if w > b.Dx() || h > b.Dy() {
		// Decoded smaller than the fit, to stay within the memory
		// budget: never enlarged.
		w, h = b.Dx(), b.Dy()
	}
	if w != b.Dx() || h != b.Dy() {
		img = resize(img, w, h)
	}
	stats := lumaStats(img)
	out, err := encodeWithin(img, l.MaxBytes)
	if err != nil {
		return Fitted{}, err
	}
	out.SourceWidth, out.SourceHeight, out.Luma = sb.Dx(), sb.Dy(), &stats
	return out, nil
}

// encodeWithin encodes img within maxBytes, giving up quality first and
// size only after: quality 80 down to 50 at the fitted size; then smaller
// sizes down to about 1024 pixels on the long side at quality 50; then
// quality 40 and 30 there; and only then smaller still. Noisy night frames,
// 4K frames and frames full of detail all end within the budget.
func encodeWithin(img image.Image, maxBytes int) (Fitted, error) {
	// Each size is converted and transformed once (jpegenc, whose bytes
	// are image/jpeg's); each quality tried on it is only quantised and
	// coded again.
	var buf []byte
	var pic *jpegenc.Picture
	prepare := func(m image.Image) error {
		p, err := jpegenc.Prepare(m)
		if err != nil {
			return fmt.Errorf("camera: encoding the fitted frame: %w", err)
		}
		pic = p
		return nil
	}
	encode := func(q int) (Fitted, bool) {
		buf = pic.Append(buf[:0], q)
		f := Fitted{JPEG: buf, Width: pic.Width(), Height: pic.Height(), Reencoded: true, Quality: q}
		if len(buf) > maxBytes {
			return f, false // only its length is read: the next try writes buf again
		}
		f.JPEG = bytes.Clone(buf)
		return f, true
	}
	if err := prepare(img); err != nil {
		return Fitted{}, err
	}
	// Qualities whose size, guessed from quality 80's, would still be too
	// large are skipped; 50 is always tried before the size goes down.
	first := 0
	for _, step := range []struct {
		q     int
		ratio float64 // typical size against quality 80's
	}{{80, 1}, {70, 0.80}, {60, 0.68}, {50, 0}} {
		if step.q != 80 && step.q != 50 && float64(first)*step.ratio > float64(maxBytes)*1.05 {
			continue
		}
		f, ok := encode(step.q)
		if ok {
			return f, nil
		}
		if first == 0 {
			first = len(f.JPEG)
		}
	}
	b := img.Bounds()
	full := max(b.Dx(), b.Dy())
	long, got := full, len(buf)
	// Each smaller size is guessed from how far over the last try was:
	// bytes go roughly with the pixel count.
	shrink := func(floor int) {
		ratio := math.Sqrt(float64(maxBytes)/float64(got)) * 0.95
		long = max(int(float64(long)*min(max(ratio, 0.5), 0.92)), floor)
	}
	for long > floorEdge {
		shrink(floorEdge)
		if err := prepare(resized(img, long)); err != nil {
			return Fitted{}, err
		}
		f, ok := encode(50)
		if ok {
			f.Reduced = true
			return f, nil
		}
		got = len(f.JPEG)
	}
	// The picture last prepared is already at this size.
	for _, q := range []int{40, 30} {
		f, ok := encode(q)
		if ok {
			f.Reduced = long < full
			return f, nil
		}
		got = len(f.JPEG)
	}
	for long > leastEdge {
		shrink(leastEdge)
		if err := prepare(resized(img, long)); err != nil {
			return Fitted{}, err
		}
		f, ok := encode(30)
		if ok {
			f.Reduced = true
			return f, nil
		}
		got = len(f.JPEG)
	}
	return Fitted{}, fmt.Errorf("camera: the frame stays over %d bytes even at %d pixels and low quality", maxBytes, leastEdge)
}

// resized scales img so its long side is long, keeping its aspect.
func resized(img image.Image, long int) image.Image {
	b := img.Bounds()
	if max(b.Dx(), b.Dy()) == long {
		return img
	}
	scale := float64(long) / float64(max(b.Dx(), b.Dy()))
	return resize(img, max(1, int(float64(b.Dx())*scale+0.5)), max(1, int(float64(b.Dy())*scale+0.5)))
}

// resize scales img to w×h with jpegscale's Lanczos filter, or with the
// imaging library's for an image type jpegscale does not take.
func resize(img image.Image, w, h int) image.Image {
	if r, err := jpegscale.Resize(img, w, h); err == nil {
		return r
	}
	return imaging.Resize(img, w, h, imaging.Lanczos)
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

// decodeOther decodes a picture that is not a JPEG (some cameras answer
// PNG) with the standard decoders, once its header is checked.
func decodeOther(src []byte) (image.Image, image.Rectangle, error) {
	if _, _, err := configOther(src); err != nil {
		return nil, image.Rectangle{}, err
	}
	img, _, err := image.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, image.Rectangle{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return img, img.Bounds(), nil
}

// configOther reads the header of a picture that is not a JPEG and
// refuses one claiming more than MaxFramePixels.
func configOther(src []byte) (image.Config, string, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(src))
	if err != nil {
		return cfg, format, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return cfg, format, checkFrameSize(cfg.Width, cfg.Height)
}

// pixelBytes is what a decoded picture of size p takes: four bytes a
// pixel, eight for 16-bit colour models.
func pixelBytes(cfg image.Config, p image.Point) int64 {
	px := int64(p.X) * int64(p.Y)
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model:
		return px * 8
	}
	return px * 4
}

// otherBytes is what the standard decoders allocate for a picture of
// format, its result included, as measured: a PNG's pixels (an interlaced
// PNG's passes are decoded apart, then merged: twice), a TIFF's data read
// whole and grown as it is read besides its pixels (up to five times
// them), any other format twice its pixels; and the decoder's own buffers.
func otherBytes(src []byte, format string, cfg image.Config) int64 {
	px := pixelBytes(cfg, image.Pt(cfg.Width, cfg.Height))
	switch {
	case format == "png" && !interlacedPNG(src):
		return afterSlack + px
	case format == "tiff":
		return afterSlack + 5*px
	}
	return afterSlack + 2*px
}

// interlacedPNG reports whether a PNG's header says Adam7 interlacing.
func interlacedPNG(src []byte) bool {
	// The signature (8 bytes), IHDR's length and type (8), then width,
	// height, depth, colour type, compression, filter, interlace.
	return len(src) > 28 && string(src[12:16]) == "IHDR" && src[28] != 0
}
