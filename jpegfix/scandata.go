package jpegfix

import (
	"fmt"

	"maison/internal/huffman"
)

// The repair of a scan's image data: where it ends, its restart markers
// counted and in order, the Huffman walk that proves it whole (walk.go),
// and the words for damage found there.

// sos handles a scan header of length l at offset m and walks its
// entropy-coded data, returning the offset of the marker that ends it.
// Specified in sections B.2.3 and B.1.1.5: the data ends at the first 0xFF
// followed by neither 0x00 (a stuffed byte) nor a restart marker. Restart
// markers must come in order (section B.2.1: RST0 to RST7, cycling), and
// as many as the frame has intervals: a picture missing intervals or
// holding them out of order is damaged, and strict decoders refuse it.
func (r *repairer) sos(m, l int) (int, error) {
	src := r.src
	n := len(src)
	if r.sofAt < 0 {
		return 0, refuse(ProblemNoImage, m, fmt.Sprintf("image data starts at byte %s before any frame header", commas(m)))
	}
	if !validSOS(src, m, l) {
		return 0, refuse(ProblemBadLength, m, fmt.Sprintf("the scan header at byte %s announces %s but %s; it cannot be repaired without loss", commas(m), nbytes(l), sosNeed(src, m, l)))
	}
	if why := r.checkScanComponents(m); why != "" {
		return 0, refuse(ProblemDamaged, m, fmt.Sprintf("the scan header at byte %s %s", commas(m), why))
	}
	p := r.scanHeader(m, l)
	if why := r.checkQuant(&p); why != "" {
		return 0, refuse(ProblemDamaged, m, fmt.Sprintf("the scan header at byte %s %s", commas(m), why))
	}
	if r.walker == nil && r.frame.facts().Progressive && r.countable() {
		// Not walked: the blocks the scan codes are counted from its
		// header against the walk's bound, for the decoder after.
		if r.coded += r.frame.blocksCoded(&p); r.coded > maxWalkBlocks {
			return 0, r.walkRefusal(&p, &walkFail{kind: failTooLong, at: m}, m, true)
		}
	}

	// Find where the data ends, counting restart markers on the way.
	q := p.ecs
	rsts, lastRST := 0, q
	var fills []span // fill bytes before restart markers
	var pads []span  // fill bytes before stuffed zeros (FF FF 00)
	end, proper, soi := n, false, false
	for {
		j := huffman.NextMarker(src, q)
		if j >= n {
			break
		}
		if j+1 >= n {
			end = j
			break
		}
		k := j + 1
		for k < n && src[k] == 0xff {
			k++
		}
		end = j
		if k >= n {
			break
		}
		code := src[k]
		if code == 0 {
			// Fill bytes before a stuffed zero, which the standard does
			// not allow and libjpeg reads as one stuffed 0xFF without a
			// warning: drop them and keep the stuffed byte.
			pads = append(pads, span{from: j, to: k - 1, fill: true})
			q = k + 1
			end = n
			continue
		}
		if isRST(code) {
			if want := rst0Marker + byte(rsts%8); code != want {
				return 0, r.rstOrder(&p, rsts, lastRST, k-1, code)
			}
			if k-1 > j {
				fills = append(fills, span{from: j, to: k - 1, fill: true})
			}
			rsts++
			q = k + 1
			lastRST = q
			end = n
			continue
		}
		proper = code == eoiMarker || isSegment(code)
		soi = code == soiMarker
		break
	}

	if proper {
		if err := r.rstCount(&p, rsts, lastRST, end); err != nil {
			return 0, err
		}
		var res walkResult
		if r.walker != nil {
			if res = r.walker.scan(&p, 0, p.ecs, end); res.fail != nil && res.fail.kind == failTooLarge {
				// Too large to keep the refinement history: check the
				// segments only, and say so.
				r.unchecked, r.walker = "the picture is too large for this check to keep its progressive history", nil
			}
		}
		switch {
		case r.walker == nil:
			r.skip(withPads(fills, pads, end))
		case res.fail != nil:
			return 0, r.walkRefusal(&p, res.fail, end, true)
		default:
			r.skip(withPads(res.skips, pads, res.end))
			if res.end < end {
				r.drop(res.end, end)
				r.fix(Fix{Offset: res.end, Kind: FixExtraData, Dropped: end - res.end})
			}
		}
		p.end = end
		r.keepScan(&p)
		r.scanned = true
		return end, nil
	}
	// The data stops without a marker that may follow it (the end of the
	// file, a reserved marker, a stray 0xFF, a second image): keep it only
	// if the scan is complete, and resume after its last byte.
	cut, err := r.lastScan(&p, rsts, lastRST, end, fills, pads)
	if err != nil {
		return 0, err
	}
	p.end = cut
	r.keepScan(&p)
	r.scanned = true
	if soi {
		return 0, r.finishImage(cut)
	}
	return cut, nil
}

