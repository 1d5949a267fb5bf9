package demo

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/jpeg"
	"math"
	"runtime"
	"strings"
	"sync"
	"time"

	"maison/internal/pixelfont"
)

// sceneKind selects what a camera looks at.
type sceneKind int

const (
	sceneFrontDoor sceneKind = iota
	sceneGarage
	sceneBackyard
	scenePorch
	sceneShed
)

// frameQuality is the JPEG quality of the frames as cameras produce them.
const frameQuality = 85

// Garage defect: a COM segment right after SOI whose length field announces
// 4,094 bytes (0x0FFE, length field included) while the zeros really span
// 4,958 bytes (length field plus 4,956 zeros): 864 extraneous bytes before
// the next marker, as Dahua cameras write it (home-assistant/core#178372).
const (
	defectDeclared = 0x0FFE
	defectZeros    = 4956
)

type frameSet struct {
	served, clean []byte
}

// renderFrame draws and encodes a camera's frame over its scene, drawn
// without overlay by renderBase; the overlay shows at.
func renderFrame(base *image.RGBA, name string, spec camSpec, at time.Time) frameSet {
	img := &image.RGBA{Pix: bytes.Clone(base.Pix), Stride: base.Stride, Rect: base.Rect}
	drawOverlay(img, strings.ToUpper(name), at)
	var buf bytes.Buffer
	buf.Grow(spec.w * spec.h / 4)
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: frameQuality}); err != nil {
		// Encoding an in-memory RGBA image into a bytes.Buffer cannot fail.
		panic("demo: encoding a frame: " + err.Error())
	}
	clean := buf.Bytes()
	if !spec.defect {
		return frameSet{served: clean, clean: clean}
	}
	return frameSet{served: withLyingCOM(clean), clean: clean}
}

// withLyingCOM inserts, right after SOI, a COM segment of zeros whose length
// field understates its real size.
func withLyingCOM(clean []byte) []byte {
	out := make([]byte, 0, len(clean)+4+defectZeros)
	out = append(out, clean[:2]...) // SOI
	out = append(out, 0xFF, 0xFE, byte(defectDeclared>>8), byte(defectDeclared&0xFF))
	out = append(out, make([]byte, defectZeros)...)
	return append(out, clean[2:]...)
}

// seedFor derives a camera's deterministic picture seed from its entity id.
func seedFor(entityID string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(entityID))
	return f.Sum64()
}

type rgb struct{ r, g, b float64 }

func mix(a, b rgb, t float64) rgb {
	if t <= 0 {
		return a
	}
	if t >= 1 {
		return b
	}
	return rgb{a.r + (b.r-a.r)*t, a.g + (b.g-a.g)*t, a.b + (b.b-a.b)*t}
}

func (c rgb) scale(f float64) rgb { return rgb{c.r * f, c.g * f, c.b * f} }

// sceneFunc returns the colour at (x, y), where y runs 0..1 top to bottom
// and x runs 0..aspect, so shapes keep their proportions.
type sceneFunc func(x, y float64) rgb

// renderScene draws the scene, vignette, sensor noise and the overlay bar.
func renderScene(spec camSpec, seed uint64, label string, at time.Time) *image.RGBA {
	img := renderBase(spec, seed)
	drawOverlay(img, label, at)
	return img
}

