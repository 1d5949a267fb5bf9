// Package camframe draws deterministic frames that look like security
// camera snapshots (a sky, a house, a car, a tree, sensor noise, vignetting
// and a timestamp overlay) and builds the metadata segments cameras add.
// It feeds the fixture generator and the tests that need a large frame.
package camframe

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
)

// Scene describes one frame.
type Scene struct {
	Width, Height int
	Seed          uint64  // varies the noise and the layout a little
	Noise         float64 // standard deviation of sensor noise in 8-bit levels; zero means 3
	Stamp         string  // overlay text, e.g. "2025-11-29 23:41:07"
	Name          string  // camera name drawn at the bottom right, e.g. "GARAGE"
}

// Draw renders the scene.
func (s Scene) Draw() *image.YCbCr {
	w, h := s.Width, s.Height
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio444)
	rng := rand.New(rand.NewPCG(s.Seed, 0x6d61697306f6e))
	noise := s.Noise
	if noise == 0 {
		noise = 3
	}
	fw, fh := float64(w), float64(h)
	horizon := fh * (0.38 + 0.04*rng.Float64())
	house := rect{fw * 0.08, horizon - fh*0.22, fw * 0.46, horizon + fh*0.18}
	roofTop := house.y0 - fh*0.14
	door := rect{fw * 0.24, horizon - fh*0.02, fw * 0.31, house.y1}
	win1 := rect{fw * 0.12, house.y0 + fh*0.06, fw * 0.20, house.y0 + fh*0.15}
	win2 := rect{fw * 0.35, house.y0 + fh*0.06, fw * 0.43, house.y0 + fh*0.15}
	car := rect{fw * 0.55, fh * 0.62, fw * 0.86, fh * 0.80}
	cabin := rect{fw * 0.61, fh * 0.53, fw * 0.79, fh * 0.64}
	wheelR := fh * 0.05
	wheels := [2][2]float64{{fw * 0.61, fh * 0.80}, {fw * 0.80, fh * 0.80}}
	treeX, treeY, treeR := fw*0.92, horizon-fh*0.12, fh*0.16
	trunk := rect{fw*0.92 - fw*0.012, horizon - fh*0.02, fw*0.92 + fw*0.012, horizon + fh*0.10}
	cx, cy := fw/2, fh/2
	maxd := math.Hypot(cx, cy)

	for y := range h {
		fy := float64(y) + 0.5
		for x := range w {
			fx := float64(x) + 0.5
			var r, g, b float64
			switch {
			case fy < horizon:
				t := fy / horizon
				r, g, b = 120+70*t, 160+60*t, 215+25*t
			default:
				t := (fy - horizon) / (fh - horizon)
				r, g, b = 90-30*t, 118-30*t, 70-25*t
				// A driveway widening towards the camera.
				half := fw * (0.05 + 0.25*t)
				if math.Abs(fx-fw*0.7) < half {
					r, g, b = 128-20*t, 126-20*t, 122-20*t
				}
			}
			if fy < horizon && fx > house.x0-fw*0.02 && fx < house.x1+fw*0.02 && fy > roofTop {
				// Roof: a triangle over the house.
				mid := (house.x0 + house.x1) / 2
				span := (house.x1 - house.x0) / 2 * (fy - roofTop) / (house.y0 - roofTop)
				if fy < house.y0 && math.Abs(fx-mid) < span+fw*0.02 {
					r, g, b = 110, 60, 50
				}
			}
			if house.in(fx, fy) {
				r, g, b = 214, 200, 170
				if win1.in(fx, fy) || win2.in(fx, fy) {
					r, g, b = 60+40*(fy-win1.y0)/(win1.y1-win1.y0), 80, 100
				}
				if door.in(fx, fy) {
					r, g, b = 90, 55, 35
				}
				// Horizontal siding lines.
				if int(fy)%int(math.Max(4, fh/90)) == 0 {
					r, g, b = r-18, g-18, b-18
				}
			}
			if trunk.in(fx, fy) {
				r, g, b = 80, 60, 40
			}
			if d := math.Hypot(fx-treeX, fy-treeY); d < treeR {
				shade := 1 - 0.4*d/treeR
				r, g, b = 40*shade, 100*shade, 45*shade
			}
			// A car with a darker cabin and two wheels, and its shadow.
			if fy > car.y1 && fy < car.y1+fh*0.03 && fx > car.x0 && fx < car.x1 {
				r, g, b = r*0.6, g*0.6, b*0.6
			}
			if car.in(fx, fy) || cabin.in(fx, fy) {
				r, g, b = 150+30*(fx-car.x0)/(car.x1-car.x0), 28, 32
				if cabin.in(fx, fy) && fy > cabin.y0+fh*0.015 && fx > cabin.x0+fw*0.01 && fx < cabin.x1-fw*0.01 {
					r, g, b = 70, 90, 110
				}
			}
			for _, wh := range wheels {
				if d := math.Hypot(fx-wh[0], fy-wh[1]); d < wheelR {
					r, g, b = 25, 25, 25
					if d < wheelR*0.45 {
						r, g, b = 150, 150, 155
					}
				}
			}
			// Vignetting and sensor noise.
			v := 1 - 0.35*math.Pow(math.Hypot(fx-cx, fy-cy)/maxd, 2)
			n := rng.NormFloat64() * noise
			r, g, b = r*v+n, g*v+n, b*v+n+rng.NormFloat64()*noise*0.5
			yy, cb, cr := rgbToYCbCr(r, g, b)
			i := img.YOffset(x, y)
			img.Y[i] = yy
			img.Cb[i] = cb
			img.Cr[i] = cr
		}
	}
	scale := max(1, h/240)
	drawText(img, s.Stamp, scale*4, scale*4, scale)
	if s.Name != "" {
		tw := textWidth(s.Name, scale)
		drawText(img, s.Name, w-tw-scale*4, h-scale*11, scale)
	}
	return img
}

