package picture_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"

	"golang.org/x/image/tiff"

	"maison/camera/picture"
)

// attackScene is a w×h picture with some detail in it, as a camera's.
func attackScene(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), uint8((x^y)&0xff), 255
		}
	}
	return img
}

// interlacedPNG writes img as an 8-bit RGB PNG with Adam7 interlacing,
// which Go's encoder never writes but cameras and browsers do.
func interlacedPNG(img *image.NRGBA) []byte {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	var raw bytes.Buffer
	for _, p := range [7][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}} {
		if p[0] >= w || p[1] >= h {
			continue
		}
		for y := p[1]; y < h; y += p[3] {
			raw.WriteByte(0)
			for x := p[0]; x < w; x += p[2] {
				i := img.PixOffset(x, y)
				raw.Write(img.Pix[i : i+3])
			}
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw.Bytes())
	zw.Close()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(kind))
		c.Write(data)
		out.WriteString(kind)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9], ihdr[12] = 8, 2, 1
	chunk("IHDR", ihdr)
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// Some cameras answer PNG, TIFF or BMP rather than JPEG, and the fit
// decodes those with the standard decoders: every such decode is admitted
// for at least what it allocates, as TestEveryDecodeIsAdmittedForWhatItAllocates
// holds the JPEG decodes to. A compressed TIFF (one strip read whole, then
// the picture) and an interlaced PNG (each of Adam7's passes decoded apart,
// then merged) allocate twice the four bytes a pixel admitted and more.
func TestAttack35OtherFormatsAreAdmittedForWhatTheyAllocate(t *testing.T) {
	scene := attackScene(2000, 1500)
	frames := map[string][]byte{"interlaced PNG 2000×1500": interlacedPNG(scene)}
	var b bytes.Buffer
	if err := tiff.Encode(&b, scene, &tiff.Options{Compression: tiff.Deflate}); err != nil {
		t.Fatal(err)
	}
	frames["deflate TIFF 2000×1500"] = bytes.Clone(b.Bytes())
	b.Reset()
	if err := png.Encode(&b, scene); err != nil {
		t.Fatal(err)
	}
	frames["PNG 2000×1500 (holds)"] = bytes.Clone(b.Bytes())
	for name, data := range frames {
		f, _, err := picture.Repair(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var admitted int64
		l := picture.Limits{Memory: picture.NewMemoryNoting(picture.DefaultMemory, func(n int64) { admitted += n })}
		var werr error
		got := allocated(func() { _, werr = f.Fit(t.Context(), l) })
		if werr != nil {
			t.Fatalf("%s: %v", name, werr)
		}
		if admitted < int64(got) {
			if raceDetector && strings.Contains(name, "TIFF") {
				// Under the race detector sync.Pool keeps nothing, and the
				// deflate TIFF's decode allocates 134 MB where it otherwise
				// allocates 83 (admitted 94): measured without it, it holds.
				t.Logf("%s, under the race detector: admitted %.1f MB, allocated %.1f MB", name, float64(admitted)/1e6, float64(got)/1e6)
				continue
			}
			t.Errorf("%s: admitted %.1f MB, allocated %.1f MB", name, float64(admitted)/1e6, float64(got)/1e6)
		}
	}
}
