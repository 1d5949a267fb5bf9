package picture

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/font/opentype"

	"maison/jpegscale"
)

// Grid is how an overview lays out its cells: Cols by Rows cells of 16 by
// 9, the shape of most cameras, in a picture of Size, as large as the
// limits allow.
type Grid struct {
	Cols, Rows int
	Size       image.Point
}

// GridFor lays out n cells within l, in rows as near square as they go.
func GridFor(n int, l Limits) Grid {
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	w, h := fitSize(cols*1600, rows*900, l.withDefaults())
	return Grid{Cols: cols, Rows: rows, Size: image.Pt(w, h)}
}

// Place is cell i's place in the overview's pixels, in reading order.
func (g Grid) Place(i int) image.Rectangle {
	row, col := i/g.Cols, i%g.Cols
	w, h := g.Size.X, g.Size.Y
	return image.Rect(col*w/g.Cols, row*h/g.Rows, (col+1)*w/g.Cols, (row+1)*h/g.Rows)
}

// Cell is one place of an overview: where it lies, the label drawn in its
// top left corner, and the frame drawn in it, or why it is empty.
type Cell struct {
	Place image.Rectangle
	Label string // as drawn: the caller has cleaned and bounded it
	// Empty is why the cell holds no picture, drawn across it in capitals;
	// "" when Frame is drawn.
	Empty string
	Frame *Frame
}

// tileGap is the dark line between tiles, in pixels on each side.
const tileGap = 2

// Colours of the overview.
var (
	overviewBack  = color.RGBA{0x14, 0x14, 0x14, 0xFF} // gaps and empty tiles
	overviewLabel = color.RGBA{0, 0, 0, 0xB0}          // behind a label
)

// Overview lays the cells' frames on a g.Size canvas, each decoded no
// larger than its place needs and centred in it, labels every cell, and
// encodes the whole within l's bytes. A frame that does not decode leaves
// its cell empty, labelled failed; failures says why, by cell (nil for the
// others).
func Overview(ctx context.Context, g Grid, cells []Cell, fnt *opentype.Font, failed string, l Limits) (out Fitted, failures []error, err error) {
	l = l.withDefaults()
	pictures := make([]image.Image, len(cells))
	failures = make([]error, len(cells))
	var wg sync.WaitGroup
	for i, c := range cells {
		if c.Frame == nil {
			continue
		}
		wg.Go(func() {
			if pictures[i], failures[i] = c.Frame.Tile(ctx, c.Place.Inset(tileGap).Size(), l); failures[i] != nil {
				cells[i].Empty = failed // drawn as empty
			}
		})
	}
	wg.Wait()
	// The canvas, four bytes a pixel, and its encoding.
	release, err := l.admit(ctx, int64(g.Size.X)*int64(g.Size.Y)*4+afterDecode(g.Size, g.Size, false, l.MaxBytes))
	if err != nil {
		return Fitted{}, failures, err
	}
	defer release()
	canvas := image.NewRGBA(image.Rectangle{Max: g.Size})
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(overviewBack), image.Point{}, draw.Src)
	face, err := labelFace(fnt, cells[0].Place.Dy()/14)
	if err != nil {
		return Fitted{}, failures, err
	}
	for i, c := range cells {
		inner := c.Place.Inset(tileGap)
		if pic := pictures[i]; pic != nil {
			pb := pic.Bounds()
			at := inner.Min.Add(inner.Size().Sub(pb.Size()).Div(2))
			draw.Draw(canvas, image.Rectangle{Min: at, Max: at.Add(pb.Size())}, pic, pb.Min, draw.Src)
		}
		labelTile(canvas, face, inner, c.Label, c.Empty)
	}
	out, err = checked(encodeWithin(canvas, l.MaxBytes))
	if err != nil {
		return Fitted{}, failures, err
	}
	out.SourceWidth, out.SourceHeight = g.Size.X, g.Size.Y
	return out, failures, nil
}

// Tile decodes the frame no larger than a tile of size needs (or smaller,
// when the memory budget asks it), admitted against l's Memory, turns it
// upright and scales it to fit within size, keeping its shape.
func (f Frame) Tile(ctx context.Context, size image.Point, l Limits) (image.Image, error) {
	full, err := f.Upright()
	if err != nil {
		return nil, err
	}
	w, h := fitSize(full.X, full.Y, Limits{MaxEdge: max(size.X, size.Y), MaxPixels: math.MaxInt})
	if w > size.X || h > size.Y {
		scale := min(float64(size.X)/float64(full.X), float64(size.Y)/float64(full.Y))
		w, h = max(1, int(float64(full.X)*scale)), max(1, int(float64(full.Y)*scale))
	}
	o := f.info.Orientation
	tileTo := func(image.Point) image.Point { return image.Pt(w, h) }
	var img image.Image
	var n int64
	scale := 1
	switch {
	case f.IsJPEG(): // a damaged frame's part that decodes too
		sw, sh := w, h // as stored: turning comes after
		if o >= 5 {
			sw, sh = h, w
		}
		hdr, err := jpegscale.ReadHeader(f.body)
		if err != nil {
			return nil, err
		}
		stored := image.Pt(hdr.Width, hdr.Height)
		if scale, n, err = plan(hdr, stored, image.Pt(sw, sh), image.Rectangle{}, o > 1, l, tileTo); err != nil {
			return nil, err
		}
	default:
		cfg, format, err := configOther(f.body)
		if err != nil {
			return nil, err
		}
		n = otherBytes(f.body, format, cfg) + afterDecode(image.Pt(cfg.Width, cfg.Height), image.Pt(w, h), false, 0)
		if n > l.budget() {
			return nil, tooLargeWhole(n, l.budget())
		}
	}
	release, err := l.admit(ctx, n)
	if err != nil {
		return nil, err
	}
	defer release()
	if img == nil {
		if img, _, err = decodeScaled(f, scale); err != nil {
			return nil, err
		}
	}
	img = upright(img, o)
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
