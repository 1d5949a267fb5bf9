package words

import (
	"math"
	"strings"

	"maison/voice"
)

// Damage is what of a picture the camera sent damaged, when only the part
// that decodes is shown.
type Damage struct {
	Missing  []Band // parts left grey: missing, or damaged beyond decoding
	Coarse   []Band // parts that came without their finer detail
	Softened bool   // the whole picture is a little less sharp than the camera made it
	Across   bool   // the bands run from left to right rather than from top to bottom
	Once     bool   // one damaged frame came, not two in a row: asking again failed
}

// Band is a part of the picture between two edges, as shares of its height
// (or of its width when Damage.Across): 0 at the top (left), 1 at the
// bottom (right).
type Band struct{ From, To float64 }

// Damaged tells, for cam as it is named aloud, which part of the picture
// is missing or rough, that the camera sent it that way, and what to do.
func Damaged(lang voice.Lang, cam string, d Damage) string {
	out := []string{say(lang, "damage.twice", "camera", cam)}
	if d.Once {
		out[0] = say(lang, "damage.once", "camera", cam)
	}
	if len(d.Missing) > 0 {
		what, many := d.region(lang, d.Missing)
		k := Key("damage.missing.one")
		switch {
		case len(d.Missing) > 1:
			k = "damage.missing.bands"
		case many:
			k = "damage.missing.one_many"
		}
		out = append(out, say(lang, k, "what", what))
	}
	if len(d.Coarse) > 0 {
		what, _ := d.region(lang, d.Coarse)
		out = append(out, say(lang, "damage.coarse", "what", strings.TrimSuffix(what, ",")))
	}
	if d.Softened {
		out = append(out, say(lang, "damage.softened"))
	}
	out = append(out, say(lang, "damage.from_camera"))
	return voice.Paragraph(out...)
}

// region names the part of the picture bands cover, as the subject of a
// sentence, with whether the name takes a plural verb: "the bottom third
// of the picture", « les deux tiers du bas de l'image », "a band across
// the middle of the picture, about a fifth of its height,".
func (d Damage) region(lang voice.Lang, bands []Band) (string, bool) {
	dir := "rows"
	if d.Across {
		dir = "columns"
	}
	if len(bands) > 1 {
		total := 0.0
		for _, b := range bands {
			total += b.To - b.From
		}
		count := "two"
		if len(bands) > 2 {
			count = "several"
		}
		return say(lang, Key("damage.bands."+count+"."+dir), "share", nearestShare(total).In(lang, "amount")), true
	}
	b := bands[0]
	size := b.To - b.From
	var edge string
	switch {
	case b.To >= 0.999:
		edge = map[bool]string{false: "bottom", true: "right"}[d.Across]
	case b.From <= 0.001:
		edge = map[bool]string{false: "top", true: "left"}[d.Across]
	}
	if size < 0.075 {
		if edge != "" {
			return say(lang, Key("damage.strip."+edge)), false
		}
		return say(lang, "damage.strip.middle", "where", d.middle(lang, b)), false
	}
	f := nearestShare(size)
	if edge != "" {
		return say(lang, Key("damage.edge."+edge), "share", f.In(lang, "edge")), f.plural
	}
	return say(lang, Key("damage.band."+dir), "where", d.middle(lang, b), "share", f.In(lang, "amount")), false
}

// middle places a band that touches neither edge: "across the middle of
// the picture".
func (d Damage) middle(lang voice.Lang, b Band) string {
	dir := "rows"
	if d.Across {
		dir = "columns"
	}
	c := (b.From + b.To) / 2
	switch {
	case c < 0.4:
		return say(lang, Key("damage.middle.start."+dir))
	case c > 0.6:
		return say(lang, Key("damage.middle.end."+dir))
	}
	return say(lang, Key("damage.middle.centre."+dir))
}

// share is a fraction of the picture people say, by name ("third"), with
// whether it takes a plural verb.
type share struct {
	v      float64
	name   string
	plural bool
}

// In says the share in one of its forms: "amount" ("a third", « un
// tiers »), "edge" (as a part at an edge: "third", as in "the bottom
// third"; « le tiers », as in « le tiers du bas »).
func (s share) In(lang voice.Lang, form string) string {
	return Key("damage.share." + s.name + "." + form).In(lang)
}

var shares = []share{
	{0.1, "tenth", false},
	{0.2, "fifth", false},
	{0.25, "quarter", false},
	{1.0 / 3, "third", false},
	{0.4, "two_fifths", true},
	{0.5, "half", false},
	{0.6, "three_fifths", true},
	{2.0 / 3, "two_thirds", true},
	{0.75, "three_quarters", true},
	{0.8, "four_fifths", true},
	{0.9, "nine_tenths", true},
}

// nearestShare names v by the nearest of the shares people say.
func nearestShare(v float64) share {
	best := shares[0]
	for _, s := range shares[1:] {
		if math.Abs(s.v-v) < math.Abs(best.v-v) {
			best = s
		}
	}
	return best
}

// NotCloser says that the part asked for (what, as Region says it) of the
// picture from cam cannot be shown closer, the picture having come
// damaged, and that the whole of it is shown as it came.
func NotCloser(lang voice.Lang, cam, what string) string {
	return voice.Sentence(say(lang, "damage.not_closer", "camera", cam, "what", what))
}