// renderBase draws the scene, vignette and sensor noise: everything but the
// overlay, the same for every minute.
func renderBase(spec camSpec, seed uint64) *image.RGBA {
	w, h := spec.w, spec.h
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	aspect := float64(w) / float64(h)
	s := uint32(seed) ^ uint32(seed>>32)
	var fn sceneFunc
	switch spec.kind {
	case sceneFrontDoor:
		fn = frontDoorScene(aspect, s)
	case sceneGarage:
		fn = garageScene(aspect, s)
	case sceneBackyard:
		fn = backyardScene(aspect, s)
	case scenePorch:
		fn = porchScene(aspect, s)
	default:
		fn = shedScene(aspect, s)
	}
	bands := runtime.GOMAXPROCS(0)
	if bands > 16 {
		bands = 16
	}
	var wg sync.WaitGroup
	for b := range bands {
		y0, y1 := h*b/bands, h*(b+1)/bands
		wg.Go(func() {
			for py := y0; py < y1; py++ {
				// One noise stream per row keeps the picture independent of
				// how rows are split between goroutines.
				rs := seed ^ (uint64(py)+1)*0x9E3779B97F4A7C15
				y := (float64(py) + 0.5) / float64(h)
				row := img.Pix[py*img.Stride:]
				for px := range w {
					x := (float64(px) + 0.5) / float64(h)
					c := fn(x, y)
					dx, dy := x/aspect-0.5, y-0.5
					v := 1 - 0.55*(dx*dx+dy*dy) // vignette
					var n float64
					rs, n = noise(rs)
					row[px*4+0] = clamp8(c.r*v + n)
					rs, n = noise(rs)
					row[px*4+1] = clamp8(c.g*v + n*0.8)
					rs, n = noise(rs)
					row[px*4+2] = clamp8(c.b*v + n)
					row[px*4+3] = 255
				}
			}
		})
	}
	wg.Wait()
	return img
}

// noise returns the next state of a xorshift generator and a triangular
// sample in about ±5, like a small sensor's read noise.
func noise(s uint64) (uint64, float64) {
	s ^= s << 13
	s ^= s >> 7
	s ^= s << 17
	a := float64(s&0xFFFF) / 65535
	b := float64((s>>16)&0xFFFF) / 65535
	return s, (a + b - 1) * 5
}

func clamp8(v float64) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}

// hash2 is a deterministic lattice hash in [0, 1].
func hash2(ix, iy int, seed uint32) float64 {
	h := uint32(ix)*374761393 + uint32(iy)*668265263 + seed*2246822519
	h = (h ^ (h >> 13)) * 1274126177
	h ^= h >> 16
	return float64(h&0xFFFFFF) / float64(0xFFFFFF)
}

// vnoise is smooth value noise in [0, 1].
func vnoise(x, y float64, seed uint32) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := int(fx), int(fy)
	tx, ty := x-fx, y-fy
	tx = tx * tx * (3 - 2*tx)
	ty = ty * ty * (3 - 2*ty)
	a := hash2(ix, iy, seed)
	b := hash2(ix+1, iy, seed)
	c := hash2(ix, iy+1, seed)
	d := hash2(ix+1, iy+1, seed)
	return a + (b-a)*tx + (c-a)*ty + (a-b-c+d)*tx*ty
}

// fbm sums three octaves of value noise, in [0, 1].
func fbm(x, y float64, seed uint32) float64 {
	return (vnoise(x, y, seed)*0.57 + vnoise(x*2.1, y*2.1, seed+1)*0.29 + vnoise(x*4.3, y*4.3, seed+2)*0.14)
}

func frac(v float64) float64 { return v - math.Floor(v) }

func inRect(x, y, x0, y0, x1, y1 float64) bool { return x >= x0 && x < x1 && y >= y0 && y < y1 }

// sky is a vertical gradient with soft clouds.
func sky(x, y, horizon float64, top, low rgb, seed uint32) rgb {
	c := mix(top, low, y/horizon)
	cl := fbm(x*2.5, y*6, seed+7)
	if cl > 0.55 {
		c = mix(c, rgb{236, 238, 242}, (cl-0.55)*2.2)
	}
	return c
}

// ground projects (x, y) onto a plane seen from a camera whose horizon is
// at horizonY and vanishing point at vx, returning plane coordinates.
func ground(x, y, vx, horizonY float64) (gx, gz float64) {
	d := y - horizonY
	if d < 1e-3 {
		d = 1e-3
	}
	gz = 0.25 / d
	gx = (x - vx) * gz
	return gx, gz
}

// paving draws joints on a ground plane, with screen-space line widths.
func paving(base rgb, x, y, vx, horizonY, tile float64, seed uint32) rgb {
	gx, gz := ground(x, y, vx, horizonY)
	c := base.scale(0.85 + 0.3*fbm(gx*0.8, gz*0.8, seed))
	lw := 0.02 * gz // joints thin out with distance
	if frac(gx/tile) < lw || frac(gz/tile) < lw*2 {
		c = c.scale(0.72)
	}
	return c.scale(0.8 + 0.2*math.Min(1, (y-horizonY)*3))
}

