package camera

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"sync"
	"time"

	"maison/homeassistant"
	"maison/jpegfix"
	"maison/jpegscale"
)

// maxTiles bounds the cameras one overview shows: sixteen, four by four,
// each still large enough to tell a car from a person.
const maxTiles = 16

// overviewWaitDefault is how long an overview waits for its frames, all
// asked at once: a camera that has not answered by then is drawn empty.
const overviewWaitDefault = 6 * time.Second

// Overview is every camera a caller may see, in one labelled picture.
type Overview struct {
	Image Fitted
	Tiles []Tile // in reading order: left to right, then top to bottom
	Cols  int    // tiles per row
	// Beyond are the cameras beyond the grid, by name: a listener asks for
	// them by name.
	Beyond []Camera
	// Withheld are exposed cameras maison cannot tell apart, not drawn.
	Withheld []Withheld
}

// More counts the cameras beyond the grid, not drawn.
func (o Overview) More() int { return len(o.Beyond) }

// TileState says whether a camera's place in the overview holds its picture.
type TileState int

// The states of a tile.
const (
	TileShown       TileState = iota // the camera's picture
	TileOff                          // turned off in Home Assistant
	TileUnavailable                  // Home Assistant says it is unavailable
	TileLate                         // no picture within the overview's wait
	TileFailed                       // no usable picture
)

// Tile is one camera's place in the overview.
type Tile struct {
	Camera Camera
	State  TileState
	Err    error           // why the tile is empty, for the log
	Place  image.Rectangle // in the overview's pixels
	Row    int             // from 0, top
	Col    int             // from 0, left
	// Facts are what nearby exposed sensors report, one sentence each.
	Facts []string
	// Damaged is set when the camera sent its picture damaged and only the
	// part that decodes is drawn.
	Damaged bool
}

// Overview draws every camera the caller may see in one grid within client
// limits, each tile labelled with its camera's number and name. The frames
// are asked for at once and waited for together, within one wait (Config
// OverviewWait): a camera that is slow, off or unavailable leaves its tile
// empty and labelled, and never holds the others back.
func (s *Service) Overview(ctx context.Context) (Overview, error) {
	cams, withheld, err := s.list(ctx)
	if err != nil {
		return Overview{}, err
	}
	ov := Overview{Withheld: withheld}
	if len(cams) == 0 {
		return ov, nil
	}
	if len(cams) > maxTiles {
		ov.Beyond, cams = cams[maxTiles:], cams[:maxTiles]
	}
	l := Limits{}.withDefaults()
	cols := int(math.Ceil(math.Sqrt(float64(len(cams)))))
	rows := (len(cams) + cols - 1) / cols
	// Cells of 16 by 9, the shape of most cameras, as large as the limits allow.
	w, h := fitSize(cols*1600, rows*900, l)
	ov.Cols = cols
	ov.Tiles = make([]Tile, len(cams))
	frames := make([][]byte, len(cams)) // each camera's fitted frame, a strict JPEG
	fetched := make([]time.Time, len(cams))
	waitCtx, cancel := context.WithTimeout(ctx, s.cfg.OverviewWait)
	defer cancel()
	var wg sync.WaitGroup
	for i, cam := range cams {
		row, col := i/cols, i%cols
		place := image.Rect(col*w/cols, row*h/rows, (col+1)*w/cols, (row+1)*h/rows)
		ov.Tiles[i] = Tile{Camera: cam, Place: place, Row: row, Col: col}
		wg.Go(func() {
			t := &ov.Tiles[i]
			t.Facts = s.related(ctx, cam)
			if cam.State == "unavailable" {
				t.State = TileUnavailable
				return
			}
			p, err := s.frames.Get(waitCtx, cam.EntityID)
			if err == nil {
				fetched[i], frames[i], t.Damaged = p.fetched, p.fit.JPEG, p.fit.Damage != nil
			}
			t.Camera.Off = s.isOff(cam.EntityID)
			switch {
			case err == nil:
			case errors.Is(err, homeassistant.KindCameraOff):
				t.State, t.Err = TileOff, err
			case waitCtx.Err() != nil && ctx.Err() == nil:
				t.State, t.Err = TileLate, err
			default:
				t.State, t.Err = TileFailed, err
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Overview{}, err
	}
	if err := houseWide(ov.Tiles); err != nil {
		return Overview{}, err
	}
	// The same frames in the same places make the same picture: drawn
	// once, reused while no frame changes.
	var key strings.Builder
	for i, t := range ov.Tiles {
		fmt.Fprintf(&key, "%s\x00%s\x00%d\x00%d\x00", t.Camera.EntityID, t.Camera.Name, t.State, fetched[i].UnixNano())
	}
	s.mu.Lock()
	last := s.lastOverview
	s.mu.Unlock()
	if last.key == key.String() {
		ov.Image = last.image
	} else {
		out, err := s.drawOverview(w, h, ov.Tiles, frames)
		if err != nil {
			return Overview{}, err
		}
		ov.Image = out
		s.mu.Lock()
		s.lastOverview = drawnOverview{key: key.String(), image: out}
		s.mu.Unlock()
	}
	for _, t := range ov.Tiles {
		if t.Err != nil {
			s.log.Info("overview tile empty", "camera", t.Camera.EntityID, "err", t.Err)
		}
	}
	return ov, nil
}

// houseWide returns the fault of Home Assistant itself (unreachable,
// restarting, refusing maison) when no tile holds a picture and a camera
// failed for it: no camera is to blame, and a grid of empty tiles would
// say otherwise.
func houseWide(tiles []Tile) error {
	var fault error
	for _, t := range tiles {
		if t.State == TileShown {
			return nil
		}
		var he *homeassistant.Error
		if t.State == TileFailed && errors.As(t.Err, &he) {
			switch he.Kind {
			case homeassistant.KindUnreachable, homeassistant.KindRestarting, homeassistant.KindAuth,
				homeassistant.KindForbidden, homeassistant.KindLocalOnly:
				fault = he
			}
		}
	}
	return fault
}

// tileGap is the dark line between tiles, in pixels on each side.
const tileGap = 2

// tilePicture decodes a fitted frame no larger than a tile needs and
// scales it to fit within size, keeping its shape.
func tilePicture(f frame, size image.Point) (image.Image, error) {
	full, err := f.size()
	if err != nil {
		return nil, err
	}
	w, h := fitSize(full.X, full.Y, Limits{MaxEdge: max(size.X, size.Y), MaxPixels: math.MaxInt})
	if w > size.X || h > size.Y {
		scale := min(float64(size.X)/float64(full.X), float64(size.Y)/float64(full.Y))
		w, h = max(1, int(float64(full.X)*scale)), max(1, int(float64(full.Y)*scale))
	}
	img, _, err := jpegscale.DecodeAtLeast(f.body, w, h)
	if err != nil {
		if img, _, err = decodeScaled(f, 1); err != nil {
			return nil, err
		}
	}
	b := img.Bounds()
	if b.Dx() == w && b.Dy() == h {
		return img, nil
	}
	// A decode a few pixels larger than the tile is cut to it, centred,
	// rather than resampled: the usual case of a 16:9 frame in a 16:9 tile.
	if sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok && b.Dx() >= w && b.Dy() >= h && b.Dx()*100 <= w*103 && b.Dy()*100 <= h*103 {
		at := b.Min.Add(image.Pt((b.Dx()-w)/2, (b.Dy()-h)/2))
		return sub.SubImage(image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))}), nil
	}
	return resize(img, w, h), nil
}

