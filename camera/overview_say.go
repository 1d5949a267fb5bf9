package camera

import (
	"maison/camera/picture"
	"maison/voice"
	"maison/words"
)

// Say tells what the overview shows, one sentence per camera from its
// sensors, for a listener who never sees the picture (words.Overview).
func (o Overview) Say(lang voice.Lang) string {
	ov := words.Overview{Cols: o.Cols}
	for _, t := range o.Tiles {
		area := ""
		if t.Camera.AreaSaysMore() {
			area = t.Camera.Area
		}
		ov.Tiles = append(ov.Tiles, words.Tile{Camera: t.Camera.Say(lang), Area: area, Row: t.Row, Col: t.Col,
			Empty: emptyOf[t.State], Facts: t.Facts, Damaged: t.Damaged, Setting: unusableWords[picture.Unusability(t.Err)]})
	}
	for _, c := range o.Beyond {
		ov.Beyond = append(ov.Beyond, c.Say(lang))
	}
	for _, w := range o.Withheld {
		ov.Withheld = append(ov.Withheld, w.Say(lang))
	}
	return ov.Say(lang)
}

// emptyOf is why a tile is empty, as words says it.
var emptyOf = [...]words.Empty{
	TileShown:       words.NotEmpty,
	TileOff:         words.EmptyOff,
	TileUnavailable: words.EmptyUnavailable,
	TileLate:        words.EmptyLate,
	TileFailed:      words.EmptyFailed,
	TileSetting:     words.EmptySetting,
	TileNoPicture:   words.EmptyNoPicture,
}

// AreaSaysMore reports whether the camera's area is worth saying after its
// name: it has one, and it does not only repeat the name ("Garage" in
// "Garage").
func (c Camera) AreaSaysMore() bool {
	return c.Area != "" && words.Name(c.Area) != words.Name(c.Name)
}
