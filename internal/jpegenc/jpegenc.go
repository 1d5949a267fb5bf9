// Package jpegenc writes baseline JPEGs that are byte for byte those of the
// standard library's image/jpeg Encode, split in two steps: Prepare turns
// the picture into DCT coefficients once (colour conversion, 4:2:0 chroma,
// forward DCT), and Picture.Append quantises and Huffman-codes them at a
// quality. Trying a second quality costs only the second step.
package jpegenc

import (
	"errors"
	"image"
	"image/color"
	"sync"
)

// ErrTooLarge is returned for a picture with a side of 65,536 pixels or
// more, which a JPEG header cannot state.
var ErrTooLarge = errors.New("jpegenc: the picture is too large for a JPEG (a side of 65,536 pixels or more)")

// Picture is a picture's unquantised DCT coefficients, in the order the
// scan codes them: for colour, the four luma blocks of each 16×16 unit then
// its Cb and Cr blocks; for grey, the luma blocks row by row. Each block is
// 64 coefficients in zig-zag order.
type Picture struct {
	width, height int
	gray          bool
	coef          []int16
}

// Width is the picture's width in pixels.
func (p *Picture) Width() int { return p.width }

// Height is the picture's height in pixels.
func (p *Picture) Height() int { return p.height }

// Prepare converts m to DCT coefficients the way image/jpeg's Encode does:
// an *image.Gray as one grey component, anything else as Y, Cb and Cr with
// chroma averaged over 2×2 pixels, edges replicated to whole blocks.
// *image.YCbCr and *image.RGBA are read straight from their planes; other
// types through their At method, as image/jpeg reads them.
func Prepare(m image.Image) (*Picture, error) {
	b := m.Bounds()
	if b.Dx() >= 1<<16 || b.Dy() >= 1<<16 {
		return nil, ErrTooLarge
	}
	p := &Picture{width: b.Dx(), height: b.Dy()}
	if b.Empty() {
		_, p.gray = m.(*image.Gray)
		return p, nil
	}
	switch m := m.(type) {
	case *image.Gray:
		p.gray = true
		p.prepareGray(m)
	case *image.YCbCr:
		p.prepareYCbCr(m)
	default:
		p.prepareYCbCr(toYCbCr444(m))
	}
	return p, nil
}

// toYCbCr444 converts m pixel by pixel with color.RGBToYCbCr, from the top
// eight bits of each of its colour's RGBA values, as image/jpeg does.
func toYCbCr444(m image.Image) *image.YCbCr {
	b := m.Bounds()
	out := image.NewYCbCr(b, image.YCbCrSubsampleRatio444)
	i := 0
	put := func(r, g, bl uint8) {
		out.Y[i], out.Cb[i], out.Cr[i] = color.RGBToYCbCr(r, g, bl)
		i++
	}
	switch m := m.(type) {
	case *image.RGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := 0; x < b.Dx(); x++ {
				put(row[4*x], row[4*x+1], row[4*x+2])
			}
		}
	case *image.NRGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := 0; x < b.Dx(); x++ {
				c := color.NRGBA{row[4*x], row[4*x+1], row[4*x+2], row[4*x+3]}
				if c.A == 0xff {
					put(c.R, c.G, c.B)
					continue
				}
				r, g, bl, _ := c.RGBA()
				put(uint8(r>>8), uint8(g>>8), uint8(bl>>8))
			}
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := m.At(x, y).RGBA()
				put(uint8(r>>8), uint8(g>>8), uint8(bl>>8))
			}
		}
	}
	return out
}

// clamped returns, for each of n positions from the picture's edge, the
// index of the nearest position inside a side of length size.
func clamped(n, size int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = min(i, size-1)
	}
	return t
}

// store writes the transformed block b to dst in zig-zag order.
func store(dst []int16, b *[64]int32) {
	dst = dst[:64]
	for k, n := range zigzag {
		dst[k] = int16(b[n])
	}
}

func (p *Picture) prepareGray(m *image.Gray) {
	bw, bh := (p.width+7)/8, (p.height+7)/8
	p.coef = make([]int16, bw*bh*64)
	cols := clamped(bw*8, p.width)
	rows := clamped(bh*8, p.height)
	base := m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y)
	var blk [64]int32
	out := p.coef
	for by := range bh {
		for bx := range bw {
			for j := range 8 {
				row := m.Pix[base+rows[8*by+j]*m.Stride:]
				c := cols[8*bx : 8*bx+8]
				for i, x := range c {
					blk[8*j+i] = int32(row[x])
				}
			}
			fdct(&blk)
			store(out, &blk)
			out = out[64:]
		}
	}
}

func (p *Picture) prepareYCbCr(m *image.YCbCr) {
	r := m.Rect
	mw, mh := (p.width+15)/16, (p.height+15)/16
	p.coef = make([]int16, mw*mh*6*64)
	// Pixel offsets into the planes, edges replicated: a Y offset is
	// yRow[y]+yCol[x] and, as COffset is a row part plus a column part for
	// every subsampling ratio, a chroma offset is cRow[y]+cCol[x].
	xs := clamped(mw*16, p.width)
	ys := clamped(mh*16, p.height)
	yCol, cCol := make([]int, len(xs)), make([]int, len(xs))
	for i, x := range xs {
		yCol[i] = m.YOffset(r.Min.X+x, r.Min.Y)
		cCol[i] = m.COffset(r.Min.X+x, r.Min.Y)
	}
	yRow, cRow := make([]int, len(ys)), make([]int, len(ys))
	for i, y := range ys {
		yRow[i] = m.YOffset(r.Min.X, r.Min.Y+y) - m.YOffset(r.Min.X, r.Min.Y)
		cRow[i] = m.COffset(r.Min.X, r.Min.Y+y) - m.COffset(r.Min.X, r.Min.Y)
	}
	// The two halves of the 16-pixel rows on two goroutines: they write
	// disjoint parts of coef.
	units := func(from, to int) {
		var blk [64]int32
		out := p.coef[from*mw*6*64:]
		for my := from; my < to; my++ {
			for mx := range mw {
				for i := range 4 {
					x0, y0 := 16*mx+8*(i&1), 16*my+4*(i&2)
					c := yCol[x0 : x0+8 : x0+8]
					for j := range 8 {
						ro := yRow[y0+j]
						for k, o := range c {
							blk[8*j+k] = int32(m.Y[ro+o])
						}
					}
					fdct(&blk)
					store(out, &blk)
					out = out[64:]
				}
				c := cCol[16*mx : 16*mx+16 : 16*mx+16]
				rr := cRow[16*my : 16*my+16 : 16*my+16]
				for _, plane := range [2][]uint8{m.Cb, m.Cr} {
					for j := range 8 {
						r0, r1 := rr[2*j], rr[2*j+1]
						for k := range 8 {
							c0, c1 := c[2*k], c[2*k+1]
							sum := int32(plane[r0+c0]) + int32(plane[r0+c1]) + int32(plane[r1+c0]) + int32(plane[r1+c1])
							blk[8*j+k] = (sum + 2) >> 2
						}
					}
					fdct(&blk)
					store(out, &blk)
					out = out[64:]
				}
			}
		}
	}
	if mw*mh < 256 { // not worth a goroutine
		units(0, mh)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { units(mh/2, mh) })
	units(0, mh/2)
	wg.Wait()
}
