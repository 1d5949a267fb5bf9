package camera_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/disintegration/imaging"

	"maison/camera"
	"maison/camera/picture"
	"maison/homeassistant"
	"maison/voice"
)

func TestParseRegionAsPeopleSayIt(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// oneFrame is a Home Assistant with one camera that sends the given bytes.
type oneFrame struct{ frame []byte }

func (o *oneFrame) state() homeassistant.State {
	return homeassistant.State{EntityID: "camera.odd", State: "idle", Attributes: map[string]any{"friendly_name": "Odd"}}
}
func (o *oneFrame) States() []homeassistant.State { return []homeassistant.State{o.state()} }
func (o *oneFrame) State(id string) (homeassistant.State, bool) {
	return o.state(), id == "camera.odd"
}
func (o *oneFrame) Area(string) string { return "" }
func (o *oneFrame) CameraImage(context.Context, string, int, int) (homeassistant.Image, error) {
	return homeassistant.Image{Bytes: o.frame, ContentType: "image/jpeg", Fetched: time.Now()}, nil
}

func oddService(t *testing.T, frame []byte) (*camera.Service, camera.Camera) {
	t.Helper()
	svc, err := camera.New(camera.Config{Source: &oneFrame{frame}, Allow: []string{"camera.odd"}})
	if err != nil {
		t.Fatal(err)
	}
	cam, err := svc.Find(t.Context(), "odd")
	if err != nil {
		t.Fatal(err)
	}
	return svc, cam
}

func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / max(w, 1)), uint8(y * 255 / max(h, 1)), 90, 255})
		}
	}
	return img
}

func encJPEG(t *testing.T, img image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encPNG(t *testing.T, img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Every part of every odd frame is either shown within the limits, as a
// strict JPEG no larger than the camera's pixels, or refused in words;
// nothing panics.
func TestCloserOnOddFrames(t *testing.T) {
	t.Parallel()
	paletted := image.NewPaletted(image.Rect(0, 0, 300, 200), color.Palette{color.Black, color.White, color.RGBA{200, 0, 0, 255}})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 3)
	}
	gray16 := image.NewGray16(image.Rect(0, 0, 333, 77))
	cmyk := image.NewCMYK(image.Rect(0, 0, 640, 480))
	for i := range cmyk.Pix {
		cmyk.Pix[i] = uint8(i)
	}
	frames := map[string][]byte{
		"1x1 JPEG":       encJPEG(t, gradient(1, 1)),
		"3x2 JPEG":       encJPEG(t, gradient(3, 2)),
		"4000x1 JPEG":    encJPEG(t, gradient(4000, 1)),
		"1x3000 JPEG":    encJPEG(t, gradient(1, 3000)),
		"odd JPEG":       encJPEG(t, gradient(1001, 777)),
		"gray JPEG":      encJPEG(t, image.NewGray(image.Rect(0, 0, 500, 300))),
		"CMYK JPEG":      encJPEG(t, cmyk),
		"PNG":            encPNG(t, gradient(800, 450)),
		"1x1 PNG":        encPNG(t, gradient(1, 1)),
		"paletted PNG":   encPNG(t, paletted),
		"16-bit PNG":     encPNG(t, gray16),
		"5000x9 PNG":     encPNG(t, gradient(5000, 9)),
		"not an image":   []byte("<html>502 Bad Gateway</html>"),
		"empty":          {},
		"truncated JPEG": encJPEG(t, gradient(640, 480))[:300],
	}
	regions := map[string]camera.Region{}
	for _, r := range []string{"left", "top right", "centre", "bottom", "middle right"} {
		regions[r] = must(camera.ParseRegion(r))
	}
	for _, b := range [][4]float64{{0, 0, 0.001, 0.001}, {0.999, 0.999, 0.001, 0.001}, {0.5, 0, 0.01, 1}, {0.98, 0.98, 0.04, 0.04}, {0.3, 0.3, 0.4, 0.4}} {
		regions[fmt.Sprint("box ", b)] = must(camera.Box(b[0], b[1], b[2], b[3]))
	}
	for what, frame := range frames {
		svc, cam := oddService(t, frame)
		for rn, r := range regions {
			snap, err := svc.Closer(t.Context(), cam, r)
			if err != nil {
				var ce *camera.Error
				if !errors.As(err, &ce) || voice.Speakable(ce.Say(voice.English)) != nil {
					t.Errorf("%s, %s: %v", what, rn, err)
				}
				if !strings.Contains(what, "not") && what != "empty" && !strings.Contains(what, "truncated") {
					t.Errorf("%s, %s: refused: %v", what, rn, err)
				}
				continue
			}
			img, err := jpeg.Decode(bytes.NewReader(snap.Image.JPEG))
			if err != nil {
				t.Errorf("%s, %s: %v", what, rn, err)
				continue
			}
			b := img.Bounds()
			if max(b.Dx(), b.Dy()) > 1568 || b.Dx()*b.Dy() > 1_150_000 || len(snap.Image.JPEG) > picture.DefaultMaxBytes {
				t.Errorf("%s, %s: %v, %d bytes: over the limits", what, rn, b, len(snap.Image.JPEG))
			}
			if p := snap.Part; p == nil || b.Dx() > p.Shown.Dx() || b.Dy() > p.Shown.Dy() {
				t.Errorf("%s, %s: %v shown from %+v: enlarged", what, rn, b, p)
			}
			if err := voice.Speakable(snap.Description); err != nil {
				t.Errorf("%s, %s: %v", what, rn, err)
			}
		}
	}
}

