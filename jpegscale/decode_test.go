package jpegscale

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestZigzagIsTheAnnexAOrder(t *testing.T) {
	t.Parallel()
	// Walk the anti-diagonals, alternating direction, as Figure A.6 draws.
	var want [64]uint8
	k := 0
	for s := 0; s < 15; s++ {
		for i := 0; i <= s; i++ {
			r := i
			if s%2 == 0 {
				r = s - i
			}
			c := s - r
			if r < 8 && c < 8 {
				want[k] = uint8(r*8 + c)
				k++
			}
		}
	}
	if want != zigzag {
		t.Fatalf("zigzag table differs from the traversal:\n got %v\nwant %v", zigzag, want)
	}
	for i, kt := range keepTables {
		n := 8 >> i
		maxK := 0
		for k, z := range kt {
			if z != 64 {
				maxK = k
			}
		}
		if maxK != lastKept[i] {
			t.Errorf("scale %d: last kept zig-zag index %d, table says %d", n, maxK, lastKept[i])
		}
	}
}

// testImage is one encoded test input.
type testImage struct {
	name string
	data []byte
}

// stdImages are encoded by image/jpeg: 4:2:0 colour and grey, at several
// qualities and sizes that do not fill whole MCUs.
func stdImages(t *testing.T) []testImage {
	var out []testImage
	for _, sz := range []struct{ w, h int }{{96, 64}, {101, 67}, {7, 5}, {333, 250}} {
		m := scene(sz.w, sz.h, uint64(sz.w))
		for _, q := range []int{50, 85, 100} {
			out = append(out, testImage{name: "std-420-" + itoa(sz.w) + "x" + itoa(sz.h) + "-q" + itoa(q), data: encodeStd(t, m, q)})
		}
		out = append(out, testImage{name: "std-grey-" + itoa(sz.w) + "x" + itoa(sz.h), data: encodeStd(t, grey(m), 90)})
	}
	return out
}

