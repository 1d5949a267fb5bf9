package picture_test

import (
	"bytes"
	"context"
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
	t.Parallel()
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
			p, err := f.Crop(context.Background(), r.Pixels(up.X, up.Y), picture.Limits{})
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

// A part named as the person sees the picture is that part of the upright
// picture, whatever Exif orientation the camera stored it with (branch
// attack-13).
func TestCloserHonoursEveryOrientation(t *testing.T) {
	t.Parallel()
	stored := image.NewGray(image.Rect(0, 0, 480, 240))
	for y := range 240 {
		for x := range 480 {
			v := []uint8{250, 170, 90, 10}[(y/120)*2+x/240] // quadrants
			stored.SetGray(x, y, color.Gray{v})
		}
	}
	for o := 1; o <= 8; o++ {
		src := picture.WithOrientation(t, stored, uint16(o), "II")
		f, _, err := picture.Repair(src)
		if err != nil || f.Orientation() != o {
			t.Fatalf("orientation %d: read %d, %v", o, f.Orientation(), err)
		}
		up := picture.Upright(stored, o)
		ub := up.Bounds()
		for _, name := range []string{"top left", "top right", "bottom left", "bottom right"} {
			r, _ := camera.ParseRegion(name)
			p, err := f.Crop(context.Background(), r.Pixels(ub.Dx(), ub.Dy()), picture.Limits{})
			if err != nil {
				t.Fatalf("orientation %d, %s: %v", o, name, err)
			}
			if p.Width > p.Height != (ub.Dx() > ub.Dy()) {
				t.Errorf("orientation %d, %s: %dx%d, not the upright shape %v", o, name, p.Width, p.Height, ub)
			}
			want := r.Pixels(ub.Dx(), ub.Dy())
			centre := want.Min.Add(want.Size().Div(2))
			wr, _, _, _ := up.At(centre.X, centre.Y).RGBA()
			img, err := jpeg.Decode(bytes.NewReader(p.JPEG))
			if err != nil {
				t.Fatal(err)
			}
			gb := img.Bounds()
			gr, _, _, _ := img.At(gb.Min.X+gb.Dx()/2, gb.Min.Y+gb.Dy()/2).RGBA()
			if d := int(wr>>8) - int(gr>>8); d > 20 || d < -20 {
				t.Errorf("orientation %d, %s: luma %d, want %d (upright %v)", o, name, gr>>8, wr>>8, ub)
			}
		}
	}
}
