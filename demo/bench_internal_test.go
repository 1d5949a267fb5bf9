package demo

import (
	"bytes"
	"image/jpeg"
	"testing"
	"time"
)

// BenchmarkRenderBackyard measures drawing the 3840x2160 scene, without encoding.
func BenchmarkRenderBackyard(b *testing.B) {
	spec := camSpec{w: 3840, h: 2160, kind: sceneBackyard}
	for b.Loop() {
		renderScene(spec, 1, "BACKYARD", time.Unix(0, 0))
	}
}

// BenchmarkEncodeBackyard measures the q85 encoding of the 4K frame.
func BenchmarkEncodeBackyard(b *testing.B) {
	img := renderScene(camSpec{w: 3840, h: 2160, kind: sceneBackyard}, 1, "BACKYARD", time.Unix(0, 0))
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: frameQuality}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}
