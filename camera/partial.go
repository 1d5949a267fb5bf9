package camera

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"

	"maison/jpegfix"
	"maison/jpegscale"
	"maison/voice"
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
	// Once: fetching the frame again failed or brought no picture, so
	// one damaged frame came, not two in a row.
	Once bool
}

// Band is a part of the picture between two edges, as shares of its height
// (or of its width when Damage.Across): 0 at the top (left), 1 at the
// bottom (right).
type Band struct{ From, To float64 }

// errTooDamaged is a frame of which too little decodes to be worth showing.
var errTooDamaged = errors.New("camera: too little of the damaged frame decodes to be shown")

// errRefetchFailed marks errTooDamaged when fetching the frame again
// failed or brought no picture: one damaged frame came, not two.
var errRefetchFailed = errors.New("camera: fetching the damaged frame again failed")

// Salvage makes a picture of the part of a damaged frame that decodes: it
// is decoded as far as it goes (resuming at the next restart marker where
// the frame has them), what does not decode is left grey, and the result
// is turned upright, fitted to l and encoded afresh, a strict JPEG. At
// least half the picture must decode. rep is the report of the repair
// that refused raw, whose frame header and Exif orientation it read
// before refusing; cause is why it refused, kept in English in the Damage
// for the operator.
func Salvage(raw []byte, rep jpegfix.Report, l Limits, cause error) (Fitted, Damage, error) {
	l = l.withDefaults()
	fr := rep.Frame
	if fr.Components == 0 || rep.Start >= len(raw) {
		return Fitted{}, Damage{}, fmt.Errorf("%w: %w: its headers cannot be read", ErrNotImage, errTooDamaged)
	}
	src := raw[rep.Start:] // after any junk before the start of the image
	if err := checkFrameSize(fr.Width, fr.Height); err != nil {
		return Fitted{}, Damage{}, err
	}
	o := fr.Orientation
	w, h := fitSize(fr.Width, fr.Height, l) // as stored: turning comes after
	img, _, cov, err := jpegscale.DecodePartial(src, w, h)
	if err != nil {
		return Fitted{}, Damage{}, fmt.Errorf("%w: %w: %w", ErrNotImage, errTooDamaged, err)
	}
	d := damageOf(cov, o)
	if d.Shown < minShown {
		return Fitted{}, d, fmt.Errorf("%w: %w: %.0f%% of it decodes", ErrNotImage, errTooDamaged, 100*d.Shown)
	}
	if cause != nil {
		var fe jpegfix.FormatError
		if errors.As(cause, &fe) {
			d.Reason = fe.Reason
		} else {
			d.Reason = cause.Error()
		}
	}
	fit, err := fitImage(img, image.Rect(0, 0, fr.Width, fr.Height), o, l)
	if err != nil {
		return Fitted{}, d, err
	}
	// Pixel facts of a picture partly grey would speak of the grey.
	fit.Luma = nil
	if err := jpegfix.Check(fit.JPEG); err != nil {
		return Fitted{}, d, fmt.Errorf("camera: the salvaged frame is not a strict JPEG: %w", err)
	}
	return fit, d, nil
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

// Say tells in words, for cam as it is named aloud, which part of the
// picture is missing or rough, that the camera sent it that way, and what
// to do.
func (d Damage) Say(lang voice.Lang, cam string) string {
	out := []string{lang.Pick(
		"Only part of the picture from "+cam+" could be shown: the camera sent it damaged twice in a row",
		"Je n'ai pu montrer qu'une partie de l'image de "+cam+" : la caméra l'a envoyée abîmée deux fois de suite")}
	if d.Once {
		out[0] = lang.Pick(
			"Only part of the picture from "+cam+" could be shown: the camera sent it damaged, and asking it again failed",
			"Je n'ai pu montrer qu'une partie de l'image de "+cam+" : la caméra l'a envoyée abîmée, et la lui redemander n'a pas abouti")
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
		out = append(out, lang.Pick(
			"For "+what+", only the broad shapes came through, without the fine detail",
			"Pour "+what+", seuls les grands traits sont arrivés, sans les détails fins"))
	}
	if d.Softened {
		out = append(out, lang.Pick(
			"The rest of the picture is a little less sharp than the camera made it",
			"Le reste de l'image est un peu moins net que ce que la caméra a produit"))
	}
	out = append(out, lang.Pick(
		"It came that way from the camera, not from the connection or from me; its next picture is usually whole, so ask again in a moment to see the rest",
		"Elle est arrivée ainsi de la caméra, ni la connexion ni moi n'y sommes pour rien; sa prochaine image est d'habitude entière, redemandez dans un instant pour voir le reste"))
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
		count := lang.Pick("Two bands", "Deux bandes")
		if len(bands) > 2 {
			count = lang.Pick("Several bands", "Plusieurs bandes")
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
		return lang.Pick("A thin strip "+d.middle(lang, b), "Une mince bande "+d.middle(lang, b)), false
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

// report says in English, for maison check and the log, what was shown of
// a damaged frame.
func (d Damage) report() string {
	why := ""
	if d.Reason != "" {
		why = " (" + d.Reason + ")"
	}
	sent := "sent a damaged frame twice in a row"
	if d.Once {
		sent = "sent a damaged frame, and fetching it again failed"
	}
	return fmt.Sprintf("The camera %s%s; the %.0f%% of the picture that decodes was re-encoded and the rest left grey.", sent, why, 100*d.Shown)
}
