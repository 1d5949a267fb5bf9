package words

import (
	"strings"

	"maison/voice"
)

// Damage is what a camera's picture lost, when only the part that decodes
// is shown, as the camera service puts it for a sentence: which parts are
// missing or coarse, as people name them.
type Damage struct {
	Missing  *Region // the parts left grey, or nil
	Coarse   *Region // the parts that came without their finer detail, or nil
	Softened bool    // the whole picture is a little less sharp than the camera made it
	Once     bool    // one damaged frame came, not two in a row: asking again failed
}

// Region is a part of the picture, as people name it: one band or
// several, at an edge or across the middle, thin or a share of the
// picture.
type Region struct {
	Bands  int   // how many bands: one, two, or more
	Across bool  // the bands run from left to right rather than from top to bottom
	Edge   Edge  // for one band, the edge it touches
	Middle Place // for one band touching no edge, where it lies
	Thin   bool  // one thin strip
	Share  Share // the part's size (all the bands' together), but for a thin strip
}

// Edge is the edge of the picture a band touches: the top (left, across),
// the bottom (right), or neither.
type Edge int

// The edges.
const (
	NoEdge Edge = iota
	StartEdge
	EndEdge
)

// Place is where a band that touches no edge lies: its upper (left), middle
// or lower (right) part.
type Place int

// The places.
const (
	Centre Place = iota
	Start
	End
)

// Share is a fraction of the picture people say: a tenth to nine tenths.
type Share int

// The shares, from the smallest.
const (
	Tenth Share = iota
	Fifth
	Quarter
	Third
	TwoFifths
	Half
	ThreeFifths
	TwoThirds
	ThreeQuarters
	FourFifths
	NineTenths
)

// shareNames name the shares in the keys of their words; plural shares
// take a plural verb ("two thirds are missing").
var shareNames = [...]struct {
	name   string
	plural bool
}{
	Tenth: {"tenth", false}, Fifth: {"fifth", false}, Quarter: {"quarter", false}, Third: {"third", false},
	TwoFifths: {"two_fifths", true}, Half: {"half", false}, ThreeFifths: {"three_fifths", true},
	TwoThirds: {"two_thirds", true}, ThreeQuarters: {"three_quarters", true}, FourFifths: {"four_fifths", true},
	NineTenths: {"nine_tenths", true},
}

// In says the share in one of its forms: "amount" ("a third", « un
// tiers »), "edge" (as a part at an edge: "third", as in "the bottom
// third"; « le tiers », as in « le tiers du bas »).
func (s Share) In(lang voice.Lang, form string) string {
	return Key("damage.share." + shareNames[s].name + "." + form).In(lang)
}

// Damaged tells, for cam as it is named aloud, which part of the picture
// is missing or rough, that the camera sent it that way, and what to do.
func Damaged(lang voice.Lang, cam string, d Damage) string {
	out := []string{say(lang, "damage.twice", "camera", cam)}
	if d.Once {
		out[0] = say(lang, "damage.once", "camera", cam)
	}
	if r := d.Missing; r != nil {
		k := Key("damage.missing.one")
		switch {
		case r.Bands > 1:
			k = "damage.missing.bands"
		case !r.Thin && r.Edge != NoEdge && shareNames[r.Share].plural:
			k = "damage.missing.one_many"
		}
		out = append(out, say(lang, k, "what", r.say(lang)))
	}
	if r := d.Coarse; r != nil {
		out = append(out, say(lang, "damage.coarse", "what", strings.TrimSuffix(r.say(lang), ",")))
	}
	if d.Softened {
		out = append(out, say(lang, "damage.softened"))
	}
	out = append(out, say(lang, "damage.from_camera"))
	return voice.Paragraph(out...)
}

// say names the region as the subject of a sentence: "the bottom third
// of the picture", « les deux tiers du bas de l'image », "a band across
// the middle of the picture, about a fifth of its height,".
func (r Region) say(lang voice.Lang) string {
	dir := "rows"
	if r.Across {
		dir = "columns"
	}
	edge := map[Edge]string{StartEdge: map[bool]string{false: "top", true: "left"}[r.Across], EndEdge: map[bool]string{false: "bottom", true: "right"}[r.Across]}[r.Edge]
	switch {
	case r.Bands > 1:
		count := "two"
		if r.Bands > 2 {
			count = "several"
		}
		return say(lang, Key("damage.bands."+count+"."+dir), "share", r.Share.In(lang, "amount"))
	case r.Thin && edge != "":
		return say(lang, Key("damage.strip."+edge))
	case r.Thin:
		return say(lang, "damage.strip.middle", "where", r.middle(lang))
	case edge != "":
		return say(lang, Key("damage.edge."+edge), "share", r.Share.In(lang, "edge"))
	}
	return say(lang, Key("damage.band."+dir), "where", r.middle(lang), "share", r.Share.In(lang, "amount"))
}

// middle places a band that touches neither edge: "across the middle of
// the picture".
func (r Region) middle(lang voice.Lang) string {
	dir := "rows"
	if r.Across {
		dir = "columns"
	}
	place := map[Place]string{Centre: "centre", Start: "start", End: "end"}[r.Middle]
	return say(lang, Key("damage.middle."+place+"."+dir))
}

// NotCloser says that the part asked for (what, as Region says it) of the
// picture from cam cannot be shown closer, the picture having come
// damaged, and that the whole of it is shown as it came.
func NotCloser(lang voice.Lang, cam, what string) string {
	return voice.Sentence(say(lang, "damage.not_closer", "camera", cam, "what", what))
}