// Colours of the overview.
var (
	overviewBack  = color.RGBA{0x14, 0x14, 0x14, 0xFF} // gaps and empty tiles
	overviewLabel = color.RGBA{0, 0, 0, 0xB0}          // behind a label
)

// drawnOverview is the last overview picture drawn, by what it was drawn from.
type drawnOverview struct {
	key   string
	image Fitted
}

// drawOverview lays the tiles' frames on a w×h canvas, centred in their
// places, labels every tile, and encodes it within the byte budget. A frame
// that does not decode leaves its tile empty, marked failed.
func (s *Service) drawOverview(w, h int, tiles []Tile, frames [][]byte) (Fitted, error) {
	pictures := make([]image.Image, len(tiles))
	var wg sync.WaitGroup
	for i, f := range frames {
		if f == nil {
			continue
		}
		wg.Go(func() {
			var err error
			if pictures[i], err = tilePicture(readFrame(f), tiles[i].Place.Inset(tileGap).Size()); err != nil {
				tiles[i].State, tiles[i].Err = TileFailed, err // drawn and said as empty
			}
		})
	}
	wg.Wait()
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(overviewBack), image.Point{}, draw.Src)
	face, err := s.labelFace(tiles[0].Place.Dy() / 14)
	if err != nil {
		return Fitted{}, err
	}
	for i, t := range tiles {
		inner := t.Place.Inset(tileGap)
		if pic := pictures[i]; pic != nil {
			pb := pic.Bounds()
			at := inner.Min.Add(inner.Size().Sub(pb.Size()).Div(2))
			draw.Draw(canvas, image.Rectangle{Min: at, Max: at.Add(pb.Size())}, pic, pb.Min, draw.Src)
		}
		labelTile(canvas, face, inner, i+1, t, s.cfg.Lang)
	}
	out, err := encodeWithin(canvas, Limits{}.withDefaults().MaxBytes)
	if err != nil {
		return Fitted{}, err
	}
	if err := jpegfix.Check(out.JPEG); err != nil {
		return Fitted{}, fmt.Errorf("camera: the overview is not a strict JPEG: %w", err)
	}
	out.SourceWidth, out.SourceHeight = w, h
	return out, nil
}
