package camera

import (
	"errors"
	"fmt"
	"math"

	"maison/camera/picture"
	"maison/voice"
	"maison/words"
)

// Damage is what of a frame the camera sent damaged, when only the part
// that decodes is shown: picture.Damage, as measured, and how many
// damaged frames came.
type Damage struct {
	picture.Damage
	// Once: fetching the frame again failed or brought no picture, so
	// one damaged frame came, not two in a row.
	Once bool
}

// errRefetchFailed marks picture.ErrTooDamaged when fetching the frame
// again failed or brought no picture: one damaged frame came, not two.
var errRefetchFailed = errors.New("camera: fetching the damaged frame again failed")

// Say tells in words, for cam as it is named aloud, which part of the
// picture is missing or rough, that the camera sent it that way, and what
// to do (words.Damaged), the parts named as people name them (region).
func (d Damage) Say(lang voice.Lang, cam string) string {
	return words.Damaged(lang, cam, words.Damage{Missing: region(d.Missing, d.Across), Coarse: region(d.Coarse, d.Across),
		Softened: d.Softened, Once: d.Once})
}

// region names the part of the picture bands cover, as people do: which
// edge one band touches (within a thousandth), a strip thinner than
// three quarters of a tenth, where a band in the middle lies (its centre
// before two fifths, after three), and the share they cover, rounded to
// the nearest a person says. Nil for no bands.
func region(bands []picture.Band, across bool) *words.Region {
	if len(bands) == 0 {
		return nil
	}
	r := &words.Region{Bands: len(bands), Across: across}
	total := 0.0
	for _, b := range bands {
		total += b.To - b.From
	}
	r.Share = nearestShare(total)
	if len(bands) > 1 {
		return r
	}
	b := bands[0]
	switch {
	case b.To >= 0.999:
		r.Edge = words.EndEdge
	case b.From <= 0.001:
		r.Edge = words.StartEdge
	}
	r.Thin = total < 0.075
	switch c := (b.From + b.To) / 2; {
	case c < 0.4:
		r.Middle = words.Start
	case c > 0.6:
		r.Middle = words.End
	}
	return r
}

// shares are the fractions of a picture people say, as words names them.
var shares = []struct {
	v float64
	s words.Share
}{
	{0.1, words.Tenth}, {0.2, words.Fifth}, {0.25, words.Quarter}, {1.0 / 3, words.Third}, {0.4, words.TwoFifths},
	{0.5, words.Half}, {0.6, words.ThreeFifths}, {2.0 / 3, words.TwoThirds}, {0.75, words.ThreeQuarters},
	{0.8, words.FourFifths}, {0.9, words.NineTenths},
}

// nearestShare names v by the nearest of the shares people say.
func nearestShare(v float64) words.Share {
	best := shares[0]
	for _, s := range shares[1:] {
		if math.Abs(s.v-v) < math.Abs(best.v-v) {
			best = s
		}
	}
	return best.s
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
