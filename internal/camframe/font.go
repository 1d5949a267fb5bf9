package camframe

import (
	"image"

	"maison/internal/pixelfont"
)

func textWidth(s string, scale int) int { return pixelfont.TextWidth(s) * scale }

// drawText writes s in white with a dark outline, as camera overlays do,
// with its top left corner at (x, y) and each font pixel scale pixels wide.
func drawText(img *image.YCbCr, s string, x, y, scale int) {
	for pass, luma := range []uint8{16, 235} {
		grow := 0
		if pass == 0 {
			grow = max(1, scale/2) // the outline
		}
		pixelfont.Dots(s, func(col, row int) {
			px, py := x+col*scale, y+row*scale
			fill(img, px-grow, py-grow, px+scale+grow, py+scale+grow, luma)
		})
	}
}

func fill(img *image.YCbCr, x0, y0, x1, y1 int, luma uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.Y[img.YOffset(x, y)] = luma
			i := img.COffset(x, y)
			img.Cb[i], img.Cr[i] = 128, 128
		}
	}
}
