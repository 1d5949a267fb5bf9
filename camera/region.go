package camera

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"

	"maison/voice"
	"maison/words"
)

// Region is a part of a camera's picture, as the person sees it (upright),
// in fractions of its width and height: X and Y are the top left corner.
type Region struct {
	X, Y, Width, Height float64
	// horiz and vert are the named part's sides, when it was named: 'l',
	// 'r', 'c' (centre) or 0 for the whole of that side.
	horiz, vert byte
}

// Whole reports whether r is the whole picture (or the zero Region).
func (r Region) Whole() bool {
	return r.Width == 0 || r.X <= 0 && r.Y <= 0 && r.Width >= 1 && r.Height >= 1
}

// ErrRegion is wrapped by every error ParseRegion and Box return.
var ErrRegion = errors.New("camera: not a part of the picture")

// The words a named part is made of, in every language maison speaks,
// folded.
var (
	regionTop    = wordSet(words.HeardTop)
	regionBottom = wordSet(words.HeardBottom)
	regionLeft   = wordSet(words.HeardLeft)
	regionRight  = wordSet(words.HeardRight)
	regionCentre = wordSet(words.HeardCentre)
	// regionFiller are words people put around a part's name.
	regionFiller = wordSet(words.HeardFiller)
)

func wordSet(k words.Key) map[string]bool {
	m := map[string]bool{}
	for _, w := range words.Heard(k) {
		for _, f := range strings.Fields(voice.Fold(w)) {
			m[f] = true
		}
	}
	return m
}

// ParseRegion reads a named part of the picture as people say it, in any
// language maison speaks: "left", "top right", "the bottom left corner",
// "centre" or "center", "middle left", « en haut à droite », « milieu ».
// A side alone is that half; a corner is that quarter; the centre is the
// middle half of each side.
func ParseRegion(s string) (Region, error) {
	var horiz, vert byte
	centre := false
	set := func(axis *byte, v byte, word string) error {
		if *axis != 0 && *axis != v {
			return fmt.Errorf("%w: %q names two sides at once", ErrRegion, word)
		}
		*axis = v
		return nil
	}
	words := strings.Fields(voice.Fold(s))
	if len(words) == 0 {
		return Region{}, fmt.Errorf("%w: no part named", ErrRegion)
	}
	for _, w := range words {
		var err error
		switch {
		case regionTop[w]:
			err = set(&vert, 't', w)
		case regionBottom[w]:
			err = set(&vert, 'b', w)
		case regionLeft[w]:
			err = set(&horiz, 'l', w)
		case regionRight[w]:
			err = set(&horiz, 'r', w)
		case regionCentre[w]:
			centre = true
		case regionFiller[w]:
		default:
			return Region{}, fmt.Errorf("%w: %q is not a part's name", ErrRegion, w)
		}
		if err != nil {
			return Region{}, err
		}
	}
	if centre {
		if horiz == 0 {
			horiz = 'c'
		}
		if vert == 0 {
			vert = 'c'
		}
	}
	if horiz == 0 && vert == 0 {
		return Region{}, fmt.Errorf("%w: %q names no side", ErrRegion, s)
	}
	x, w := span(horiz)
	y, h := span(vert)
	return Region{X: x, Y: y, Width: w, Height: h, horiz: horiz, vert: vert}, nil
}

// span is where a named side starts and how far it runs along its axis.
func span(side byte) (float64, float64) {
	switch side {
	case 'l', 't':
		return 0, 0.5
	case 'r', 'b':
		return 0.5, 0.5
	case 'c':
		return 0.25, 0.5
	}
	return 0, 1
}

// Box is a part of the picture given in fractions of its width and height,
// from 0 to 1: its top left corner at x, y. A box running a little past an
// edge is cut at it.
func Box(x, y, width, height float64) (Region, error) {
	for _, v := range []float64{x, y, width, height} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1 {
			return Region{}, fmt.Errorf("%w: %v is not a fraction from 0 to 1", ErrRegion, v)
		}
	}
	if width == 0 || height == 0 {
		return Region{}, fmt.Errorf("%w: the box is empty", ErrRegion)
	}
	const slack = 0.02 // rounding by whoever computed the box
	if x+width > 1+slack || y+height > 1+slack {
		return Region{}, fmt.Errorf("%w: the box runs past the picture's edge", ErrRegion)
	}
	if x >= 1 || y >= 1 {
		// Cut at the edge, nothing of it would be left: not the whole picture.
		return Region{}, fmt.Errorf("%w: the box starts on the picture's far edge", ErrRegion)
	}
	return Region{X: x, Y: y, Width: min(width, 1-x), Height: min(height, 1-y)}, nil
}

// minRegionSide is the fewest pixels a shown part has on a side: a smaller
// box is widened around its centre, since it would show nothing usable.
const minRegionSide = 64

// Pixels is r within a w×h upright picture, at least minRegionSide on each
// side (or the picture's side), always inside it.
func (r Region) Pixels(w, h int) image.Rectangle {
	if r.Whole() {
		return image.Rect(0, 0, w, h)
	}
	side := func(start, length float64, full int) (int, int) {
		a := int(math.Round(start * float64(full)))
		b := int(math.Round((start + length) * float64(full)))
		a, b = max(0, min(a, full)), max(0, min(b, full))
		if want := min(minRegionSide, full); b-a < want {
			mid := (a + b) / 2
			a = max(0, min(mid-want/2, full-want))
			b = a + want
		}
		return a, b
	}
	x0, x1 := side(r.X, r.Width, w)
	y0, y1 := side(r.Y, r.Height, h)
	return image.Rect(x0, y0, x1, y1)
}

// Say names the part for the ear (words.Piece): "the top right quarter of
// the picture", « la moitié gauche de l'image ».
func (r Region) Say(lang voice.Lang) string {
	return words.Piece{Horiz: r.horiz, Vert: r.vert, X: r.X, Y: r.Y, Width: r.Width, Height: r.Height}.Say(lang)
}
