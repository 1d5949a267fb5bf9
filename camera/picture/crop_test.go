package picture_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"maison/camera"
	"maison/camera/picture"
)

// TestCropHonoursOrientation cuts named parts of a frame stored sideways
// (Exif orientation 6, 8 and 3) and of one stored upright: the part is the
// one a person sees, after the frame is turned upright.
func TestCropHonoursOrientation(t *testing.T) {
	stored := image.NewRGBA(image.Rect(0, 0, 256, 128))
	for y := range 128 {
		for x := range 256 {
			c := color.RGBA{20, 20, 20, 255}
			if x < 128 { // the stored left half is bright
				c = color.RGBA{235, 235, 235, 255}
			}
			stored.Set(x, y, c)
		}
	}
	for _, c := range []struct {
		o            int
		bright, dark string
	}{
		{1, "left", "right"},
		{3, "right", "left"}, // turned half a turn
		{6, "top", "bottom"}, // turned a quarter clockwise: stored left is seen on top
		{8, "bottom", "top"}, // a quarter anticlockwise
	} {
		src := picture.WithOrientation(t, stored, uint16(c.o), "MM")
		for part, bright := range map[string]bool{c.bright: true, c.dark: false} {
			r, err := camera.ParseRegion(part)
			if err != nil {
				t.Fatal(err)
			}
			f := picture.ReadFrame(src)
			up, err := f.Upright()
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.Crop(r.Pixels(up.X, up.Y), picture.Limits{})
			if err != nil {
				t.Fatalf("orientation %d, %s: %v", c.o, part, err)
			}
			img, err := jpeg.Decode(bytes.NewReader(p.JPEG))
			if err != nil {
				t.Fatal(err)
			}
			mean := picture.LumaStats(img).Mean
			if bright && mean < 200 || !bright && mean > 60 {
				t.Errorf("orientation %d, the %s half has mean luma %.0f, want it %v", c.o, part, mean, map[bool]string{true: "bright", false: "dark"}[bright])
			}
		}
	}
}
