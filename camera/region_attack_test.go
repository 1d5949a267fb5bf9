package camera_test

// Attack tests of camera_snapshot's region (branch attack-13): odd frames,
// odd boxes.

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
	"strings"
	"testing"
	"time"

	"maison/camera"
	"maison/camera/picture"
	"maison/homeassistant"
	"maison/voice"
)

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
func TestAttackCloserOnOddFrames(t *testing.T) {
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
func TestAttackBoxOnTheEdgeIsNotTheWholePicture(t *testing.T) {
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
func TestAttackFrameBombIsRefusedUndecoded(t *testing.T) {
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
	if _, _, err := picture.Process(frame, picture.Limits{}); !errors.Is(err, picture.ErrNotImage) || !strings.Contains(err.Error(), "megapixels") {
		t.Errorf("Process: a 108-megapixel frame gave %v", err)
	}
}
