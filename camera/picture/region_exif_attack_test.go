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

// A part named as the person sees the picture is that part of the upright
// picture, whatever Exif orientation the camera stored it with (branch
// attack-13).
func TestAttackCloserHonoursEveryOrientation(t *testing.T) {
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
			p, err := f.Crop(r.Pixels(ub.Dx(), ub.Dy()), picture.Limits{})
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
