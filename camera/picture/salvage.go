package picture

import (
	"context"
	"errors"
	"fmt"
	"image"

	"maison/jpegfix"
	"maison/jpegscale"
)

// minShown is how much of a damaged frame must decode for its part to be
// shown rather than nothing: half the picture.
const minShown = 0.5

// Damage says what of a frame the camera sent damaged, when only the part
// that decodes is shown.
type Damage struct {
	Missing  []Band  // parts left grey: missing, or damaged beyond decoding
	Coarse   []Band  // parts that came without their finer detail
	Softened bool    // the whole picture is a little less sharp than the camera made it
	Shown    float64 // the share of the picture shown, 0.5 to 1
	// Across: the bands run from left to right rather than from top to
	// bottom (a camera mounted sideways, turned upright by its Exif
	// orientation).
	Across bool
	Reason string // what jpegfix found, in English, for the log and maison check
}

// Band is a part of the picture between two edges, as shares of its height
// (or of its width when Damage.Across): 0 at the top (left), 1 at the
// bottom (right).
type Band struct{ From, To float64 }

// ErrTooDamaged is a frame of which too little decodes to be worth showing.
var ErrTooDamaged = errors.New("camera: too little of the damaged frame decodes to be shown")

// Salvage reads the part of a damaged frame that decodes: it is decoded,
// at the size a fit to l needs, as far as it goes (resuming at the next
// restart marker where the frame has them), and what does not decode is
// left grey; the Frame returned is those pixels, which its Fit turns
// upright and encodes afresh, a strict JPEG. At least half the picture
// must decode. rep is the report of the repair
// that refused raw, whose frame header and Exif orientation it read
// before refusing; cause is why it refused, kept in English in the Damage
// for the operator.
func Salvage(ctx context.Context, raw []byte, rep jpegfix.Report, l Limits, cause error) (Frame, Damage, error) {
	l = l.withDefaults()
	fr := rep.Frame
	if fr.Components == 0 || rep.Start >= len(raw) {
		return Frame{}, Damage{}, fmt.Errorf("%w: %w: its headers cannot be read", ErrNotImage, ErrTooDamaged)
	}
	src := raw[rep.Start:] // after any junk before the start of the image
	if err := checkFrameSize(fr.Width, fr.Height); err != nil {
		return Frame{}, Damage{}, err
	}
	if err := admitHeader(fr); err != nil {
		return Frame{}, Damage{}, err
	}
	o := fr.Orientation
	w, h := fitSize(fr.Width, fr.Height, l) // as stored: turning comes after
	hdr, err := jpegscale.ReadHeader(src)
	if err != nil {
		return Frame{}, Damage{}, fmt.Errorf("%w: %w: %w", ErrNotImage, ErrTooDamaged, err)
	}
	// The part that decodes is measured here and decoded again for each
	// picture made of it: only this decode is admitted here.
	scale, n, err := plan(hdr, image.Pt(fr.Width, fr.Height), image.Pt(w, h), image.Rectangle{}, false, l, func(image.Point) image.Point { return image.Point{} })
	if err != nil {
		return Frame{}, Damage{}, err
	}
	release, err := l.admit(ctx, n)
	if err != nil {
		return Frame{}, Damage{}, err
	}
	defer release()
	_, _, cov, err := jpegscale.DecodePartial(src, ceilDiv(fr.Width, scale), ceilDiv(fr.Height, scale))
	if err != nil {
		return Frame{}, Damage{}, fmt.Errorf("%w: %w: %w", ErrNotImage, ErrTooDamaged, err)
	}
	d := damageOf(cov, o)
	if d.Shown < minShown {
		return Frame{}, d, fmt.Errorf("%w: %w: %.0f%% of it decodes", ErrNotImage, ErrTooDamaged, 100*d.Shown)
	}
	if cause != nil {
		var fe jpegfix.FormatError
		if errors.As(cause, &fe) {
			d.Reason = fe.Reason
		} else {
			d.Reason = cause.Error()
		}
	}
	// Only the damaged bytes are kept: a picture of them decodes them
	// again, admitted then, so no pixels are held between pictures.
	return Frame{body: src, info: fr, damaged: true}, d, nil
}

// damageOf turns a partial decode's coverage into bands of the upright
// picture, given the Exif orientation o.
func damageOf(cov jpegscale.Coverage, o int) Damage {
	d := Damage{Shown: cov.Shown(), Softened: cov.Softened}
	n := float64(len(cov.Rows))
	collect := func(has func(jpegscale.Row) bool) []Band {
		var out []Band
		for i, r := range cov.Rows {
			if !has(r) {
				continue
			}
			from, to := float64(i)/n, float64(i+1)/n
			if k := len(out) - 1; k >= 0 && out[k].To == from {
				out[k].To = to
				continue
			}
			out = append(out, Band{from, to})
		}
		return out
	}
	d.Missing = collect(func(r jpegscale.Row) bool { return r.Missing > 0 })
	d.Coarse = collect(func(r jpegscale.Row) bool { return r.Coarse > 0 && r.Missing == 0 })
	// Exif orientation (upright): 3 turns the picture half round and 4
	// flips it top to bottom; 5 to 8 turn stored rows into columns, the top
	// row ending on the left (5, 8) or on the right (6, 7).
	flip := o == 3 || o == 4 || o == 6 || o == 7
	d.Across = o >= 5 && o <= 8
	if flip {
		for _, bs := range [][]Band{d.Missing, d.Coarse} {
			for i, b := range bs {
				bs[i] = Band{1 - b.To, 1 - b.From}
			}
			for i, j := 0, len(bs)-1; i < j; i, j = i+1, j-1 {
				bs[i], bs[j] = bs[j], bs[i]
			}
		}
	}
	return d
}
