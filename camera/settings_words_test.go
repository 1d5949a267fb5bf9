package camera_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"maison/camera"
	"maison/camera/picture"
	"maison/homeassistant"
	"maison/voice"
)

// A camera that always sends what clients cannot show is told so, with
// the setting to change, never as a restart that passes within a minute;
// a picture that waited for memory is busy; Home Assistant's 500 answered
// at once is a camera that gave no picture, not a time-out. Every
// sentence is speakable, in each language.
func TestCameraSettingsAreSaidAsSettings(t *testing.T) {
	t.Parallel()
	cam := camera.Camera{EntityID: "camera.gate", Name: "Gate", State: "idle"}
	unusable := func(why picture.Unusable) error { return &picture.UnusableError{Why: why, Detail: "test"} }
	for _, c := range []struct {
		err error
		en  string
		fr  string
		de  string
		not string
	}{
		{unusable(picture.UnusableTwelveBit), "sends 12-bit pictures", "12 bits", "12-Bit-Bilder", "restart"},
		{unusable(picture.UnusableArithmetic), "arithmetic coding", "codage arithmétique", "arithmetischer Kodierung", "restart"},
		{unusable(picture.UnusableLossless), "lossless JPEG", "sans perte", "verlustfreie", "restart"},
		{unusable(picture.UnusableHierarchical), "hierarchical JPEG", "hiérarchiques", "hierarchische", "restart"},
		{unusable(picture.UnusableNoHeight), "height only comes after", "hauteur", "Höhe", "restart"},
		{unusable(picture.UnusableTooLarge), "more than 50 megapixels", "50 mégapixels", "50 Megapixeln", "restart"},
		{unusable(picture.UnusableMemory), "memory I am given", "mémoire", "Speicher", "restart"},
		{unusable(picture.UnusableMemoryWhole), "decode whole", "en entier", "ganz entschlüsseln", "eighth"},
		{fmt.Errorf("%w: %w", picture.ErrBusy, context.DeadlineExceeded), "busy making other pictures", "occupé", "beschäftigt", "could not get a picture"},
		{fmt.Errorf("%w: %w", camera.ErrNoPicture, &homeassistant.Error{Kind: homeassistant.KindCameraFailed, Status: 500}), "answered at once", "tout de suite", "sofort", "in time"},
	} {
		e := &camera.Error{Camera: cam, Err: c.err}
		for lang, want := range map[voice.Lang]string{voice.English: c.en, voice.French: c.fr, voice.German: c.de} {
			said := e.Say(lang)
			if !strings.Contains(said, want) || lang == voice.English && strings.Contains(said, c.not) {
				t.Errorf("%v in %s: %q, want %q and not %q", c.err, lang, said, want, c.not)
			}
			if err := voice.Speakable(said); err != nil {
				t.Errorf("%v in %s: %v", c.err, lang, err)
			}
		}
	}
}
