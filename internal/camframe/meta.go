package camframe

import (
	"encoding/binary"
	"math"
)

// Segment returns a marker segment: 0xFF, code, a two-byte length that
// counts itself, then payload.
func Segment(code byte, payload []byte) []byte {
	l := len(payload) + 2
	return append([]byte{0xff, code, byte(l >> 8), byte(l)}, payload...)
}

// JFIF returns an APP0 JFIF 1.01 segment with a 1:1 aspect and no
// thumbnail.
func JFIF() []byte {
	return Segment(0xe0, []byte{'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0})
}

// Exif describes what a camera writes in its Exif segment: the things
// metadata stripping must not let out of the house.
type Exif struct {
	Make, Model, Serial, DateTime string
	Lat, Lon                      float64 // degrees, north and east positive
	Thumbnail                     []byte  // a JPEG thumbnail in IFD1, or nil
}

// Segment returns the APP1 Exif segment: a little-endian TIFF structure
// with IFD0 (make, model, date, pointers), an Exif IFD (original date,
// body serial number), a GPS IFD (latitude, longitude) and, with a
// thumbnail, IFD1 pointing at it. The thumbnail puts FF D8 ... FF D9
// inside the segment, as in many real camera files.
func (e Exif) Segment() []byte {
	const (
		typeByte      = 1
		typeASCII     = 2
		typeLong      = 4
		typeRational  = 5
		tagMake       = 0x010f
		tagModel      = 0x0110
		tagDateTime   = 0x0132
		tagExifIFD    = 0x8769
		tagGPSIFD     = 0x8825
		tagDateOrig   = 0x9003
		tagSerial     = 0xa431
		tagGPSVersion = 0x0000
		tagLatRef     = 0x0001
		tagLat        = 0x0002
		tagLonRef     = 0x0003
		tagLon        = 0x0004
		tagCompress   = 0x0103
		tagThumbOff   = 0x0201
		tagThumbLen   = 0x0202
		typeShort     = 3
	)
	type entry struct {
		tag, typ uint16
		count    uint32
		data     []byte // stored inline when four bytes or fewer
	}
	ascii := func(s string) (uint32, []byte) { return uint32(len(s) + 1), append([]byte(s), 0) }
	dms := func(deg float64) []byte {
		deg = math.Abs(deg)
		d := math.Floor(deg)
		m := math.Floor((deg - d) * 60)
		s := ((deg-d)*60 - m) * 60
		b := make([]byte, 24)
		for i, v := range [][2]uint32{{uint32(d), 1}, {uint32(m), 1}, {uint32(s * 100), 100}} {
			binary.LittleEndian.PutUint32(b[i*8:], v[0])
			binary.LittleEndian.PutUint32(b[i*8+4:], v[1])
		}
		return b
	}
	ref := func(pos bool, p, n string) []byte {
		if pos {
			return []byte{p[0], 0}
		}
		return []byte{n[0], 0}
	}
	le := binary.LittleEndian
	u32 := func(v uint32) []byte { b := make([]byte, 4); le.PutUint32(b, v); return b }

	// Layout: header (8), IFD0, Exif IFD, GPS IFD, then out-of-line data.
	ifdSize := func(n int) int { return 2 + 12*n + 4 }
	mk := func(s string) entry { c, d := ascii(s); return entry{tagMake, typeASCII, c, d} }
	ifd0 := []entry{
		mk(e.Make),
		func() entry { c, d := ascii(e.Model); return entry{tagModel, typeASCII, c, d} }(),
		func() entry { c, d := ascii(e.DateTime); return entry{tagDateTime, typeASCII, c, d} }(),
		{tagExifIFD, typeLong, 1, nil},
		{tagGPSIFD, typeLong, 1, nil},
	}
	exif := []entry{
		func() entry { c, d := ascii(e.DateTime); return entry{tagDateOrig, typeASCII, c, d} }(),
		func() entry { c, d := ascii(e.Serial); return entry{tagSerial, typeASCII, c, d} }(),
	}
	gps := []entry{
		{tagGPSVersion, typeByte, 4, []byte{2, 3, 0, 0}},
		{tagLatRef, typeASCII, 2, ref(e.Lat >= 0, "N", "S")},
		{tagLat, typeRational, 3, dms(e.Lat)},
		{tagLonRef, typeASCII, 2, ref(e.Lon >= 0, "E", "W")},
		{tagLon, typeRational, 3, dms(e.Lon)},
	}
	var ifd1 []entry
	if e.Thumbnail != nil {
		ifd1 = []entry{
			{tagCompress, typeShort, 1, []byte{6, 0}},
			{tagThumbOff, typeLong, 1, nil},
			{tagThumbLen, typeLong, 1, u32(uint32(len(e.Thumbnail)))},
		}
	}
	off0 := 8
	offExif := off0 + ifdSize(len(ifd0))
	offGPS := offExif + ifdSize(len(exif))
	offIFD1 := offGPS + ifdSize(len(gps))
	dataAt := offIFD1
	if ifd1 != nil {
		dataAt += ifdSize(len(ifd1))
	}
	ifd0[3].data = u32(uint32(offExif))
	ifd0[4].data = u32(uint32(offGPS))

	tiff := []byte{'I', 'I', 42, 0, 8, 0, 0, 0}
	var extra []byte
	write := func(entries []entry, next int) {
		tiff = le.AppendUint16(tiff, uint16(len(entries)))
		for _, en := range entries {
			tiff = le.AppendUint16(tiff, en.tag)
			tiff = le.AppendUint16(tiff, en.typ)
			tiff = le.AppendUint32(tiff, en.count)
			if len(en.data) <= 4 {
				v := make([]byte, 4)
				copy(v, en.data)
				tiff = append(tiff, v...)
				continue
			}
			tiff = le.AppendUint32(tiff, uint32(dataAt+len(extra)))
			extra = append(extra, en.data...)
			if len(extra)%2 == 1 {
				extra = append(extra, 0)
			}
		}
		tiff = le.AppendUint32(tiff, uint32(next))
	}
	next := 0
	if ifd1 != nil {
		next = offIFD1
	}
	write(ifd0, next)
	write(exif, 0)
	write(gps, 0)
	if ifd1 != nil {
		// IFD1 has no out-of-line values, so the others' are all laid out:
		// the thumbnail follows them.
		ifd1[1].data = u32(uint32(dataAt + len(extra)))
		write(ifd1, 0)
	}
	tiff = append(tiff, extra...)
	if ifd1 != nil {
		tiff = append(tiff, e.Thumbnail...)
	}
	return Segment(0xe1, append([]byte("Exif\x00\x00"), tiff...))
}

// XMP returns an APP1 XMP segment holding a small packet with a creation
// date and a GPS position, as some cameras and phones write.
func XMP(date string) []byte {
	packet := `<?xpacket begin="` + "\ufeff" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
		`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
		`<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"` +
		` xmp:CreateDate="` + date + `" exif:GPSLatitude="45,30.0000N" exif:GPSLongitude="4,51.0000E"/>` +
		`</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
	return Segment(0xe1, append([]byte("http://ns.adobe.com/xap/1.0/\x00"), packet...))
}

// ICC returns an APP2 ICC_PROFILE segment holding a small ICC v2 RGB display
// profile: sRGB primaries adapted to D50 and a 2.2 gamma curve.
func ICC() []byte {
	be := binary.BigEndian
	s15 := func(v float64) []byte { return be.AppendUint32(nil, uint32(int32(math.Round(v*65536)))) }
	xyz := func(x, y, z float64) []byte {
		b := []byte("XYZ \x00\x00\x00\x00")
		b = append(b, s15(x)...)
		b = append(b, s15(y)...)
		return append(b, s15(z)...)
	}
	text := func(s string) []byte { return append(append([]byte("text\x00\x00\x00\x00"), s...), 0) }
	desc := func(s string) []byte {
		b := []byte("desc\x00\x00\x00\x00")
		b = be.AppendUint32(b, uint32(len(s)+1))
		b = append(append(b, s...), 0)
		b = append(b, make([]byte, 4+4+2+1+67)...) // empty Unicode and ScriptCode parts
		return b
	}
	curv := []byte("curv\x00\x00\x00\x00\x00\x00\x00\x01\x02\x33\x00\x00") // gamma 2.2 (u8Fixed8 0x0233), padded
	type tag struct {
		sig  string
		data []byte
	}
	tags := []tag{
		{"desc", desc("maison test RGB")},
		{"cprt", text("No copyright, test data")},
		{"wtpt", xyz(0.9642, 1.0, 0.8249)},
		{"rXYZ", xyz(0.4361, 0.2225, 0.0139)},
		{"gXYZ", xyz(0.3851, 0.7169, 0.0971)},
		{"bXYZ", xyz(0.1431, 0.0606, 0.7141)},
		{"rTRC", curv},
		{"gTRC", curv},
		{"bTRC", curv},
	}
	dataStart := 128 + 4 + 12*len(tags)
	var table, data []byte
	table = be.AppendUint32(table, uint32(len(tags)))
	offsets := map[string]int{}
	for _, t := range tags {
		key := string(t.data)
		off, ok := offsets[key]
		if !ok {
			off = dataStart + len(data)
			offsets[key] = off
			data = append(data, t.data...)
			for len(data)%4 != 0 {
				data = append(data, 0)
			}
		}
		table = append(table, t.sig...)
		table = be.AppendUint32(table, uint32(off))
		table = be.AppendUint32(table, uint32(len(t.data)))
	}
	size := dataStart + len(data)
	h := make([]byte, 128)
	be.PutUint32(h[0:], uint32(size))
	be.PutUint32(h[8:], 0x02100000) // version 2.1
	copy(h[12:], "mntr")
	copy(h[16:], "RGB ")
	copy(h[20:], "XYZ ")
	be.PutUint16(h[24:], 2025) // date: 2025-01-01 00:00:00
	be.PutUint16(h[26:], 1)
	be.PutUint16(h[28:], 1)
	copy(h[36:], "acsp")
	copy(h[68:], s15(0.9642))
	copy(h[72:], s15(1.0))
	copy(h[76:], s15(0.8249))
	profile := append(append(h, table...), data...)
	// ICC_PROFILE, chunk 1 of 1.
	return Segment(0xe2, append([]byte("ICC_PROFILE\x00\x01\x01"), profile...))
}

// OrientationExif returns an APP1 Exif segment whose IFD0 holds one
// entry, the orientation o (TIFF tag 0x0112), in the byte order ("II" or
// "MM") given: how a camera mounted sideways says which way is up.
func OrientationExif(o uint16, order string) []byte {
	var bo binary.AppendByteOrder = binary.BigEndian
	if order == "II" {
		bo = binary.LittleEndian
	}
	tiff := []byte(order)
	tiff = bo.AppendUint16(tiff, 42)
	tiff = bo.AppendUint32(tiff, 8)      // IFD0 at offset 8
	tiff = bo.AppendUint16(tiff, 1)      // one entry
	tiff = bo.AppendUint16(tiff, 0x0112) // orientation
	tiff = bo.AppendUint16(tiff, 3)      // SHORT
	tiff = bo.AppendUint32(tiff, 1)      // count
	tiff = bo.AppendUint16(tiff, o)      // value
	tiff = bo.AppendUint16(tiff, 0)      // padding
	tiff = bo.AppendUint32(tiff, 0)      // no next IFD
	return Segment(0xe1, append([]byte("Exif\x00\x00"), tiff...))
}
