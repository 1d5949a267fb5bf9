package jpegscale

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"testing"
)

// djpegGrey decodes data at 1/scale with libjpeg-turbo's djpeg and returns
// the luma (grey) plane, skipping the test when djpeg is absent.
func djpegGrey(t *testing.T, data []byte, scale int) plane {
	t.Helper()
	bin, err := exec.LookPath("djpeg")
	if err != nil {
		t.Skip("jpegscale: djpeg not found; install libjpeg-turbo-progs")
	}
	cmd := exec.CommandContext(t.Context(), bin, "-grayscale", "-dct", "int", "-scale", "1/"+strconv.Itoa(scale), "-pnm")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("djpeg: %v", err)
	}
	var w, h, maxv int
	var magic string
	r := bytes.NewReader(out)
	if _, err := fmt.Fscan(r, &magic, &w, &h, &maxv); err != nil || magic != "P5" || maxv != 255 {
		t.Fatalf("djpeg output header: %v %q", err, magic)
	}
	pix := out[len(out)-w*h:]
	return plane{w: w, h: h, pix: pix}
}

// At scales 1 and 8 (full IDCT, block mean) the luma must equal libjpeg's.
// At 2 and 4 libjpeg-turbo averages cells while Decode band-limits (see
// idct.go), so those are compared with a box downscale in
// TestReducedScalesMatchBoxDownscale instead.
func TestLumaMatchesDjpegAtScales1And8(t *testing.T) {
	t.Parallel()
	imgs := append(stdImages(t), cjpegImages(t)...)
	for _, ti := range imgs {
		for _, s := range []int{1, 8} {
			t.Run(ti.name+"/scale"+itoa(s), func(t *testing.T) {
				ref := djpegGrey(t, ti.data, s)
				got, err := Decode(ti.data, s)
				if err != nil {
					t.Fatal(err)
				}
				gp := planes(t, got)[0]
				if gp.w != ref.w || gp.h != ref.h {
					t.Fatalf("%dx%d, djpeg %dx%d", gp.w, gp.h, ref.w, ref.h)
				}
				d := maxDiff(gp, ref)
				t.Logf("max diff %d", d)
				if d > 1 {
					t.Errorf("luma differs from djpeg -scale 1/%d by up to %d (want ≤ 1)", s, d)
				}
			})
		}
	}
}