func frontDoorScene(a float64, seed uint32) sceneFunc {
	cx := a / 2
	skyTop, skyLow := rgb{92, 140, 200}, rgb{178, 204, 230}
	brick, mortar := rgb{168, 92, 70}, rgb{196, 188, 176}
	door := rgb{34, 78, 62}
	frame := rgb{228, 226, 218}
	return func(x, y float64) rgb {
		switch {
		case y < 0.16:
			return sky(x, y, 0.16, skyTop, skyLow, seed)
		case y < 0.22: // roof edge
			t := fbm(x*40, y*40, seed+3)
			return rgb{60, 58, 62}.scale(0.8 + 0.4*t)
		case y >= 0.80: // front path
			c := paving(rgb{150, 146, 138}, x, y, cx, 0.62, 0.5, seed+4)
			// doormat
			w := 0.16 + (y-0.80)*0.5
			if y < 0.88 && math.Abs(x-cx) < w {
				m := rgb{96, 70, 44}.scale(0.85 + 0.3*vnoise(x*300, y*300, seed+5))
				return m
			}
			return c
		}
		// the door and its frame
		if inRect(x, y, cx-0.15, 0.32, cx+0.15, 0.80) {
			if !inRect(x, y, cx-0.13, 0.34, cx+0.13, 0.80) {
				return frame.scale(0.9 + 0.1*vnoise(x*80, y*80, seed))
			}
			c := door.scale(0.9 + 0.15*fbm(x*6, y*60, seed+6)) // wood grain
			if inRect(x, y, cx-0.09, 0.37, cx+0.09, 0.45) {
				return mix(rgb{200, 214, 226}, rgb{120, 140, 160}, (y-0.37)/0.08) // fanlight glass
			}
			for _, p := range [][4]float64{{-0.1, 0.48, -0.015, 0.62}, {0.015, 0.48, 0.1, 0.62}, {-0.1, 0.65, -0.015, 0.77}, {0.015, 0.65, 0.1, 0.77}} {
				if inRect(x, y, cx+p[0], p[1], cx+p[2], p[3]) {
					if !inRect(x, y, cx+p[0]+0.008, p[1]+0.008, cx+p[2]-0.008, p[3]-0.008) {
						return c.scale(0.65)
					}
					return c.scale(1.08)
				}
			}
			if dx, dy := x-(cx+0.095), y-0.6; dx*dx+dy*dy < 0.012*0.012 {
				return rgb{212, 176, 90}.scale(1 - 30*dy) // brass knob
			}
			return c
		}
		// side window
		if inRect(x, y, 0.3, 0.36, 0.62, 0.62) {
			if !inRect(x, y, 0.315, 0.375, 0.605, 0.605) || math.Abs(x-0.46) < 0.006 || math.Abs(y-0.49) < 0.006 {
				return frame
			}
			return mix(rgb{160, 186, 210}, rgb{52, 60, 72}, (y-0.36)/0.26+0.2*vnoise(x*10, y*10, seed))
		}
		// wall lamp
		if inRect(x, y, cx+0.2, 0.40, cx+0.24, 0.47) {
			return rgb{250, 232, 170}
		}
		// bricks
		row := math.Floor((y - 0.22) / 0.03)
		off := 0.0
		if int(row)%2 == 1 {
			off = 0.04
		}
		if frac((y-0.22)/0.03) < 0.12 || frac((x+off)/0.08) < 0.05 {
			return mortar.scale(0.9 + 0.1*vnoise(x*200, y*200, seed))
		}
		shade := 0.8 + 0.35*hash2(int((x+off)/0.08), int(row), seed)
		return brick.scale(shade * (0.92 + 0.16*vnoise(x*90, y*90, seed+8)))
	}
}

