package jpegscale

import (
	"bytes"
	"image"
)

// Coverage says how much of a damaged frame DecodePartial recovered.
type Coverage struct {
	// Rows holds one entry per band of the picture one MCU high, top to
	// bottom.
	Rows []Row
	// Softened reports that scans after a damaged one were left out, so
	// the whole picture is less sharp than the camera sent it.
	Softened bool
}

// Row is the share of a band's MCUs that decoded partly or not at all.
type Row struct {
	Missing float64 // shown as the grey of an empty block
	Coarse  float64 // decoded without the finer detail of a damaged scan
}

// Shown returns the share of the picture that is not missing, 0 to 1.
func (c Coverage) Shown() float64 {
	if len(c.Rows) == 0 {
		return 0
	}
	var missing float64
	for _, r := range c.Rows {
		missing += r.Missing
	}
	return 1 - missing/float64(len(c.Rows))
}

// Damaged reports whether any part of the picture is missing or coarse.
func (c Coverage) Damaged() bool {
	if c.Softened {
		return true
	}
	for _, r := range c.Rows {
		if r.Missing > 0 || r.Coarse > 0 {
			return true
		}
	}
	return false
}

// DecodePartial is DecodeAtLeast for a frame whose entropy-coded data is
// damaged or cut: what decodes is kept, what does not is left the grey of
// an empty block, and the Coverage says which rows are which. Damage in a
// restart interval costs that interval only: decoding resumes at the next
// restart marker (and skips the intervals whose markers are missing).
// Without restart intervals, the rest of the scan from the MCU row where
// the damage shows is lost. In a progressive frame the scans after a
// damaged one are left out. Decoded blocks of a damaged interval or row
// are blanked too, since a code misread before the damage shows may have
// decoded into wrong pixels. Errors in the headers still fail the decode.
func DecodePartial(data []byte, minW, minH int) (image.Image, int, Coverage, error) {
	chosen := 1
	d := &decoder{partial: true}
	img, err := d.decode(data, func(w, h int) int {
		chosen = pickScale(w, h, minW, minH)
		return chosen
	})
	if err != nil {
		return nil, 0, Coverage{}, err
	}
	cov := Coverage{Rows: make([]Row, d.mcusY), Softened: d.softened}
	if len(d.state) > 0 {
		for my := range d.mcusY {
			var missing, coarse int
			for mx := range d.mcusX {
				switch d.state[my*d.mcusX+mx] {
				case stateMissing:
					missing++
				case stateCoarse:
					coarse++
				}
			}
			cov.Rows[my] = Row{Missing: float64(missing) / float64(d.mcusX), Coarse: float64(coarse) / float64(d.mcusX)}
		}
	}
	return img, chosen, cov, nil
}

// The state of an MCU in a partial decode.
const (
	stateWhole uint8 = iota
	stateCoarse
	stateMissing
)

// walkPartial is walk for DecodePartial: fn is called for every block of
// the scan in order, and damage (a code no table defines, data that stops
// short, restart markers missing or out of order) is recorded and skipped
// instead of returned.
func (d *decoder) walkPartial(cs []scanComp, fn func(sc *scanComp, bx, by int) error, ss, se, ah int) {
	single := len(cs) == 1
	total, perRow := d.mcusX*d.mcusY, d.mcusX
	if single {
		perRow = cs[0].c.cw
		total = perRow * cs[0].c.ch
	}
	ri := d.ri
	ready := true // the reader stands at the start of MCU mcu's interval
	for mcu := 0; mcu < total; {
		if ri > 0 && mcu%ri == 0 && !ready {
			iv := mcu/ri - 1
			next, mismatch, ok := d.nextInterval(cs, iv)
			switch {
			case !ok:
				d.damage(cs, single, mcu, total, ss, se, ah)
				return
			case mismatch:
				// The interval just read was not followed by its own
				// marker: where its data belongs is uncertain too.
				d.damage(cs, single, iv*ri, min(next*ri, total), ss, se, ah)
				mcu, ready = next*ri, true
				continue
			}
		}
		ready = false
		err := d.mcuBlocks(cs, single, perRow, mcu, fn)
		if err == nil && d.br.Overrun() {
			err = FormatError("short Huffman data")
		}
		if err == nil {
			mcu++
			continue
		}
		if ri == 0 {
			d.damage(cs, single, mcu-mcu%perRow, total, ss, se, ah)
			return
		}
		iv := mcu / ri
		next, _, ok := d.nextInterval(cs, iv)
		if !ok {
			d.damage(cs, single, iv*ri, total, ss, se, ah)
			return
		}
		d.damage(cs, single, iv*ri, min(next*ri, total), ss, se, ah)
		mcu = next * ri
		ready = true
	}
}

