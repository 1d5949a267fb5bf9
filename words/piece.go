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
		return say(lang, "piece.say.the_part_of", "pct_r_x", pct(r.X), "pct_r_x_r_width", pct(r.X+r.Width), "pct_r_y", pct(r.Y), "pct_r_y_r_height", pct(r.Y+r.Height))
	}
	of := say(lang, "piece.say.of_the_picture")
	en := map[byte]string{'t': "top", 'b': "bottom", 'l': "left", 'r': "right"}
	switch {
	case h == 'c' && v == 'c':
		return say(lang, "piece.say.the_centre") + of
	case v == 0:
		return lang.Pick("the "+en[h]+" half", "la moitié "+map[byte]string{'l': "gauche", 'r': "droite"}[h]) + of
	case h == 0:
		return lang.Pick("the "+en[v]+" half", "la moitié "+map[byte]string{'t': "du haut", 'b': "du bas"}[v]) + of
	}
	enV := map[byte]string{'t': "top", 'b': "bottom", 'c': "middle"}[v]
	enH := map[byte]string{'l': "left", 'r': "right", 'c': "centre"}[h]
	frV := map[byte]string{'t': "en haut", 'b': "en bas", 'c': "au milieu"}[v]
	frH := map[byte]string{'l': "à gauche", 'r': "à droite", 'c': "au centre"}[h]
	if h != 'c' && v != 'c' {
		return lang.Pick("the "+enV+" "+enH+" quarter"+of, "le quart de l'image "+frV+" "+frH)
	}
	return lang.Pick("the "+enV+" "+enH+" part"+of, "la partie de l'image "+frV+" "+frH)
}