func garageScene(a float64, seed uint32) sceneFunc {
	cx := a / 2
	wall := rgb{182, 178, 168}
	panel := rgb{214, 212, 206}
	return func(x, y float64) rgb {
		switch {
		case y < 0.18:
			return sky(x, y, 0.18, rgb{70, 110, 170}, rgb{160, 190, 220}, seed)
		case y >= 0.82:
			c := paving(rgb{138, 136, 132}, x, y, cx, 0.66, 1.2, seed+2)
			if gx, gz := ground(x, y, cx, 0.66); fbm(gx*3, gz*3, seed+9) > 0.72 {
				c = c.scale(0.7) // oil stain
			}
			return c
		}
		if inRect(x, y, cx-0.66, 0.26, cx+0.66, 0.82) {
			if !inRect(x, y, cx-0.62, 0.29, cx+0.62, 0.82) {
				return rgb{70, 70, 74}
			}
			p := (y - 0.29) / 0.53 * 6
			c := panel.scale(0.96 - 0.1*(y-0.29) + 0.05*vnoise(x*20, y*3, seed))
			if f := frac(p); f < 0.04 {
				c = c.scale(0.6) // groove between sections
			} else if f > 0.96 {
				c = c.scale(1.06)
			}
			if frac((x-cx)*8) < 0.03 {
				c = c.scale(0.93) // pressed ribs
			}
			if inRect(x, y, cx-0.5, 0.33, cx+0.5, 0.39) && frac((x-cx)*2.4) > 0.1 {
				return rgb{40, 48, 58}.scale(0.8 + 0.4*vnoise(x*30, y*30, seed)) // windows
			}
			return c
		}
		if inRect(x, y, cx-0.04, 0.2, cx+0.04, 0.245) {
			return rgb{255, 240, 196} // lamp
		}
		stain := fbm(x*3, y*9, seed+11)
		return wall.scale(0.82 + 0.28*stain)
	}
}

func backyardScene(a float64, seed uint32) sceneFunc {
	const horizon = 0.5
	type tree struct{ x, y, r float64 }
	back := []tree{{0.35, 0.24, 0.15}, {0.75, 0.2, 0.12}, {1.25, 0.18, 0.18}, {1.62, 0.26, 0.11}}
	wood := rgb{146, 110, 72}
	grass := rgb{78, 132, 60}
	leaf := func(x, y float64, t tree) (rgb, bool) {
		dx, dy := x-t.x, y-t.y
		d2 := (dx*dx + dy*dy) / (t.r * t.r)
		if d2 > 1.1*1.1 { // beyond the leafiest edge: skip the noise
			return rgb{}, false
		}
		d := math.Sqrt(d2)
		edge := 0.75 + 0.35*fbm(x*30, y*30, seed+13)
		if d > edge {
			return rgb{}, false
		}
		light := 0.7 + 0.5*vnoise(x*90, y*90, seed+14) - 0.3*dy/t.r
		return rgb{52, 96, 44}.scale(light), true
	}
	return func(x, y float64) rgb {
		// foreground tree on the left
		if c, ok := leaf(x, y, tree{0.16, 0.2, 0.22}); ok {
			return c
		}
		if inRect(x, y, 0.13, 0.3, 0.19, 0.86) {
			return rgb{88, 64, 44}.scale(0.75 + 0.4*vnoise(x*200, y*20, seed+15))
		}
		if y < 0.3 {
			for _, t := range back {
				if c, ok := leaf(x, y, t); ok {
					return c.scale(0.9)
				}
			}
			return sky(x, y, horizon, rgb{84, 138, 206}, rgb{190, 214, 236}, seed)
		}
		if y < 0.52 { // fence: planks, gaps, rails
			if frac(x/0.045) < 0.08 {
				return rgb{40, 52, 36}
			}
			c := wood.scale(0.85 + 0.3*fbm(x*8, y*80, seed+16))
			if math.Abs(y-0.36) < 0.012 || math.Abs(y-0.47) < 0.012 {
				c = c.scale(0.8)
			}
			return c
		}
		gx, gz := ground(x, y, a*0.55, horizon)
		c := grass.scale(0.8 + 0.35*fbm(gx*3, gz*3, seed+17))
		if int(math.Floor(gx/0.9))%2 == 0 { // mowing stripes
			c = c.scale(1.1)
		}
		return c
	}
}