// A box that starts on the picture's far edge holds nothing of it: it is
// refused, never taken for the whole picture.
func TestBoxOnTheEdgeIsNotTheWholePicture(t *testing.T) {
	t.Parallel()
	for _, b := range [][4]float64{{1, 0, 0.01, 0.5}, {0, 1, 0.5, 0.02}, {1, 1, 0.01, 0.01}} {
		r, err := camera.Box(b[0], b[1], b[2], b[3])
		if err == nil && r.Whole() {
			t.Errorf("box %v is taken for the whole picture", b)
		}
		if err == nil {
			if px := r.Pixels(640, 360); px.Empty() {
				t.Errorf("box %v shows nothing: %v", b, px)
			}
		} else if !errors.Is(err, camera.ErrRegion) {
			t.Errorf("box %v: %v", b, err)
		}
	}
}

// bigPNG is a valid one-bit PNG of w×h black pixels: a few kilobytes that
// decode to w×h bytes.
func bigPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+(w+7)/8)
	for range h {
		z.Write(row)
	}
	z.Close()
	chunk := func(out []byte, kind string, data []byte) []byte {
		out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
		start := len(out)
		out = append(append(out, kind...), data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 1, 0, 0, 0, 0) // one-bit grayscale
	out := []byte("\x89PNG\r\n\x1a\n")
	out = chunk(out, "IHDR", ihdr)
	out = chunk(out, "IDAT", idat.Bytes())
	return chunk(out, "IEND", nil)
}

// A frame of more pixels than any camera has is refused before it is
// decoded: a hostile camera's few kilobytes must not become gigabytes.
func TestFrameBombIsRefusedUndecoded(t *testing.T) {
	t.Parallel()
	frame := bigPNG(t, 12000, 9000)
	if cfg, err := png.DecodeConfig(bytes.NewReader(frame)); err != nil || cfg.Width != 12000 {
		t.Fatalf("the test frame: %v %v", cfg, err)
	}
	svc, cam := oddService(t, frame)
	for _, r := range []camera.Region{{}, must(camera.ParseRegion("left"))} {
		_, err := svc.Closer(t.Context(), cam, r)
		if !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "megapixels") {
			t.Errorf("region %+v: a 108-megapixel frame gave %v", r, err)
		}
	}
	if _, _, err := picture.Process(t.Context(), frame, picture.Limits{}); !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "megapixels") {
		t.Errorf("Process: a 108-megapixel frame gave %v", err)
	}
}