// cjpegImages are encoded by cjpeg: other subsamplings, progressive,
// restart intervals, multi-scan sequential and optimized tables.
func cjpegImages(t *testing.T) []testImage {
	m := scene(203, 149, 7)
	g := grey(m)
	dir := t.TempDir()
	scans := filepath.Join(dir, "scans.txt")
	if err := os.WriteFile(scans, []byte("0;\n1;\n2;\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out []testImage
	add := func(name string, m image.Image, flags ...string) {
		out = append(out, testImage{name: name, data: cjpeg(t, m, flags...)})
	}
	add("cjpeg-444", m, "-quality", "90", "-sample", "1x1")
	add("cjpeg-422", m, "-quality", "85", "-sample", "2x1")
	add("cjpeg-420", m, "-quality", "75", "-sample", "2x2")
	add("cjpeg-440", m, "-quality", "85", "-sample", "1x2")
	add("cjpeg-411", m, "-quality", "85", "-sample", "4x1")
	add("cjpeg-410", m, "-quality", "85", "-sample", "4x2")
	add("cjpeg-420-optimize", m, "-quality", "85", "-optimize")
	add("cjpeg-420-restart-1row", m, "-quality", "85", "-restart", "1")
	add("cjpeg-422-restart-5mcu", m, "-quality", "85", "-sample", "2x1", "-restart", "5B")
	add("cjpeg-420-progressive", m, "-quality", "85", "-progressive")
	add("cjpeg-444-progressive", m, "-quality", "95", "-sample", "1x1", "-progressive")
	add("cjpeg-422-progressive-restart", m, "-quality", "80", "-sample", "2x1", "-progressive", "-restart", "3B")
	add("cjpeg-grey-progressive", g, "-quality", "85", "-progressive")
	add("cjpeg-grey-restart", g, "-quality", "85", "-restart", "2B")
	add("cjpeg-420-multiscan", m, "-quality", "85", "-scans", scans)
	add("cjpeg-420-q100-progressive", m, "-quality", "100", "-progressive")
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestScale1MatchesImageJPEG(t *testing.T) {
	t.Parallel()
	imgs := append(stdImages(t), cjpegImages(t)...)
	for _, ti := range imgs {
		t.Run(ti.name, func(t *testing.T) {
			want, err := jpeg.Decode(bytes.NewReader(ti.data))
			if err != nil {
				// No standard reference (image/jpeg refuses progressive files
				// with restart intervals): the decode must still succeed at the
				// header's size; its luma is checked against djpeg elsewhere.
				t.Logf("image/jpeg cannot decode %s (%v); checking the size only", ti.name, err)
				cfg, cerr := jpeg.DecodeConfig(bytes.NewReader(ti.data))
				got, derr := Decode(ti.data, 1)
				if cerr != nil || derr != nil || got.Bounds().Dx() != cfg.Width || got.Bounds().Dy() != cfg.Height {
					t.Fatalf("Decode: %v, header %v: %+v", derr, cerr, cfg)
				}
				return
			}
			got, err := Decode(ti.data, 1)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if got.Bounds() != want.Bounds() {
				t.Fatalf("bounds %v, image/jpeg %v", got.Bounds(), want.Bounds())
			}
			if gy, ok := got.(*image.YCbCr); ok {
				if wy, ok := want.(*image.YCbCr); !ok || gy.SubsampleRatio != wy.SubsampleRatio {
					t.Fatalf("got %v, image/jpeg %T", gy.SubsampleRatio, want)
				}
			}
			gp, wp := planes(t, got), planes(t, want)
			if len(gp) != len(wp) {
				t.Fatalf("%d planes, image/jpeg %d", len(gp), len(wp))
			}
			for i := range gp {
				if d := maxDiff(gp[i], wp[i]); d > 2 {
					t.Errorf("plane %d: max difference %d from image/jpeg (want ≤ 2)", i, d)
				}
			}
		})
	}
}

func TestReducedScalesMatchBoxDownscale(t *testing.T) {
	t.Parallel()
	imgs := append(stdImages(t), cjpegImages(t)...)
	for _, ti := range imgs {
		full, err := jpeg.Decode(bytes.NewReader(ti.data))
		if err != nil {
			continue
		}
		fp := planes(t, full)
		for _, s := range []int{2, 4, 8} {
			t.Run(ti.name+"/scale"+itoa(s), func(t *testing.T) {
				got, err := Decode(ti.data, s)
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				b := full.Bounds()
				if want := image.Rect(0, 0, (b.Dx()+s-1)/s, (b.Dy()+s-1)/s); got.Bounds() != want {
					t.Fatalf("bounds %v, want %v", got.Bounds(), want)
				}
				gp := planes(t, got)
				for i := range gp {
					ref := boxDown(fp[i], s)
					if ref.w != gp[i].w || ref.h != gp[i].h {
						t.Fatalf("plane %d: %dx%d, box reference %dx%d", i, gp[i].w, gp[i].h, ref.w, ref.h)
					}
					p := psnr(gp[i], ref, s, fp[i].w, fp[i].h)
					if math.IsNaN(p) {
						continue
					}
					if p < 30 {
						t.Errorf("plane %d: PSNR %.1f dB against image/jpeg + box downscale (want ≥ 30)", i, p)
					} else {
						t.Logf("plane %d: PSNR %.1f dB", i, p)
					}
				}
			})
		}
	}
}

func TestDecodeAtLeastNeverGoesBelowTheAsk(t *testing.T) {
	t.Parallel()
	data := encodeStd(t, scene(3840/8, 2160/8, 1), 85) // 480x270
	cases := []struct {
		minW, minH, scale int
	}{
		{60, 34, 8}, {61, 34, 4}, {60, 35, 4}, {120, 68, 4}, {121, 60, 2},
		{240, 135, 2}, {241, 135, 1}, {1000, 1000, 1}, {0, 0, 8},
	}
	for _, c := range cases {
		img, s, err := DecodeAtLeast(data, c.minW, c.minH)
		if err != nil {
			t.Fatal(err)
		}
		if s != c.scale {
			t.Errorf("DecodeAtLeast(%d, %d) scale %d, want %d", c.minW, c.minH, s, c.scale)
		}
		b := img.Bounds()
		if b.Dx() != (480+s-1)/s || b.Dy() != (270+s-1)/s {
			t.Errorf("DecodeAtLeast(%d, %d) bounds %v at scale %d", c.minW, c.minH, b, s)
		}
		if s > 1 && (b.Dx() < c.minW || b.Dy() < c.minH) {
			t.Errorf("DecodeAtLeast(%d, %d) gave %v, smaller than asked", c.minW, c.minH, b)
		}
	}
}

func TestBadScaleIsRefused(t *testing.T) {
	t.Parallel()
	data := encodeStd(t, scene(16, 16, 1), 85)
	for _, s := range []int{0, 3, 16, -1} {
		if _, err := Decode(data, s); !errors.Is(err, ErrScale) {
			t.Errorf("Decode(scale %d) error %v, want ErrScale", s, err)
		}
	}
}

func TestTruncatedScanDataIsAnError(t *testing.T) {
	t.Parallel()
	data := encodeStd(t, scene(200, 120, 3), 90)
	sos := bytes.Index(data, []byte{0xFF, 0xDA})
	for _, cut := range []int{sos + 20, sos + 500, len(data) / 2, len(data) - 200} {
		_, err := Decode(data[:cut], 1)
		var fe FormatError
		if !errors.As(err, &fe) {
			t.Errorf("cut at %d of %d: error %v, want a FormatError", cut, len(data), err)
		}
	}
	// Without EOI the image is complete: accepted, as libjpeg does.
	if _, err := Decode(data[:len(data)-2], 2); err != nil {
		t.Errorf("missing EOI: %v", err)
	}
}

func TestUnsupportedFramesAreTyped(t *testing.T) {
	t.Parallel()
	data := encodeStd(t, scene(32, 32, 1), 85)
	sof := bytes.Index(data, []byte{0xFF, 0xC0})
	for _, m := range []byte{0xC3, 0xC9, 0xCA, 0xC5} {
		b := bytes.Clone(data)
		b[sof+1] = m
		_, err := Decode(b, 1)
		var ue UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("SOF 0x%02X: error %v, want an UnsupportedError", m, err)
		}
	}
	b := bytes.Clone(data)
	b[sof+4] = 12 // precision
	if _, err := Decode(b, 1); !errors.As(err, new(UnsupportedError)) {
		t.Errorf("12-bit: error %v, want an UnsupportedError", err)
	}
}

func TestErrorsArePrefixed(t *testing.T) {
	t.Parallel()
	for _, in := range [][]byte{nil, {0xFF}, {0xFF, 0xD8}, {0xFF, 0xD8, 0xFF, 0xD9}, []byte("<html>")} {
		_, err := Decode(in, 1)
		if err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte("jpegscale: ")) {
			t.Errorf("Decode(%q) error %v, want a jpegscale: error", in, err)
		}
	}
}