func porchScene(a float64, seed uint32) sceneFunc {
	return func(x, y float64) rgb {
		if y < 0.5 {
			return sky(x, y, 0.5, rgb{40, 36, 80}, rgb{210, 120, 80}, seed)
		}
		if y < 0.7 {
			if frac(x/0.18) < 0.14 || math.Abs(y-0.52) < 0.015 {
				return rgb{220, 216, 206}.scale(0.6 + 0.2*vnoise(x*40, y*40, seed)) // posts and rail
			}
			return rgb{48, 52, 46}.scale(0.7 + 0.4*fbm(x*6, y*6, seed+3)) // street beyond
		}
		gx, _ := ground(x, y, a/2, 0.5)
		c := rgb{120, 92, 66}.scale(0.55 + 0.2*vnoise(gx*40, y*4, seed+4))
		if frac(gx/0.3) < 0.05 {
			c = c.scale(0.6) // floor boards
		}
		return c
	}
}

func shedScene(a float64, seed uint32) sceneFunc {
	return func(x, y float64) rgb {
		if y >= 0.72 {
			return paving(rgb{112, 110, 104}, x, y, a/2, 0.45, 2, seed)
		}
		if inRect(x, y, 1.0, 0.14, 1.42, 0.46) { // window
			if math.Abs(x-1.21) < 0.008 || math.Abs(y-0.3) < 0.008 || !inRect(x, y, 1.015, 0.155, 1.405, 0.445) {
				return rgb{90, 70, 50}
			}
			return mix(rgb{230, 236, 240}, rgb{150, 190, 140}, (y-0.14)/0.32)
		}
		if inRect(x, y, 0.2, 0.55, 1.3, 0.6) {
			return rgb{132, 96, 60}.scale(0.9 + 0.2*vnoise(x*50, y*200, seed)) // workbench
		}
		if inRect(x, y, 0.25, 0.6, 0.29, 0.72) || inRect(x, y, 1.21, 0.6, 1.25, 0.72) {
			return rgb{90, 64, 40}
		}
		if inRect(x, y, 0.3, 0.16, 0.82, 0.34) { // sign plate
			return rgb{236, 232, 220}
		}
		c := rgb{118, 86, 56}.scale(0.8 + 0.3*fbm(x*10, y*60, seed+5))
		if frac(x/0.09) < 0.06 {
			c = c.scale(0.6)
		}
		return c
	}
}

// drawOverlay darkens a bar across the top and writes the camera name and
// the time into it, as camera firmware does.
func drawOverlay(img *image.RGBA, label string, at time.Time) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	barH := h / 18
	scale := max(1, barH/11)
	for y := range barH {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			for k := range 3 {
				row[x*4+k] = uint8(int(row[x*4+k]) * 2 / 7)
			}
		}
	}
	ty := (barH - 7*scale) / 2
	drawText(img, label, scale*2, ty, scale)
	stamp := at.Format("2006-01-02 15:04:05")
	drawText(img, stamp, w-textWidth(stamp, scale)-scale*2, ty, scale)
	if label == "SHED" {
		// A sign that must never reach anyone: the shed is not exposed.
		s := max(1, h/110)
		drawTextColor(img, "PRIVATE", int(0.36*float64(h)), int(0.21*float64(h)), s, [3]uint8{200, 20, 20})
	}
}

func textWidth(s string, scale int) int { return pixelfont.TextWidth(s) * scale }

func drawText(img *image.RGBA, s string, x0, y0, scale int) {
	drawTextColor(img, s, x0, y0, scale, [3]uint8{240, 240, 240})
}

func drawTextColor(img *image.RGBA, s string, x0, y0, scale int, col [3]uint8) {
	pixelfont.Dots(s, func(fx, fy int) {
		for dy := range scale {
			for dx := range scale {
				px, py := x0+fx*scale+dx, y0+fy*scale+dy
				if !(image.Point{px, py}.In(img.Rect)) {
					continue
				}
				o := img.PixOffset(px, py)
				img.Pix[o], img.Pix[o+1], img.Pix[o+2] = col[0], col[1], col[2]
			}
		}
	})
}