// JPEG draws the scene and encodes it with Go's baseline encoder at the
// given quality, chroma subsampled 4:2:0 as cameras do.
func (s Scene) JPEG(quality int) []byte {
	full := s.Draw()
	sub := subsample420(full)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, sub, &jpeg.Options{Quality: quality}); err != nil {
		panic(err) // writing to a bytes.Buffer cannot fail
	}
	return buf.Bytes()
}

// PPM draws the scene as a binary PPM, for cjpeg.
func (s Scene) PPM() []byte {
	img := s.Draw()
	w, h := s.Width, s.Height
	var buf bytes.Buffer
	buf.WriteString("P6\n")
	buf.WriteString(itoa(w) + " " + itoa(h) + "\n255\n")
	for y := range h {
		for x := range w {
			i := img.YOffset(x, y)
			r, g, b := ycbcrToRGB(img.Y[i], img.Cb[i], img.Cr[i])
			buf.Write([]byte{r, g, b})
		}
	}
	return buf.Bytes()
}

type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) in(x, y float64) bool { return x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1 }

func clamp(v float64) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v + 0.5)
}

func rgbToYCbCr(r, g, b float64) (uint8, uint8, uint8) {
	y := 0.299*r + 0.587*g + 0.114*b
	cb := 128 - 0.168736*r - 0.331264*g + 0.5*b
	cr := 128 + 0.5*r - 0.418688*g - 0.081312*b
	return clamp(y), clamp(cb), clamp(cr)
}

func ycbcrToRGB(y, cb, cr uint8) (uint8, uint8, uint8) {
	fy, fb, fr := float64(y), float64(cb)-128, float64(cr)-128
	return clamp(fy + 1.402*fr), clamp(fy - 0.344136*fb - 0.714136*fr), clamp(fy + 1.772*fb)
}

// subsample420 averages chroma over 2×2 blocks.
func subsample420(src *image.YCbCr) *image.YCbCr {
	b := src.Rect
	dst := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
	copy(dst.Y, src.Y)
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			var cb, cr, n int
			for dy := range 2 {
				for dx := range 2 {
					if x+dx < b.Max.X && y+dy < b.Max.Y {
						i := src.COffset(x+dx, y+dy)
						cb += int(src.Cb[i])
						cr += int(src.Cr[i])
						n++
					}
				}
			}
			i := dst.COffset(x, y)
			dst.Cb[i] = uint8((cb + n/2) / n)
			dst.Cr[i] = uint8((cr + n/2) / n)
		}
	}
	return dst
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
