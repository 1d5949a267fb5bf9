package picture

import (
	"fmt"
	"image"
	"image/draw"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// LabelFont reads the Go Bold font the overview's labels are drawn in: it
// covers Latin, Greek and Cyrillic; other characters are drawn as "?".
func LabelFont() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) }

// labelFace is the label font at px pixels, between 12 and 30.
func labelFace(f *opentype.Font, px int) (font.Face, error) {
	if f == nil {
		return nil, fmt.Errorf("camera: the label font: none given")
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: float64(min(max(px, 12), 30)), DPI: 72, Hinting: font.HintingFull})
}

// labelTile draws, in the tile's top left corner, its label on a dark
// band, cut to the tile's width, and across an empty tile why it is empty.
func labelTile(dst *image.RGBA, face font.Face, r image.Rectangle, label, empty string) {
	pad := face.Metrics().Height.Ceil() / 4
	text := fitText(face, drawable(face, label), r.Dx()-2*pad)
	band(dst, face, r.Min, text, pad)
	if empty == "" {
		return
	}
	why := fitText(face, strings.ToUpper(empty), r.Dx()-2*pad)
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
