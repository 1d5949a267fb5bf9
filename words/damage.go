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
	out := []string{say(lang, "damage.damaged.only_part_of", "cam", cam)}
	if d.Once {
		out[0] = say(lang, "damage.damaged.only_part_of_2", "cam", cam)
	}
	if len(d.Missing) > 0 {
		what, many := d.region(lang, d.Missing)
		is, manque := "is", "manque"
		if many {
			is, manque = "are", "manquent"
		}
		out = append(out, lang.Pick(
			what+" "+is+" missing and left grey",
			what+" "+manque+"; "+voice.Plural(len(d.Missing), "cette partie est laissée", "ces parties sont laissées")+" en gris"))
	}
	if len(d.Coarse) > 0 {
		what, _ := d.region(lang, d.Coarse)
		what = strings.TrimSuffix(lower(what), ",")
		out = append(out, say(lang, "damage.damaged.for_what_only", "what", what))
	}
	if d.Softened {
		out = append(out, say(lang, "damage.damaged.the_rest_of"))
	}
	out = append(out, say(lang, "damage.damaged.it_came_that"))
	return voice.Paragraph(out...)
}

// region names the part of the picture bands cover, capitalised, with
// whether the name takes a plural verb: "The bottom third of the picture",
// "Les deux tiers du bas de l'image", "A band across the middle of the
// picture, about a fifth of its height,".
func (d Damage) region(lang voice.Lang, bands []Band) (string, bool) {
	if len(bands) > 1 {
		total := 0.0
		for _, b := range bands {
			total += b.To - b.From
		}
		count := say(lang, "damage.damageregion.two_bands")
		if len(bands) > 2 {
			count = say(lang, "damage.damageregion.several_bands")
		}
		f := nearestShare(total)
		return lang.Pick(
			count+" "+d.across("across", "down")+" the picture, about "+f.en+" of it in all,",
			count+" "+d.across("en travers de", "verticales dans")+" l'image, environ "+f.fr+" en tout,"), true
	}
	b := bands[0]
	size := b.To - b.From
	var edge string // en: "bottom"; fr: "du bas"
	switch {
	case b.To >= 0.999:
		edge = lang.Pick(d.across("bottom", "right"), d.across("du bas", "de droite"))
	case b.From <= 0.001:
		edge = lang.Pick(d.across("top", "left"), d.across("du haut", "de gauche"))
	}
	if size < 0.075 {
		if edge != "" {
			return lang.Pick("A thin strip at the "+edge+" of the picture", "Une mince bande "+frEdgeAt(edge)+" de l'image"), false
		}
		return say(lang, "damage.damageregion.a_thin_strip", "d_middle_lang_b", d.middle(lang, b)), false
	}
	f := nearestShare(size)
	if edge != "" {
		return lang.Pick("The "+edge+" "+f.part+" of the picture", capital(f.frDef)+" "+edge+" de l'image"), f.plural
	}
	return lang.Pick(
		"A band "+d.middle(lang, b)+", about "+f.en+" of its "+d.across("height", "width")+",",
		"Une bande "+d.middle(lang, b)+", environ "+f.fr+" de sa "+d.across("hauteur", "largeur")+","), false
}

// middle places a band that touches neither edge: "across the middle of
// the picture".
func (d Damage) middle(lang voice.Lang, b Band) string {
	c := (b.From + b.To) / 2
	switch {
	case c < 0.4:
		return lang.Pick(d.across("across the upper part", "down the left part")+" of the picture", d.across("en travers du haut", "verticale sur la gauche")+" de l'image")
	case c > 0.6:
		return lang.Pick(d.across("across the lower part", "down the right part")+" of the picture", d.across("en travers du bas", "verticale sur la droite")+" de l'image")
	}
	return lang.Pick(d.across("across", "down")+" the middle of the picture", d.across("en travers du milieu", "verticale au milieu")+" de l'image")
}

func (d Damage) across(rows, columns string) string {
	if d.Across {
		return columns
	}
	return rows
}

// frEdgeAt turns "du bas" into "en bas", "de gauche" into "à gauche".
func frEdgeAt(edge string) string {
	switch edge {
	case "du bas":
		return "en bas"
	case "du haut":
		return "en haut"
	case "de gauche":
		return "à gauche"
	}
	return "à droite"
}

// share is a fraction of the picture named in both languages: "third" as
// in "the bottom third", "a third" and "un tiers" as an amount, "le tiers"
// with its article.
type share struct {
	v                   float64
	part, en, fr, frDef string
	plural              bool // takes a plural verb
}

var shares = []share{
	{0.1, "tenth", "a tenth", "un dixième", "le dixième", false},
	{0.2, "fifth", "a fifth", "un cinquième", "le cinquième", false},
	{0.25, "quarter", "a quarter", "un quart", "le quart", false},
	{1.0 / 3, "third", "a third", "un tiers", "le tiers", false},
	{0.4, "two fifths", "two fifths", "deux cinquièmes", "les deux cinquièmes", true},
	{0.5, "half", "half", "la moitié", "la moitié", false},
	{0.6, "three fifths", "three fifths", "trois cinquièmes", "les trois cinquièmes", true},
	{2.0 / 3, "two thirds", "two thirds", "deux tiers", "les deux tiers", true},
	{0.75, "three quarters", "three quarters", "trois quarts", "les trois quarts", true},
	{0.8, "four fifths", "four fifths", "quatre cinquièmes", "les quatre cinquièmes", true},
	{0.9, "nine tenths", "nine tenths", "neuf dixièmes", "les neuf dixièmes", true},
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

func capital(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func lower(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}

// NotCloser says that the part asked for (what, as Region says it) of the
// picture from cam cannot be shown closer, the picture having come
// damaged, and that the whole of it is shown as it came.
func NotCloser(lang voice.Lang, cam, what string) string {
	return voice.Sentence(say(lang, "damage.not_closer", "cam", cam, "what", what))
}
