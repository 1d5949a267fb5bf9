package jpegfix

import "fmt"

// The checks of header and table segments, each against its definition in
// T.81 Annex B, and of what a frame or scan header must say for the data
// walk to read it. The repair loop (repair.go) calls them; Check and
// ReadFrame use the segment checks too.

// checkScanComponents checks that each component of the scan at m is one
// the frame defines, named once, with the table selectors its coding uses
// in range: Huffman tables 0 to 3, and only those the scan reads (a
// progressive AC scan reads no DC table, a DC refinement none at all);
// arithmetic conditioning tables 0 to 15, as libjpeg reads them.
func (r *repairer) checkScanComponents(m int) string {
	src := r.src
	ns := int(src[m+4])
	nf := int(src[r.sofAt+9])
	sof := src[r.sofAt+1]
	ss, ah := src[m+5+2*ns], src[m+7+2*ns]>>4
	limit := byte(3)
	useDC, useAC := true, true
	switch {
	case isArithmetic(sof):
		limit = 15
	case sof == sof2Marker:
		useDC, useAC = ss == 0 && ah == 0, ss > 0
	}
	for i := range ns {
		id := src[m+5+2*i]
		tables := src[m+6+2*i]
		if useDC && tables>>4 > limit || useAC && tables&15 > limit {
			return "selects a Huffman table that does not exist"
		}
		found := false
		for j := range nf {
			if src[r.sofAt+10+3*j] == id {
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("refers to colour component %d, which the frame does not define", id)
		}
		for j := range i {
			if src[m+5+2*j] == id {
				return fmt.Sprintf("names colour component %d twice", id)
			}
		}
	}
	return ""
}

// isArithmetic reports whether a frame header code is one of arithmetic
// coding (SOF9 to SOF15).
func isArithmetic(sof byte) bool { return sof > jpgMarker && sof != dacMarker && isSOF(sof) }

// uncheckable says why VerifyData cannot walk the data of frame f, or "".
func uncheckable(f *frameGeom) string {
	switch {
	case f.code != sof0Marker && f.code != sof1Marker && f.code != sof2Marker:
		return "its frame uses a coding (arithmetic, lossless or hierarchical) that this check does not read"
	case f.precision != 8:
		return fmt.Sprintf("its samples have %d bits, and this check reads 8-bit frames", f.precision)
	case f.height == 0:
		return "its height is given by a DNL segment"
	case f.width > 65500 || f.height > 65500:
		return "it is wider or taller than 65,500 pixels, more than common decoders accept"
	case f.nf != 1 && f.nf != 3:
		return fmt.Sprintf("it has %d colour components, and this check vouches for one (grey) or three (colour)", f.nf)
	}
	for i := range f.nf {
		if f.hmax%f.h(i) != 0 || f.vmax%f.v(i) != 0 {
			return "its colour sampling factors do not divide each other, which common decoders do not read"
		}
		for j := range i {
			if f.id(j) == f.id(i) {
				return "two of its colour components share an identifier"
			}
		}
	}
	return ""
}

// checkQuant says which quantization table a scan's component needs but
// no segment defined, or "". libjpeg stops there ("quantization table 0x01
// was not defined"); Go decodes it with zeros, into the wrong picture.
func (r *repairer) checkQuant(p *scanParams) string {
	switch r.frame.code {
	case sof3Marker, 0xc7, 0xcb, sof15Marker:
		return "" // lossless: no quantization
	}
	for i := range p.ns {
		c := p.comp[i]
		if tq := r.src[r.sofAt+12+3*c]; !r.quant[tq] {
			return fmt.Sprintf("codes colour component %d with quantization table %d, which no segment defines before it", r.frame.id(c), tq)
		}
	}
	return ""
}

// validSOF checks a frame header of length l at offset m and returns what
// is wrong with it, or "". Specified in section B.2.2: Lf = 8 + 3 × Nf.
func validSOF(src []byte, m, l int) string {
	if l < 11 {
		return fmt.Sprintf("announces %s, too short for any frame", nbytes(l))
	}
	nf := int(src[m+9])
	if nf == 0 {
		return "declares no colour component"
	}
	if l != 8+3*nf {
		return fmt.Sprintf("announces %s but its %d components need %d", nbytes(l), nf, 8+3*nf)
	}
	if src[m+7] == 0 && src[m+8] == 0 {
		return "declares an image zero pixels wide"
	}
	for i := range nf {
		hv := src[m+11+3*i]
		h, v := hv>>4, hv&15
		if h < 1 || h > 4 || v < 1 || v > 4 || src[m+12+3*i] > 3 {
			return "declares impossible sampling factors or table numbers"
		}
	}
	return ""
}

// validSOS reports whether a scan header of length l at offset m is
// consistent. Specified in section B.2.3: Ls = 6 + 2 × Ns, 1 ≤ Ns ≤ 4.
func validSOS(src []byte, m, l int) bool {
	if l < 8 || m+5 > len(src) {
		return false
	}
	ns := int(src[m+4])
	return ns >= 1 && ns <= 4 && l == 6+2*ns
}

func sosNeed(src []byte, m, l int) string {
	if l < 3 {
		return "it is too short to say how many components it codes"
	}
	ns := int(src[m+4])
	if ns < 1 || ns > 4 {
		return fmt.Sprintf("it declares %d components (1 to 4 are possible)", ns)
	}
	return fmt.Sprintf("its %d components need %d", ns, 6+2*ns)
}

// validDQT reports whether a quantization table segment of length l at
// offset m holds whole tables that fill it exactly. Specified in section
// B.2.4.1: Lq = 2 + Σ(65 + 64 × Pq).
func validDQT(src []byte, m, l int) bool {
	p, end := m+4, m+2+l
	if l < 67 {
		return false
	}
	for p < end {
		pq, tq := src[p]>>4, src[p]&15
		if pq > 1 || tq > 3 {
			return false
		}
		p += 65 + 64*int(pq)
	}
	return p == end
}

func dqtNeed(src []byte, m, l int) string {
	p, end := m+4, m+2+l
	for p < end && p < len(src) {
		pq, tq := src[p]>>4, src[p]&15
		if pq > 1 || tq > 3 {
			return "are malformed"
		}
		p += 65 + 64*int(pq)
	}
	return "need " + commas(p-m-2)
}

// validDAC reports whether an arithmetic conditioning segment of length l
// at offset m holds whole two-byte entries that libjpeg accepts: table
// class 0 (DC) or 1 (AC) with a table number up to 15, a DC conditioning
// whose lower bound is not above its upper one, an AC one of 1 to 63.
// libjpeg stops on any other, even in a frame that never uses it.
// Specified in section B.2.4.3.
func validDAC(src []byte, m, l int) bool {
	if l < 2 || (l-2)%2 != 0 {
		return false
	}
	for p := m + 4; p+1 < m+2+l; p += 2 {
		v := src[p+1]
		switch src[p] >> 4 {
		case 0:
			if v&15 > v>>4 {
				return false
			}
		case 1:
			if v < 1 || v > 63 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// validDHT reports whether a Huffman table segment of length l at offset m
// holds whole tables that fill it exactly. Specified in section B.2.4.2:
// Lh = 2 + Σ(17 + Σ Li).
func validDHT(src []byte, m, l int) bool {
	p, end := m+4, m+2+l
	if l < 19 {
		return false
	}
	for p < end {
		if p+17 > end {
			return false
		}
		if src[p]>>4 > 1 || src[p]&15 > 3 {
			return false
		}
		sum := 0
		for _, c := range src[p+1 : p+17] {
			sum += int(c)
		}
		if sum > 256 {
			return false // a table of no code is taken, as libjpeg takes it
		}
		p += 17 + sum
	}
	return p == end
}

func dhtNeed(src []byte, m, l int) string {
	p, end := m+4, m+2+l
	for p < end {
		if p+17 > len(src) || src[p]>>4 > 1 || src[p]&15 > 3 {
			return "are malformed"
		}
		sum := 0
		for _, c := range src[p+1 : p+17] {
			sum += int(c)
		}
		p += 17 + sum
	}
	return "need " + commas(p-m-2)
}

// segName names a segment type in plain words with its article.
func segName(code byte) string {
	switch {
	case code == comMarker:
		return "a comment segment"
	case isAPP(code):
		return fmt.Sprintf("an APP%d segment", code-app0Marker)
	case isSOF(code):
		return "the frame header"
	case code == dhtMarker:
		return "a Huffman table segment"
	case code == dqtMarker:
		return "a quantization table segment"
	case code == driMarker:
		return "the restart interval segment"
	case code == dnlMarker:
		return "the number-of-lines segment"
	case code == sosMarker:
		return "a scan header"
	case code == dacMarker:
		return "an arithmetic coding table segment"
	}
	return fmt.Sprintf("a segment with marker 0x%02X", code)
}
