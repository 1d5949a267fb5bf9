package camera

import (
	"fmt"
	"image"
	"image/draw"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"maison/voice"
)

// parseLabelFont reads the Go Bold font the overview's labels are drawn in:
// it covers Latin, Greek and Cyrillic; other characters are drawn as "?".
func parseLabelFont() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) }

// labelFace is the label font at px pixels, between 12 and 30.
func (s *Service) labelFace(px int) (font.Face, error) {
	f, err := s.font()
	if err != nil {
		return nil, fmt.Errorf("camera: the label font: %w", err)
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: float64(min(max(px, 12), 30)), DPI: 72, Hinting: font.HintingFull})
}

// maxLabel bounds a camera's name drawn on its tile, in characters.
const maxLabel = 32

// labelTile draws, in the tile's top left corner, its number and its
// camera's name on a dark band, and across an empty tile why it is empty.
// A name is drawn as data: cleaned of invisible and reordering characters,
// bounded, and cut to the tile's width.
func labelTile(dst *image.RGBA, face font.Face, r image.Rectangle, n int, t Tile, lang voice.Lang) {
	pad := face.Metrics().Height.Ceil() / 4
	text := fitText(face, strconv.Itoa(n)+"  "+drawable(face, voice.Clean(t.Camera.Name, maxLabel)), r.Dx()-2*pad)
	band(dst, face, r.Min, text, pad)
	if t.State == TileShown {
		return
	}
	why := fitText(face, strings.ToUpper(t.State.words(lang)), r.Dx()-2*pad)
	d := font.Drawer{Face: face}
	w := d.MeasureString(why).Ceil()
	band(dst, face, image.Pt(r.Min.X+(r.Dx()-w)/2-pad, r.Min.Y+r.Dy()/2-face.Metrics().Height.Ceil()/2-pad), why, pad)
}

// band draws text in white on a translucent dark band whose top left is at.
func band(dst *image.RGBA, face font.Face, at image.Point, text string, pad int) {
	m := face.Metrics()
	d := font.Drawer{Dst: dst, Src: image.White, Face: face}
	w := d.MeasureString(text).Ceil()
	box := image.Rect(at.X, at.Y, at.X+w+2*pad, at.Y+m.Height.Ceil()+2*pad).Intersect(dst.Bounds())
	draw.Draw(dst, box, image.NewUniform(overviewLabel), image.Point{}, draw.Over)
	d.Dot = fixed.P(at.X+pad, at.Y+pad+m.Ascent.Ceil())
	d.DrawString(text)
}

// drawable replaces every character the face cannot draw with "?".
func drawable(face font.Face, s string) string {
	return strings.Map(func(r rune) rune {
		if _, ok := face.GlyphAdvance(r); !ok {
			return '?'
		}
		return r
	}, s)
}

// fitText cuts s, ending it with "…", until it is at most width pixels wide.
func fitText(face font.Face, s string, width int) string {
	d := font.Drawer{Face: face}
	if d.MeasureString(s).Ceil() <= width {
		return s
	}
	runes := []rune(s)
	for len(runes) > 0 {
		runes = runes[:len(runes)-1]
		if t := strings.TrimSpace(string(runes)) + "…"; d.MeasureString(t).Ceil() <= width {
			return t
		}
	}
	return ""
}

// words says briefly why a tile is empty, for its label.
func (st TileState) words(lang voice.Lang) string {
	switch st {
	case TileOff:
		return lang.Pick("turned off", "éteinte")
	case TileUnavailable:
		return lang.Pick("unavailable", "indisponible")
	case TileLate:
		return lang.Pick("no picture in time", "pas d'image à temps")
	case TileFailed:
		return lang.Pick("no picture", "pas d'image")
	}
	return ""
}