// mcuBlocks calls fn for each block of MCU mcu.
func (d *decoder) mcuBlocks(cs []scanComp, single bool, perRow, mcu int, fn func(sc *scanComp, bx, by int) error) error {
	if single {
		return fn(&cs[0], mcu%perRow, mcu/perRow)
	}
	mx, my := mcu%d.mcusX, mcu/d.mcusX
	for i := range cs {
		sc := &cs[i]
		h, v := sc.c.h, sc.c.v
		for y := range v {
			for x := range h {
				if err := fn(sc, mx*h+x, my*v+y); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// nextInterval finds the restart marker that follows interval iv, from
// where the bit reader stopped, and readies the reader after it. It
// returns the interval that starts there, and whether the marker was not
// the one expected. Markers are read as libjpeg resynchronizes: one or two
// numbers ahead (modulo 8), intervals were lost with their markers; one or
// two behind, the marker is stale and the next one is looked for; further
// off, the number itself is damaged and the marker taken for the expected
// one. It returns false when the scan's data ends first.
func (d *decoder) nextInterval(cs []scanComp, iv int) (next int, mismatch, ok bool) {
	data := d.data
	p := d.br.Pos
	for {
		i := bytes.IndexByte(data[min(p, len(data)):], 0xFF)
		if i < 0 {
			return 0, false, false
		}
		p += i
		q := p + 1
		for q < len(data) && data[q] == 0xFF {
			q++
		}
		if q >= len(data) {
			return 0, false, false
		}
		m := data[q]
		if m < markerSOF0 {
			// A stuffed zero, or a reserved code no marker has: a bit
			// error in a marker, skipped as libjpeg's resync skips it.
			p = q + 1
			continue
		}
		if m < markerRST0 || m > markerRST7 {
			return 0, false, false
		}
		switch ahead := (int(m-markerRST0) - iv%8 + 8) % 8; ahead {
		case 0:
			next = iv + 1
		case 1, 2:
			next, mismatch = iv+1+ahead, true
		case 6, 7:
			p, mismatch = q+1, true
			continue
		default:
			next, mismatch = iv+1, true
		}
		d.br.Reset(data, q+1, len(data))
		d.eobrun = 0
		for _, sc := range cs {
			sc.c.pred = 0
		}
		return next, mismatch, true
	}
}

// damage records MCUs from..to of the scan as lost: their blocks are
// blanked (a sequential scan) or lose this scan's coefficients (a
// progressive one, whose later scans are then skipped).
func (d *decoder) damage(cs []scanComp, single bool, from, to, ss, se, ah int) {
	if d.state == nil {
		d.state = make([]uint8, d.mcusX*d.mcusY)
	}
	mark := stateMissing
	refineDC := d.progressive && ss == 0 && ah > 0
	if d.progressive && ss > 0 || refineDC {
		mark = stateCoarse // the averages came through in an earlier scan
	}
	if d.progressive {
		d.stopped = true
	}
	block := func(c *component, bx, by int) {
		if d.progressive {
			// A DC refinement only adds low bits to averages already
			// there; any other scan loses what it brought.
			if b, nz := d.coefBlock(c, bx, by); nz != nil && !refineDC {
				if ss < len(b) {
					clear(b[ss:min(se+1, len(b))])
				}
				*nz &^= (^uint64(0) >> (63 - se)) &^ (1<<ss - 1)
			}
		} else {
			d.blank(c, bx, by)
		}
		mx, my := bx, by
		if d.ncomp > 1 {
			mx, my = bx/c.h, by/c.v
		}
		if mx < d.mcusX && my < d.mcusY {
			if s := &d.state[my*d.mcusX+mx]; *s < mark {
				*s = mark
			}
		}
	}
	for mcu := from; mcu < to; mcu++ {
		if single {
			c := cs[0].c
			block(c, mcu%c.cw, mcu/c.cw)
			continue
		}
		mx, my := mcu%d.mcusX, mcu/d.mcusX
		for i := range cs {
			c := cs[i].c
			for y := range c.v {
				for x := range c.h {
					block(c, mx*c.h+x, my*c.v+y)
				}
			}
		}
	}
}

// blank paints block (bx, by) of component c the grey of an empty block.
func (d *decoder) blank(c *component, bx, by int) {
	bs := d.bs
	if bx < c.x0 || bx >= c.x1 || by < c.y0 || by >= c.y1 {
		return
	}
	off := (by-c.y0)*bs*c.stride + (bx-c.x0)*bs
	if off < 0 || off+(bs-1)*c.stride+bs > len(c.plane) {
		return
	}
	for y := range bs {
		row := c.plane[off+y*c.stride : off+y*c.stride+bs]
		for i := range row {
			row[i] = 128
		}
	}
}
