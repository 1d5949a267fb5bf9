package jpegscale

import (
	"bytes"
	"fmt"
	"image"
	"math/bits"
	"math/rand/v2"
	"os/exec"
	"testing"
)

type atkBits struct {
	out  *bytes.Buffer
	acc  uint64
	nacc int
}

func (w *atkBits) put(v uint32, n int) {
	w.acc = w.acc<<n | uint64(v)&(1<<n-1)
	w.nacc += n
	for w.nacc >= 8 {
		c := byte(w.acc >> (w.nacc - 8))
		w.out.WriteByte(c)
		if c == 0xff {
			w.out.WriteByte(0)
		}
		w.nacc -= 8
	}
}

func atkSegment(code byte, p []byte) []byte {
	return append([]byte{0xff, code, byte((len(p) + 2) >> 8), byte(len(p) + 2)}, p...)
}

// sampled writes a baseline frame, DC only, with the given component ids and
// sampling factors, an optional Adobe segment (transform t, or -1 for none)
// and an optional JFIF.
func atkSampled(w, h int, ids []byte, hs, vs []int, adobe int, jfif bool, seed uint64) []byte {
	nf := len(ids)
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	if jfif {
		b.Write(atkSegment(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")))
	}
	if adobe >= 0 {
		b.Write(atkSegment(0xee, []byte{'A', 'd', 'o', 'b', 'e', 0, 0x64, 0, 0, 0, 0, byte(adobe)}))
	}
	q := []byte{0}
	for range 64 {
		q = append(q, 8)
	}
	b.Write(atkSegment(0xdb, q))
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(nf)}
	sos := []byte{byte(nf)}
	hmax, vmax := 1, 1
	for i := range nf {
		sof = append(sof, ids[i], byte(hs[i]<<4|vs[i]), 0)
		sos = append(sos, ids[i], 0x00)
		hmax, vmax = max(hmax, hs[i]), max(vmax, vs[i])
	}
	b.Write(atkSegment(0xc0, sof))
	b.Write(atkSegment(0xc4, append([]byte{0x00, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)))
	b.Write(atkSegment(0xc4, append([]byte{0x10, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06)))
	b.Write(atkSegment(0xda, append(sos, 0, 63, 0)))
	mx, my := (w+8*hmax-1)/(8*hmax), (h+8*vmax-1)/(8*vmax)
	rng := rand.New(rand.NewPCG(seed, 35))
	bw := atkBits{out: &b}
	pred := make([]int, nf)
	for range mx * my {
		for c := range nf {
			for range hs[c] * vs[c] {
				dc := rng.IntN(120) - 60
				diff := dc - pred[c]
				pred[c] = dc
				s := bits.Len(uint(max(diff, -diff)))
				bw.put(uint32(s), 4)
				v := diff
				if v < 0 {
					v += 1<<s - 1
				}
				bw.put(uint32(v), s)
				bw.put(0, 3)
			}
		}
	}
	if bw.nacc > 0 {
		bw.put(1<<(8-bw.nacc)-1, 8-bw.nacc)
	}
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// djpegPPM decodes data with libjpeg's djpeg at 1/scale, box upsampling.
func djpegPPM(t *testing.T, data []byte, scale int) image.Image {
	t.Helper()
	if _, err := exec.LookPath("djpeg"); err != nil {
		t.Skip("djpeg not installed (libjpeg-turbo-progs)")
	}
	cmd := exec.CommandContext(t.Context(), "djpeg", "-nosmooth", "-scale", fmt.Sprintf("1/%d", scale), "-ppm")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("djpeg: %v", err)
	}
	var w, h, mx int
	if _, err := fmt.Sscanf(string(out), "P6\n%d %d\n%d\n", &w, &h, &mx); err != nil {
		t.Fatal(err)
	}
	pix := out[len(fmt.Sprintf("P6\n%d %d\n%d\n", w, h, mx)):]
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range w * h {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = pix[3*i], pix[3*i+1], pix[3*i+2], 255
	}
	return img
}

// Three components named R, G and B under an Adobe segment whose
// transform is 1 (YCbCr) are Y'CbCr to libjpeg (jdapimin.c: an Adobe
// segment decides before the component names are looked at; browsers
// decode with libjpeg-turbo). jpegscale's colour() reads the names first
// and decodes them as RGB (as image/jpeg does): every colour wrong at
// every scale, up to 184 apart in a channel from djpeg, and maison
// re-encodes the frame so (it is not Standard).
func TestAttack35AdobeTransformOneWinsOverComponentNamesRGB(t *testing.T) {
	t.Parallel()
	data := atkSampled(203, 121, []byte("RGB"), []int{1, 1, 1}, []int{1, 1, 1}, 1, false, 3)
	for _, s := range []int{1, 2, 8} {
		want := djpegPPM(t, data, s)
		got, err := Decode(data, s)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds().Size() != want.Bounds().Size() {
			t.Fatalf("1/%d: %v, djpeg %v", s, got.Bounds().Size(), want.Bounds().Size())
		}
		if d := maxRGBDiff(got, want); d > 3 {
			t.Errorf("1/%d: differs from djpeg by up to %d in a channel: decoded as RGB, not Y'CbCr", s, d)
		}
	}
}
