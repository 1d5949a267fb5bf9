package camera_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"math"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"maison/camera"
	"maison/camera/picture"
	"maison/voice"
)

func TestParseRegionAsPeopleSayIt(t *testing.T) {
	for _, c := range []struct {
		in         string
		x, y, w, h float64
		said       string
	}{
		{"left", 0, 0, 0.5, 1, "the left half of the picture"},
		{"Right side", 0.5, 0, 0.5, 1, "the right half of the picture"},
		{"the top half", 0, 0, 1, 0.5, "the top half of the picture"},
		{"bottom", 0, 0.5, 1, 0.5, "the bottom half of the picture"},
		{"top right", 0.5, 0, 0.5, 0.5, "the top right quarter of the picture"},
		{"the upper-left corner", 0, 0, 0.5, 0.5, "the top left quarter of the picture"},
		{"lower right hand corner", 0.5, 0.5, 0.5, 0.5, "the bottom right quarter of the picture"},
		{"centre", 0.25, 0.25, 0.5, 0.5, "the centre of the picture"},
		{"center", 0.25, 0.25, 0.5, 0.5, "the centre of the picture"},
		{"middle left", 0, 0.25, 0.5, 0.5, "the middle left part of the picture"},
		{"top center", 0.25, 0, 0.5, 0.5, "the top centre part of the picture"},
		{"en haut à droite", 0.5, 0, 0.5, 0.5, "the top right quarter of the picture"},
		{"le coin inférieur gauche", 0, 0.5, 0.5, 0.5, "the bottom left quarter of the picture"},
		{"MILIEU", 0.25, 0.25, 0.5, 0.5, "the centre of the picture"},
	} {
		r, err := camera.ParseRegion(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if r.X != c.x || r.Y != c.y || r.Width != c.w || r.Height != c.h {
			t.Errorf("%q = %+v, want x %v y %v w %v h %v", c.in, r, c.x, c.y, c.w, c.h)
		}
		if got := r.Say(voice.English); got != c.said {
			t.Errorf("%q said %q, want %q", c.in, got, c.said)
		}
		if fr := r.Say(voice.French); fr == c.said || fr == "" {
			t.Errorf("%q in French: %q", c.in, fr)
		}
	}
	for _, bad := range []string{"", "   ", "the car", "left right", "top bottom", "the", "zoom", "left of the gate"} {
		if r, err := camera.ParseRegion(bad); !errors.Is(err, camera.ErrRegion) {
			t.Errorf("%q = %+v, %v; want an ErrRegion", bad, r, err)
		}
	}
}

func TestBoxIsFractionsOfThePicture(t *testing.T) {
	r, err := camera.Box(0.5, 0.25, 0.51, 0.5) // a hair past the edge: cut at it
	if err != nil || r.Width != 0.5 || r.X != 0.5 {
		t.Errorf("box a hair past the edge = %+v, %v", r, err)
	}
	if got := r.Say(voice.English); got != "the part of the picture from fifty to one hundred percent across and from twenty-five to seventy-five percent down" {
		t.Errorf("box said %q", got)
	}
	for _, b := range [][4]float64{{0, 0, 0, 0.5}, {-0.1, 0, 0.5, 0.5}, {0, 0, 1.5, 1}, {0.8, 0, 0.5, 0.5}, {math.NaN(), 0, 1, 1}, {0, 0, math.Inf(1), 1}, {50, 0, 25, 25}} {
		if r, err := camera.Box(b[0], b[1], b[2], b[3]); !errors.Is(err, camera.ErrRegion) {
			t.Errorf("box %v = %+v, %v; want an ErrRegion", b, r, err)
		}
	}
	if !(camera.Region{}).Whole() {
		t.Error("the zero Region is not the whole picture")
	}
}

// TestCloserShowsTheRightPart cuts parts of the 4K backyard and the 720p
// garage (whose frame arrives broken) and compares each, in pixels, with
// the same part of the camera's full frame, and with another part, which
// must differ much more: the part shown is the part asked for.
func TestCloserShowsTheRightPart(t *testing.T) {
	house, svc := setup(t)
	box, _ := camera.Box(0.1, 0.55, 0.3, 0.3)
	decoded := map[string]image.Image{}
	for _, c := range []struct {
		cam, part string
		region    camera.Region
		other     camera.Region // a part elsewhere, for contrast
		closer    float64       // how much closer than the whole picture
	}{
		{cam: "backyard", part: "top right", other: must(camera.ParseRegion("bottom left")), closer: 2},
		{cam: "backyard", part: "centre", other: must(camera.ParseRegion("top left")), closer: 2},
		{cam: "backyard", part: "box", region: box, other: must(camera.ParseRegion("top right")), closer: 3840 / 1429.0},
		{cam: "garage", part: "bottom left", other: must(camera.ParseRegion("top right")), closer: 1},
		{cam: "front door", part: "left", other: must(camera.ParseRegion("right")), closer: 1920 / 1429.0},
	} {
		t.Run(c.cam+" "+c.part, func(t *testing.T) {
			r := c.region
			if c.part != "box" {
				r = must(camera.ParseRegion(c.part))
			}
			cam, err := svc.Find(t.Context(), c.cam)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := svc.Closer(t.Context(), cam, r)
			if err != nil {
				t.Fatal(err)
			}
			p := snap.Part
			if p == nil {
				t.Fatal("no part recorded")
			}
			full := decoded[cam.EntityID]
			if full == nil {
				_, clean, _ := house.Frame(cam.EntityID)
				if full, err = jpeg.Decode(bytes.NewReader(clean)); err != nil {
					t.Fatal(err)
				}
				decoded[cam.EntityID] = full
			}
			fb := full.Bounds()
			want := image.Rect(int(r.X*float64(fb.Dx())), int(r.Y*float64(fb.Dy())), int((r.X+r.Width)*float64(fb.Dx())), int((r.Y+r.Height)*float64(fb.Dy())))
			if d := p.Shown.Union(want).Size().Sub(want.Size()); d.X > 8 || d.Y > 8 || !p.Shown.In(fb) {
				t.Errorf("shown %v, asked %v in a %v frame", p.Shown, want, fb)
			}
			got, err := jpeg.Decode(bytes.NewReader(snap.Image.JPEG))
			if err != nil {
				t.Fatal(err)
			}
			gb := got.Bounds()
			if max(gb.Dx(), gb.Dy()) > 1568 || gb.Dx()*gb.Dy() > 1_150_000 || len(snap.Image.JPEG) > picture.DefaultMaxBytes {
				t.Errorf("%v, %d bytes: over the limits", gb, len(snap.Image.JPEG))
			}
			if gb.Dx() > p.Shown.Dx() {
				t.Errorf("the part is %d pixels wide, enlarged from the camera's %d", gb.Dx(), p.Shown.Dx())
			}
			same := meanDiff(got, imaging.Resize(imaging.Crop(full, p.Shown), gb.Dx(), gb.Dy(), imaging.Lanczos))
			other := meanDiff(got, imaging.Resize(imaging.Crop(full, c.other.Pixels(fb.Dx(), fb.Dy())), gb.Dx(), gb.Dy(), imaging.Lanczos))
			if same > 6 || other < 3*same {
				t.Errorf("mean difference %.2f with the same part of the full frame, %.2f with another part", same, other)
			}
			if math.Abs(p.Closer-c.closer) > 0.05 {
				t.Errorf("%.2f times closer, want %.1f", p.Closer, c.closer)
			}
			said := r.Say(voice.English)
			if !strings.Contains(snap.Description, "It shows "+said) {
				t.Errorf("the description does not say which part: %q", snap.Description)
			}
			if c.closer == 1 && !strings.Contains(snap.Description, "no finer detail") {
				t.Errorf("a part the whole picture already showed at full detail is not said so: %q", snap.Description)
			}
			if err := voice.Speakable(snap.Description); err != nil {
				t.Error(err)
			}
			strict(t, c.cam+" "+c.part, snap.Image.JPEG, true)
		})
	}
}

func TestCloserToACameraThatIsOff(t *testing.T) {
	_, svc := setup(t)
	cam, err := svc.Find(t.Context(), "porch")
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Closer(t.Context(), cam, must(camera.ParseRegion("left")))
	var ce *camera.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Say(voice.English), "turned off") {
		t.Errorf("a part of a camera that is off: %v", err)
	}
}

// meanDiff is the mean absolute difference of two same-sized images over
// their red, green and blue samples, 0 to 255.
func meanDiff(a, b image.Image) float64 {
	ab, bb := a.Bounds(), b.Bounds()
	var sum float64
	n := 0
	for y := 0; y < ab.Dy(); y += 2 {
		for x := 0; x < ab.Dx(); x += 2 {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			sum += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
			n += 3
		}
	}
	return sum / float64(n) / 257
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
