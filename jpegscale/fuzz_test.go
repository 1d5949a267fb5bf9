package jpegscale

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maison/internal/camframe"
)

// FuzzDecode checks that no input makes Decode or DecodePartial panic, that
// every error is a jpegscale error, that a successful decode has the bounds
// the frame header promises and planes large enough for them, that
// DecodePartial reads every frame Decode reads, to the same pixels when it
// finds nothing damaged, and that DecodeRegion gives the same pixels for a
// part.
func FuzzDecode(f *testing.F) {
	m := scene(37, 21, 9)
	f.Add(encodeStd(f, m, 75), uint8(0))
	f.Add(encodeStd(f, m, 95), uint8(1))
	f.Add(encodeStd(f, grey(m), 60), uint8(2))
	f.Add(encodeStd(f, scene(9, 17, 3), 50), uint8(3))
	for _, flags := range [][]string{
		{"-progressive"},
		{"-progressive", "-sample", "1x1", "-restart", "1B"},
		{"-sample", "2x1", "-restart", "2B"},
		{"-sample", "4x1"},
		{"-sample", "1x2", "-progressive"},
	} {
		// Seeds from cjpeg when it is installed; the target runs without.
		if data, err := runCjpeg(f.Context(), f.TempDir(), m, flags...); err == nil {
			f.Add(data, uint8(len(flags)))
		}
	}
	// The third corpus (RGB, CMYK, YCCK, 12-bit, arithmetic, lossless,
	// DNL, containers) and small frames of every colour layout.
	third, _ := filepath.Glob(filepath.Join("..", "fixtures", "jpeg", "third.*.jpeg"))
	for i, name := range third {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint8(i))
		}
	}
	for l := camframe.LayoutYCbCr420; l <= camframe.LayoutYCCK; l++ {
		f.Add(camframe.Baseline(29, 19, l, 3, uint64(l)), uint8(l))
	}
	f.Add(camframe.ProgressiveBomb(40, 24, 4, 2, true), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, sc uint8) {
		s := 1 << (sc % 4)
		img, err := Decode(data, s)
		part, ps, cov, perr := DecodePartial(data, 1, 1)
		if perr == nil {
			if sh := cov.Shown(); sh < 0 || sh > 1 || part == nil || part.Bounds().Empty() {
				t.Fatalf("partial decode: shown %v, image %v", sh, part)
			}
			// DecodePartial also checks restart marker numbers, which
			// Decode does not: a frame Decode reads whole may be damaged
			// for it, but one it finds whole must be Decode's pixels.
			if err == nil && s == ps && !cov.Damaged() && !samePixels(part, img) {
				t.Fatal("DecodePartial decodes a whole frame to other pixels than Decode")
			}
		} else if err == nil {
			t.Fatalf("Decode reads the frame whole but DecodePartial fails: %v", perr)
		}
		if err != nil {
			if img != nil {
				t.Fatal("an image with an error")
			}
			if !strings.HasPrefix(err.Error(), "jpegscale: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			var fe FormatError
			var ue UnsupportedError
			if !errors.As(err, &fe) && !errors.As(err, &ue) {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		b := img.Bounds()
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(data)); err == nil {
			want := image.Rect(0, 0, ceilDiv(cfg.Width, s), ceilDiv(cfg.Height, s))
			if b != want {
				t.Fatalf("bounds %v at scale %d, header says %dx%d", b, s, cfg.Width, cfg.Height)
			}
		}
		if b.Empty() || b.Min != (image.Point{}) {
			t.Fatalf("bounds %v", b)
		}
		last := b.Max.Sub(image.Pt(1, 1))
		switch m := img.(type) {
		case *image.Gray:
			if m.PixOffset(last.X, last.Y) >= len(m.Pix) {
				t.Fatalf("grey plane of %d bytes for %v", len(m.Pix), b)
			}
		case *image.YCbCr:
			co := m.COffset(last.X, last.Y)
			if m.YOffset(last.X, last.Y) >= len(m.Y) || co >= len(m.Cb) || co >= len(m.Cr) {
				t.Fatalf("planes of %d, %d, %d bytes for %v %v", len(m.Y), len(m.Cb), len(m.Cr), b, m.SubsampleRatio)
			}
			// Every sample can be read.
			_ = m.At(last.X, last.Y)
		default:
			t.Fatalf("image type %T", img)
		}
		// A part decoded alone is the same part of the whole.
		w, h := b.Dx()*s, b.Dy()*s
		r := image.Rect(int(sc)%w, int(sc)%h, w, h)
		cut, err := DecodeRegion(data, s, r)
		if err != nil {
			t.Fatalf("the whole decodes, the part %v does not: %v", r, err)
		}
		if x, y, ok := partMatches(img, cut); !ok {
			t.Fatalf("the part %v differs from the whole at %d,%d", r, x, y)
		}
	})
}

// samePixels compares two decoded images within their bounds.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}
