package camera

import (
	"errors"
	"fmt"

	"maison/camera/picture"
	"maison/voice"
	"maison/words"
)

// Damage says what of a frame the camera sent damaged, when only the part
// that decodes is shown: picture.Damage's facts, and how many frames came.
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

// damage is d as the service tells it.
func damage(d picture.Damage) Damage {
	return Damage{Missing: pictureBands(d.Missing), Coarse: pictureBands(d.Coarse), Softened: d.Softened, Shown: d.Shown, Across: d.Across, Reason: d.Reason}
}

// Band is a part of the picture between two edges, as shares of its height
// (or of its width when Damage.Across): 0 at the top (left), 1 at the
// bottom (right).
type Band struct{ From, To float64 }

func pictureBands(bs []picture.Band) []Band {
	var out []Band
	for _, b := range bs {
		out = append(out, Band(b))
	}
	return out
}

// errRefetchFailed marks picture.ErrTooDamaged when fetching the frame
// again failed or brought no picture: one damaged frame came, not two.
var errRefetchFailed = errors.New("camera: fetching the damaged frame again failed")

// Say tells in words, for cam as it is named aloud, which part of the
// picture is missing or rough, that the camera sent it that way, and what
// to do (words.Damaged).
func (d Damage) Say(lang voice.Lang, cam string) string {
	return words.Damaged(lang, cam, words.Damage{Missing: bands(d.Missing), Coarse: bands(d.Coarse), Softened: d.Softened, Across: d.Across, Once: d.Once})
}

func bands(bs []Band) []words.Band {
	out := make([]words.Band, len(bs))
	for i, b := range bs {
		out[i] = words.Band(b)
	}
	return out
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
