package words

import (
	"math"

	"maison/voice"
)

// Piece is a part of a picture as it was asked for: named by its sides
// (Horiz 'l', 'r' or 'c' for the centre, Vert 't', 'b' or 'c', 0 for the
// whole of that side), or, when neither is named, a box in fractions of
// the picture's width and height from its top left corner.
type Piece struct {
	Horiz, Vert         byte
	X, Y, Width, Height float64
}

// Say names the part for the ear: "the top right quarter of the picture",
// « la moitié gauche de l'image », or a box in percent across and down.
func (r Piece) Say(lang voice.Lang) string {
	h, v := r.Horiz, r.Vert
	if h == 0 && v == 0 {
		pct := func(f float64) string { return lang.Number(int(math.Round(f * 100))) }
		return say(lang, "piece.box", "left", pct(r.X), "right", pct(r.X+r.Width), "top", pct(r.Y), "bottom", pct(r.Y+r.Height))
	}
	return pieces[[2]byte{v, h}].In(lang)
}

// pieces name the parts of a picture by their sides (vertical, then
// horizontal): a half, a quarter, the centre, or a side's middle.
var pieces = map[[2]byte]Key{
	{'c', 'c'}: "piece.centre",
	{0, 'l'}:   "piece.half.left",
	{0, 'r'}:   "piece.half.right",
	{'t', 0}:   "piece.half.top",
	{'b', 0}:   "piece.half.bottom",
	{'t', 'l'}: "piece.quarter.top_left",
	{'t', 'r'}: "piece.quarter.top_right",
	{'b', 'l'}: "piece.quarter.bottom_left",
	{'b', 'r'}: "piece.quarter.bottom_right",
	{'t', 'c'}: "piece.part.top_centre",
	{'b', 'c'}: "piece.part.bottom_centre",
	{'c', 'l'}: "piece.part.middle_left",
	{'c', 'r'}: "piece.part.middle_right",
}
