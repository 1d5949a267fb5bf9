package jpegscale

import (
	"bytes"
	"image"
	"image/jpeg"
	"os/exec"
	"sync"
	"testing"

	"github.com/disintegration/imaging"

	"maison/internal/cputime"
	"maison/internal/testkit"
)

// The fit budget of the camera pipeline for a 16:9 frame: about 1.15
// megapixels, long edge at most 1568.
const fitW, fitH = 1429, 804

// frame4K is a 3840x2160 camera-like scene encoded by image/jpeg at quality
// 85 (4:2:0), built once for all benchmarks and tests of a run.
var frame4K = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, scene(3840, 2160, 4), &jpeg.Options{Quality: 85}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// fastFit is the DCT-domain path: decode at the largest scale that still
// covers the budget, a small triangle resize on the planes, encode at 80.
func fastFit(data []byte) ([]byte, error) {
	img, _, err := DecodeAtLeast(data, fitW, fitH)
	if err != nil {
		return nil, err
	}
	out, err := Resize(img, fitW, fitH)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: 80})
	return buf.Bytes(), err
}

// fastFitImaging is fastFit with imaging.Resize (Linear) instead of Resize.
func fastFitImaging(data []byte) ([]byte, error) {
	img, _, err := DecodeAtLeast(data, fitW, fitH)
	if err != nil {
		return nil, err
	}
	out := imaging.Resize(img, fitW, fitH, imaging.Linear)
	var buf bytes.Buffer
	err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: 80})
	return buf.Bytes(), err
}

// bench runs op b.N times and also reports CPU time per operation.
func bench(b *testing.B, bytes int, op func() error) {
	if bytes > 0 {
		b.SetBytes(int64(bytes))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Nanos()
	n := 0
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(cputime.Nanos()-cpu)/float64(n), "cpu-ns/op")
}

func benchFit(b *testing.B, fit func([]byte) ([]byte, error)) {
	data := frame4K()
	bench(b, len(data), func() error { _, err := fit(data); return err })
}

// BenchmarkNaive is the path the fit is measured against: full decode,
// Lanczos resize, encode at quality 80.
func BenchmarkNaive(b *testing.B) {
	benchFit(b, func(d []byte) ([]byte, error) { return testkit.NaiveFit(b, d, fitW, fitH), nil })
}
func BenchmarkFast(b *testing.B)              { benchFit(b, fastFit) }
func BenchmarkFastImagingLinear(b *testing.B) { benchFit(b, fastFitImaging) }

func BenchmarkDecodeImageJPEG(b *testing.B) {
	data := frame4K()
	bench(b, len(data), func() error { _, err := jpeg.Decode(bytes.NewReader(data)); return err })
}

func BenchmarkDecode(b *testing.B) {
	data := frame4K()
	for _, s := range []int{1, 2, 4, 8} {
		b.Run("scale"+itoa(s), func(b *testing.B) {
			bench(b, len(data), func() error { _, err := Decode(data, s); return err })
		})
	}
}

func BenchmarkResize(b *testing.B) {
	img, err := Decode(frame4K(), 2)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("planes-lanczos", func(b *testing.B) {
		bench(b, 0, func() error { _, err := Resize(img, fitW, fitH); return err })
	})
	b.Run("imaging-linear", func(b *testing.B) {
		bench(b, 0, func() error { imaging.Resize(img, fitW, fitH, imaging.Linear); return nil })
	})
}

func TestFastFitLooksLikeNaiveFit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("jpegscale: 4K frame comparison skipped in -short mode")
	}
	data := frame4K()
	naive := testkit.NaiveFit(t, data, fitW, fitH)
	fast, err := fastFit(data)
	if err != nil {
		t.Fatal(err)
	}
	ni, err := jpeg.Decode(bytes.NewReader(naive))
	if err != nil {
		t.Fatal(err)
	}
	fi, err := jpeg.Decode(bytes.NewReader(fast))
	if err != nil {
		t.Fatal(err)
	}
	if ni.Bounds() != fi.Bounds() || fi.Bounds() != image.Rect(0, 0, fitW, fitH) {
		t.Fatalf("fast %v, naive %v, want %dx%d", fi.Bounds(), ni.Bounds(), fitW, fitH)
	}
	s := testkit.SSIM(ni, fi)
	t.Logf("luma SSIM fast vs naive: %.4f (naive %d B, fast %d B)", s, len(naive), len(fast))
	if s < 0.97 {
		t.Errorf("luma SSIM %.4f between the fast and naive fits, want ≥ 0.97", s)
	}
}

// BenchmarkDecodeProgressive decodes the 4K frame made progressive by
// jpegtran (the same coefficients, re-coded losslessly).
func BenchmarkDecodeProgressive(b *testing.B) {
	if _, err := exec.LookPath("jpegtran"); err != nil {
		b.Skip("jpegscale: jpegtran not found; install libjpeg-turbo-progs")
	}
	cmd := exec.CommandContext(b.Context(), "jpegtran", "-progressive")
	cmd.Stdin = bytes.NewReader(frame4K())
	data, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("image-jpeg", func(b *testing.B) {
		bench(b, len(data), func() error { _, err := jpeg.Decode(bytes.NewReader(data)); return err })
	})
	for _, s := range []int{1, 2, 4, 8} {
		b.Run("scale"+itoa(s), func(b *testing.B) {
			bench(b, len(data), func() error { _, err := Decode(data, s); return err })
		})
	}
}

// BenchmarkDecodeRegion decodes the top right quarter of the 4K frame at
// full scale, in the decoder, against the whole frame decoded at full
// scale and cut (the anchor of the same run).
func BenchmarkDecodeRegion(b *testing.B) {
	data := frame4K()
	quarter := image.Rect(1920, 0, 3840, 1080)
	b.Run("region_quarter", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeRegion(data, 1, quarter); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole_then_cut", func(b *testing.B) {
		for b.Loop() {
			img, err := Decode(data, 1)
			if err != nil {
				b.Fatal(err)
			}
			_ = img.(*image.YCbCr).SubImage(quarter)
		}
	})
}