// scanHeader reads the scan header at m, of length l, with the tables and
// restart interval in force.
func (r *repairer) scanHeader(m, l int) scanParams {
	src := r.src
	p := scanParams{at: m, ecs: m + 2 + l, ns: int(src[m+4]), restart: r.restart}
	for i := range p.ns {
		id := src[m+5+2*i]
		for j := range r.frame.nf {
			if r.frame.id(j) == id {
				p.comp[i] = j
				break
			}
		}
		sel := src[m+6+2*i]
		p.dcSel[i], p.acSel[i] = sel>>4, sel&15
		if sel>>4 < 4 {
			p.dc[i] = r.huff[0][sel>>4]
		}
		if sel&15 < 4 {
			p.ac[i] = r.huff[1][sel&15]
		}
	}
	b := src[m+5+2*p.ns:]
	p.ss, p.se, p.ah, p.al = int(b[0]), int(b[1]), int(b[2]>>4), int(b[2]&15)
	return p
}

// skip drops the spans decoders skip inside the image data.
func (r *repairer) skip(spans []span) {
	for _, s := range spans {
		r.drop(s.from, s.to)
		if s.fill {
			r.fix(Fix{Offset: s.from, Marker: r.src[s.to+1], Kind: FixFill, Dropped: s.to - s.from})
		} else {
			r.fix(Fix{Offset: s.from, Kind: FixExtraData, Dropped: s.to - s.from})
		}
	}
}

// keepScan remembers a scan of a progressive frame, whose history a later
// refinement scan may need to be walked.
func (r *repairer) keepScan(p *scanParams) {
	if r.frame.code == sof2Marker {
		r.scans = append(r.scans, *p)
	}
}

// countable reports whether the frame's scans count their MCUs as this
// package does: DCT frames, sequential or progressive, not hierarchical,
// with a known height.
func (r *repairer) countable() bool {
	switch r.frame.code {
	case sof0Marker, sof1Marker, sof2Marker, 0xc9, 0xca:
		return r.frame.height > 0
	}
	return false
}

// intervals returns how many restart intervals scan p has.
func (r *repairer) intervals(p *scanParams) int {
	if p.restart == 0 {
		return 1
	}
	return ceilDiv(r.frame.mcus(p), p.restart)
}

// rstCount checks a scan that ended with a proper marker after rsts
// restart markers, the last ending at lastRST: one fewer than the frame
// has intervals, or as many when the last directly ends the data (a
// trailing marker decoders ignore).
func (r *repairer) rstCount(p *scanParams, rsts, lastRST, end int) error {
	if !r.countable() {
		return nil
	}
	want := r.intervals(p) - 1
	if rsts == want || rsts == want+1 && lastRST == end {
		return nil
	}
	if rsts < want {
		mcu := (rsts + 1) * p.restart
		return refuseData(ProblemTruncated, end, fmt.Sprintf("the image data of the scan at byte %s holds %s of its %s restart intervals and ends at byte %s: the picture stops %s, and the missing part cannot be recovered", commas(p.at), commas(rsts+1), commas(want+1), commas(end), wayDown(r.frame.percent(p, mcu), false)))
	}
	return refuseData(ProblemDamaged, end, fmt.Sprintf("the image data of the scan at byte %s holds %s restart intervals where the picture has %s; it is damaged", commas(p.at), commas(rsts+1), commas(want+1)))
}

// rstOrder refuses a restart marker out of sequence: the damage lies in
// the interval before it.
func (r *repairer) rstOrder(p *scanParams, rsts, lastRST, at int, found byte) error {
	where := ""
	if r.countable() && p.restart > 0 {
		from := r.frame.percent(p, rsts*p.restart)
		to := r.frame.percent(p, min((rsts+1)*p.restart, r.frame.mcus(p)))
		where = ", " + wayDown(from, true) + ","
		if to > from {
			where = ", " + spanDown(from, to) + ","
		}
	}
	if at == lastRST && rsts > 0 && found == rst0Marker+byte((rsts-1)%8) {
		// No data between the two: the marker repeats.
		return refuseData(ProblemDamaged, at, fmt.Sprintf("the restart markers of the scan at byte %s are out of order: restart marker %d stands twice in a row, at bytes %s and %s, where restart marker %d belongs after the first, so the restart interval after it%s cannot be placed; it cannot be repaired without loss", commas(p.at), found-rst0Marker, commas(lastRST-2), commas(at), rsts%8, where))
	}
	return refuseData(ProblemDamaged, at, fmt.Sprintf("the restart markers of the scan at byte %s are out of order: restart marker %d stands at byte %s where restart marker %d belongs, so the image data between bytes %s and %s%s is damaged; it cannot be repaired without loss", commas(p.at), found-rst0Marker, commas(at), rsts%8, commas(lastRST), commas(at), where))
}

