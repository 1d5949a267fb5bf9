package camera_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"maison/camera"
	"maison/jpegfix"
)

// TestFrameWithoutHeightIsNotAPicture: a frame header of height 0 (the
// height left to a DNL segment, which libjpeg and Go do not read) is
// repaired with its data unchecked; the camera path then decoded it to
// nothing and refused its own re-encoded frame as "zero pixels wide",
// a jpegfix refusal that sent it fetching again. It is not a picture.
func TestFrameWithoutHeightIsNotAPicture(t *testing.T) {
	b, err := os.ReadFile("../fixtures/jpeg/base.sub-640x480.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	sof := bytes.Index(b, []byte{0xff, 0xc0})
	b = bytes.Clone(b)
	b[sof+5], b[sof+6] = 0, 0
	_, _, err = camera.Process(b, camera.Limits{})
	var fe jpegfix.FormatError
	if !errors.Is(err, camera.ErrNotImage) || errors.As(err, &fe) {
		t.Errorf("err = %v, want ErrNotImage and no jpegfix refusal", err)
	}
}
