package testkit

import (
	"image"
	"strings"
	"sync"
	"testing"
)

// scene is a 64×48 grey picture with edges and texture, enough for SSIM to
// tell structure from its inverse.
func scene() *image.Gray {
	m := image.NewGray(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			m.Pix[y*m.Stride+x] = uint8((x*7 + y*3 + (x/8+y/8)%2*90 + (x*y)%13*5) % 256)
		}
	}
	return m
}

func TestSSIMOfIdenticalPlanesIsOne(t *testing.T) {
	t.Parallel()
	m := scene()
	if s := SSIM(m, m); s < 0.9999 {
		t.Fatalf("ssim(x, x) = %v, want 1", s)
	}
	// A plane against its inverse is far from similar.
	inv := image.NewGray(m.Rect)
	for i, v := range m.Pix {
		inv.Pix[i] = 255 - v
	}
	if s := SSIM(m, inv); s > 0.5 {
		t.Fatalf("ssim(x, 255-x) = %v, want well below 1", s)
	}
}

// Lines written by goroutines at once all arrive, each whole.
func TestBufferTakesConcurrentWrites(t *testing.T) {
	t.Parallel()
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("a line\n"))
			}
		})
	}
	wg.Wait()
	if n := strings.Count(b.String(), "a line\n"); n != 800 {
		t.Errorf("%d lines, want 800", n)
	}
}