// lastScan decides whether scan p, whose data stops at dataEnd without a
// proper marker, is complete, and returns the offset just after the last
// byte it needs. Bytes between that offset and dataEnd belong to no
// segment. This is what tells a scan that only lost its end-of-image
// marker (libjpeg warns "premature end of JPEG file", Go and Pillow refuse
// it) from a file cut inside its data, whose missing part no repair can
// restore. Without VerifyData, only the last restart interval is walked,
// after the scans before it when it refines AC coefficients, since which
// coefficients a refinement touches depends on them.
func (r *repairer) lastScan(p *scanParams, rsts, lastRST, dataEnd int, fills, pads []span) (int, error) {
	unverifiable := func(what string) error {
		return refuseData(ProblemTruncated, dataEnd, fmt.Sprintf("the image data of the scan at byte %s stops at byte %s without an end-of-image marker, and %s, so it cannot be checked for completeness; the file is probably cut off", commas(p.at), commas(dataEnd), what))
	}
	switch r.frame.code {
	case sof0Marker, sof1Marker, sof2Marker:
	default:
		return 0, unverifiable("its frame uses a coding (arithmetic, lossless or hierarchical) that this check does not read")
	}
	if r.frame.height == 0 {
		return 0, unverifiable("its frame height is given by a DNL segment")
	}
	if rsts > r.intervals(p)-1 {
		return 0, refuseData(ProblemDamaged, dataEnd, fmt.Sprintf("the image data of the scan at byte %s holds %s restart intervals where the picture has %s; it is damaged", commas(p.at), commas(rsts+1), commas(r.intervals(p))))
	}
	w := r.walker
	first, from := 0, p.ecs
	if w == nil {
		var local walker // on the stack: a frame without EOI is common
		w = &local
		w.init(r.src, r.frame, false)
		w.setCountMin(r.opts.countMin)
		first, from = rsts, lastRST
		if p.ss > 0 && p.ah > 0 && r.frame.code == sof2Marker {
			// Replay the component's AC scans before this one.
			for i := range r.scans {
				e := &r.scans[i]
				if e.ss == 0 || e.comp[0] != p.comp[0] {
					continue
				}
				if res := w.scan(e, 0, e.ecs, e.end); res.fail != nil {
					if res.fail.kind == failTooLarge {
						return 0, unverifiable("the picture is too large for this check")
					}
					return 0, r.walkRefusal(e, res.fail, res.fail.at, false)
				}
			}
		}
	}
	res := w.scan(p, first, from, dataEnd)
	if res.fail != nil {
		if res.fail.kind == failTooLarge {
			return 0, unverifiable("the picture is too large for this check")
		}
		return 0, r.walkRefusal(p, res.fail, dataEnd, false)
	}
	if r.walker != nil {
		r.skip(withPads(res.skips, pads, res.end))
	} else {
		r.skip(withPads(fills, pads, res.end))
	}
	return res.end, nil
}

// withPads merges into spans, both in order, the fill bytes before stuffed
// zeros that lie in the data kept: before end and outside every span.
func withPads(spans, pads []span, end int) []span {
	if len(pads) == 0 {
		return spans
	}
	out := make([]span, 0, len(spans)+len(pads))
	i := 0
	for _, p := range pads {
		if p.to > end {
			break
		}
		for i < len(spans) && spans[i].from < p.from {
			out = append(out, spans[i])
			i++
		}
		if len(out) > 0 && out[len(out)-1].to > p.from || i < len(spans) && spans[i].from < p.to {
			continue // inside bytes dropped already
		}
		out = append(out, p)
	}
	return append(out, spans[i:]...)
}

