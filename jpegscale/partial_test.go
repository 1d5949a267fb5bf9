package jpegscale

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", "jpeg", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lumaRows returns the luma plane of img row by row.
func lumaRows(img image.Image) [][]byte {
	var pix []byte
	var stride, w, h int
	switch m := img.(type) {
	case *image.YCbCr:
		pix, stride = m.Y, m.YStride
	case *image.Gray:
		pix, stride = m.Pix, m.Stride
	}
	w, h = img.Bounds().Dx(), img.Bounds().Dy()
	rows := make([][]byte, h)
	for y := range h {
		rows[y] = pix[y*stride : y*stride+w]
	}
	return rows
}

func restartMarkers(b []byte) []int {
	var at []int
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0xff && b[i+1] >= 0xd0 && b[i+1] <= 0xd7 {
			at = append(at, i)
		}
	}
	return at
}

// TestDecodePartialKeepsWhatDecodes damages frames in the ways cameras do
// and checks that the rows outside the damage are the clean frame's, the
// rows inside are grey, and the coverage says which are which.
func TestDecodePartialKeepsWhatDecodes(t *testing.T) {
	t.Parallel()
	sub := fixture(t, "base.sub-640x480.jpeg")      // 4:2:0, 30 MCU rows, no restart markers
	rst := fixture(t, "base.restart-1280x720.jpeg") // 4:2:0, 45 MCU rows, a marker after each
	markers := restartMarkers(rst)
	for _, tc := range []struct {
		name        string
		clean, in   []byte
		missingRows []int // MCU rows expected missing, whole or in part
	}{
		{"cut at 60%, no restart markers", sub, sub[:len(sub)*60/100], nil},
		{"bytes lost inside interval 21", rst, slices.Concat(rst[:(markers[20]+markers[21])/2-300], rst[(markers[20]+markers[21])/2+300:]), []int{21}},
		// The data after RST5 is interval 7's, read into row 6 until RST7
		// shows it was not: both rows are left grey, as uncertain.
		{"interval 6 lost with its marker", rst, slices.Concat(rst[:markers[5]+2], rst[markers[6]+2:]), []int{6, 7}},
		{"markers 3 and 4 swapped", rst, func() []byte {
			b := slices.Clone(rst)
			b[markers[3]+1], b[markers[4]+1] = b[markers[4]+1], b[markers[3]+1]
			return b
		}(), []int{3, 4, 5}}, // read as libjpeg resynchronizes: RST4 a lost interval ahead, RST3 a stale one
		{"whole", rst, rst, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clean, err := Decode(tc.clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			img, scale, cov, err := DecodePartial(tc.in, 10000, 10000)
			if err != nil {
				t.Fatal(err)
			}
			if scale != 1 || img.Bounds() != clean.Bounds() {
				t.Fatalf("scale %d, bounds %v, want 1 and %v", scale, img.Bounds(), clean.Bounds())
			}
			want := map[int]bool{}
			for _, r := range tc.missingRows {
				want[r] = true
			}
			if tc.missingRows == nil { // cut: from some row to the bottom
				first := -1
				for i, r := range cov.Rows {
					if r.Missing > 0 && first < 0 {
						first = i
					}
				}
				if first < 10 || first > 25 {
					t.Fatalf("first missing row %d of %d", first, len(cov.Rows))
				}
				for i := first; i < len(cov.Rows); i++ {
					want[i] = true
				}
			}
			got, cl := lumaRows(img), lumaRows(clean)
			for i, r := range cov.Rows {
				if (r.Missing > 0) != want[i] {
					t.Errorf("MCU row %d: missing %.2f, want missing %v", i, r.Missing, want[i])
				}
				for y := i * 16; y < min((i+1)*16, len(got)); y++ {
					switch {
					case !want[i] && !bytes.Equal(got[y], cl[y]):
						t.Fatalf("pixel row %d (MCU row %d) differs from the clean frame", y, i)
					case want[i] && r.Missing == 1 && bytes.Count(got[y], []byte{128}) != len(got[y]):
						t.Fatalf("pixel row %d (MCU row %d) is not grey", y, i)
					}
				}
			}
			wantShown := 1 - float64(len(want))/float64(len(cov.Rows))
			if d := cov.Shown() - wantShown; d > 0.01 || d < -0.01 {
				t.Errorf("Shown() = %.3f, want %.3f", cov.Shown(), wantShown)
			}
			if cov.Damaged() != (len(want) > 0) {
				t.Errorf("Damaged() = %v", cov.Damaged())
			}
		})
	}
}

// TestDecodePartialProgressive cuts a progressive frame with restart
// intervals inside its last scan: every block has its averages and most of
// its detail, so nothing is missing, and the rows the last scan did not
// reach are coarse.
func TestDecodePartialProgressive(t *testing.T) {
	t.Parallel()
	b := fixture(t, "base.progressive-restart-1280x720.jpeg")
	last := bytes.LastIndex(b, []byte{0xff, 0xda})
	in := b[:last+(len(b)-last)*60/100]
	img, _, cov, err := DecodePartial(in, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1280 || cov.Shown() != 1 {
		t.Fatalf("bounds %v, shown %.2f", img.Bounds(), cov.Shown())
	}
	coarse := 0
	for _, r := range cov.Rows {
		if r.Coarse > 0 {
			coarse++
		}
	}
	if coarse == 0 || coarse == len(cov.Rows) || cov.Rows[0].Coarse > 0 || cov.Rows[len(cov.Rows)-1].Coarse == 0 {
		t.Errorf("coarse rows %d of %d, first %.2f, last %.2f", coarse, len(cov.Rows), cov.Rows[0].Coarse, cov.Rows[len(cov.Rows)-1].Coarse)
	}
	// A cut in the first scan loses the averages below it: missing.
	first := bytes.Index(b, []byte{0xff, 0xda})
	_, _, cov, err = DecodePartial(b[:first+(last-first)/20], 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	if s := cov.Shown(); s <= 0 || s >= 0.9 {
		t.Errorf("a cut early in the first scan: shown %.2f", s)
	}
}