// walkRefusal words why a walk of scan p stopped; dataEnd is where its
// data stopped, and proper whether a marker ended it there.
func (r *repairer) walkRefusal(p *scanParams, f *walkFail, dataEnd int, proper bool) error {
	at := commas(p.at)
	where := wayDown(r.frame.percent(p, f.mcu), true)
	if r.frame.code == sof2Marker {
		where = fmt.Sprintf("about %d%% of the way through one of the passes that refine the picture", f.mcu*100/max(f.total, 1))
	}
	switch f.kind {
	case failShort, failCode, failMarker:
		return r.dataRefusal(p, f, dataEnd, proper, at, where)
	case failTooLarge:
		return refuse(ProblemDamaged, p.at, fmt.Sprintf("the scan at byte %s %s", at, f.detail))
	case failTooLong:
		return refuse(ProblemDamaged, p.at, fmt.Sprintf("the scans of the frame go over its picture far more often than any camera or encoder writes them: with the scan at byte %s they code more than %s blocks, and reading them all would take minutes; it is refused", at, commas(maxWalkBlocks)))
	}
	return refuse(ProblemDamaged, p.at, fmt.Sprintf("the scan at byte %s %s; it cannot be decoded", at, f.detail))
}

// dataRefusal words damage in the image data of scan p.
func (r *repairer) dataRefusal(p *scanParams, f *walkFail, dataEnd int, proper bool, at, where string) error {
	refuse := refuseData
	switch f.kind {
	case failShort:
		if !proper && f.found < 0 && f.at >= dataEnd-1 {
			return refuse(ProblemTruncated, dataEnd, fmt.Sprintf("the file is cut off inside its image data: the scan at byte %s stops at byte %s, %d%% of the way through the picture; the missing part cannot be recovered", at, commas(dataEnd), f.mcu*100/max(f.total, 1)))
		}
		if f.at+1 < len(r.src) && r.src[f.at] == 0xff && isRST(r.src[f.at+1]) && p.restart > 0 {
			iv := f.mcu / p.restart
			span := r.rows(p, iv*p.restart, min((iv+1)*p.restart, f.total))
			return refuse(ProblemTruncated, f.at, fmt.Sprintf("restart interval %s of the scan at byte %s, %s, is missing data: it stops at byte %s, at a restart marker, before its last blocks; those rows cannot be recovered", commas(iv+1), at, span, commas(f.at)))
		}
		return refuse(ProblemTruncated, f.at, fmt.Sprintf("the image data of the scan at byte %s stops short at byte %s, %s: the rest of the picture is missing and cannot be recovered", at, commas(f.at), where))
	case failCode:
		return refuse(ProblemDamaged, f.at, fmt.Sprintf("the image data of the scan at byte %s is damaged near byte %s, %s: it holds a code no Huffman table defines; it cannot be repaired without loss", at, commas(f.at), where))
	}
	return refuse(ProblemDamaged, f.at, fmt.Sprintf("the image data of the scan at byte %s is damaged before byte %s, %s: restart marker %d stands where restart marker %d belongs; it cannot be repaired without loss", at, commas(f.at), where, f.found-rst0Marker, f.want-rst0Marker))
}

// rows says which part of the picture MCUs from..to of scan p cover, as
// "about 44% to 46% of the way down the picture", or, for a progressive
// frame, which share of one refining pass.
func (r *repairer) rows(p *scanParams, from, to int) string {
	if r.frame.code == sof2Marker {
		total := max(r.frame.mcus(p), 1)
		return fmt.Sprintf("%d%% to %d%% of the way through one of the passes that refine the picture", from*100/total, to*100/total)
	}
	a, b := r.frame.percent(p, from), r.frame.percent(p, to)
	if to >= r.frame.mcus(p) {
		b = 100
	}
	if b <= a {
		return wayDown(a, true)
	}
	return spanDown(a, b)
}

// wayDown says where a point lies down the picture from its share pct:
// "about 44% of the way down", or at the very top or bottom; named adds
// "the picture" ("about 44% of the way down the picture").
func wayDown(pct int, named bool) string {
	where := fmt.Sprintf("about %d%% of the way down", pct)
	switch {
	case pct <= 0:
		where = "at the very top"
	case pct >= 100:
		where = "at the very bottom"
	}
	if !named {
		return where
	}
	if pct <= 0 || pct >= 100 {
		return where + " of the picture"
	}
	return where + " the picture"
}

// spanDown says which band of the picture runs from share a to share b
// (a < b): "about 44% to 46% of the way down the picture", or its top or
// bottom part.
func spanDown(a, b int) string {
	switch {
	case a <= 0 && b >= 100:
		return "the whole picture"
	case a <= 0:
		return fmt.Sprintf("the top %d%% of the picture", b)
	case b >= 100:
		return fmt.Sprintf("the bottom %d%% of the picture", 100-a)
	}
	return fmt.Sprintf("about %d%% to %d%% of the way down the picture", a, b)
}
