package jpegfix_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"maison/internal/camframe"
	"maison/jpegfix"
)

// TestReportCarriesTheFrame: the report says the size, the components and
// their sampling, the coding and the orientation of what was repaired, and
// ReadFrame reads the same from the output.
func TestReportCarriesTheFrame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file        string
		w, h, nf    int
		sampling    []jpegfix.Sampling
		progressive bool
	}{
		{"base.main-1920x1080.jpeg", 1920, 1080, 3, []jpegfix.Sampling{{2, 2}, {1, 1}, {1, 1}}, false},
		{"base.progressive-1280x720.jpeg", 1280, 720, 3, []jpegfix.Sampling{{2, 2}, {1, 1}, {1, 1}}, true},
		{"base.ir-progressive-640x480.jpeg", 640, 480, 1, []jpegfix.Sampling{{1, 1}}, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := readFixture(t, tc.file)
			out, rep := repairOK(t, jpegfix.Options{VerifyData: true}, in)
			want := jpegfix.Frame{Width: tc.w, Height: tc.h, Components: tc.nf, Precision: 8, Progressive: tc.progressive, Orientation: 1}
			copy(want.Sampling[:], tc.sampling)
			if rep.Frame != want {
				t.Errorf("report frame %+v, want %+v", rep.Frame, want)
			}
			got, err := jpegfix.ReadFrame(out)
			if err != nil || got != want {
				t.Errorf("ReadFrame = %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

// TestOrientationIsReadBeforeStripping: one Repair both reads the Exif
// orientation and drops the segment; only the first Exif segment before
// the first scan counts, and only one whose length holds.
func TestOrientationIsReadBeforeStripping(t *testing.T) {
	t.Parallel()
	clean := small()
	sos := camframe.SegmentOffset(clean, 0xda)
	for _, tc := range []struct {
		name string
		in   []byte
		want int
	}{
		{"big-endian", after(clean, camframe.OrientationExif(6, "MM")), 6},
		{"little-endian", after(clean, camframe.OrientationExif(8, "II")), 8},
		{"after an XMP segment", after(clean, slices.Concat(camframe.XMP("2025-01-01T00:00:00"), camframe.OrientationExif(3, "II"))), 3},
		{"after the frame header", slices.Concat(clean[:sos], camframe.OrientationExif(5, "MM"), clean[sos:]), 5},
		{"the first of two", after(clean, slices.Concat(camframe.OrientationExif(6, "MM"), camframe.OrientationExif(8, "MM"))), 6},
		{"an Exif segment without orientation comes first", after(clean, slices.Concat(camframe.Exif{Make: "m"}.Segment(), camframe.OrientationExif(8, "MM"))), 1},
		{"out of range", after(clean, camframe.OrientationExif(9, "MM")), 1},
		{"a length that lies", after(clean, lyingExif(camframe.OrientationExif(6, "MM"))), 1},
		{"none", clean, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, rep := repairOK(t, jpegfix.Options{VerifyData: true, StripMetadata: true}, tc.in)
			if rep.Frame.Orientation != tc.want {
				t.Errorf("orientation %d, want %d", rep.Frame.Orientation, tc.want)
			}
			if !bytes.Equal(out, clean) {
				t.Errorf("the output is not the clean frame: %q", rep.Sentences())
			}
			kept, _ := repairOK(t, jpegfix.Options{}, tc.in)
			if fr, err := jpegfix.ReadFrame(kept); err != nil || fr.Orientation != tc.want {
				t.Errorf("ReadFrame of the frame with its metadata: orientation %d, %v; want %d", fr.Orientation, err, tc.want)
			}
		})
	}
}

// lyingExif shortens an Exif segment's length field by four bytes.
func lyingExif(seg []byte) []byte {
	seg = bytes.Clone(seg)
	binary.BigEndian.PutUint16(seg[2:], binary.BigEndian.Uint16(seg[2:])-4)
	return seg
}

// TestRefusalKeepsTheFrame: a frame refused for damage in its image data
// still reports its size and orientation, for the part that decodes.
func TestRefusalKeepsTheFrame(t *testing.T) {
	t.Parallel()
	clean := small()
	in := after(clean[:len(clean)/2], camframe.OrientationExif(6, "MM"))
	_, rep, err := jpegfix.Options{VerifyData: true}.Repair(in)
	var fe jpegfix.FormatError
	if !errors.As(err, &fe) || !fe.InData {
		t.Fatalf("err = %v, want damage in the image data", err)
	}
	if rep.Frame.Width != 96 || rep.Frame.Height != 64 || rep.Frame.Orientation != 6 {
		t.Errorf("frame %+v, want 96×64 turned 6", rep.Frame)
	}
	_, rep, _ = jpegfix.Repair([]byte("<html>"))
	if rep.Frame.Components != 0 {
		t.Errorf("frame of a body that is not a JPEG: %+v", rep.Frame)
	}
}

// TestReadFrameWantsAStrictJPEG: ReadFrame does not repair.
func TestReadFrameWantsAStrictJPEG(t *testing.T) {
	t.Parallel()
	clean := small()
	for name, in := range map[string][]byte{
		"lying comment": after(clean, lyingComment(8, "abcdefgh and more")),
		"leading junk":  append([]byte("junk"), clean...),
		"empty":         nil,
	} {
		if _, err := jpegfix.ReadFrame(in); err == nil {
			t.Errorf("%s: ReadFrame accepted it", name)
		}
	}
}

// TestOnePassIsTwo: repairing with VerifyData and StripMetadata at once
// gives the bytes that repairing with VerifyData and then stripping gave,
// and the same fixes with the metadata drops added; on every fixture.
func TestOnePassIsTwo(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.jpeg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v", err)
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		one, rep1, err1 := jpegfix.Options{VerifyData: true, StripMetadata: true}.Repair(in)
		fixed, rep, err := jpegfix.Options{VerifyData: true}.Repair(in)
		if err != nil {
			if err1 == nil || err1.Error() != err.Error() {
				t.Errorf("%s: one pass: %v; two: %v", filepath.Base(f), err1, err)
			}
			continue
		}
		two, _, err2 := jpegfix.Options{StripMetadata: true}.Repair(fixed)
		if err1 != nil || err2 != nil || !bytes.Equal(one, two) {
			t.Errorf("%s: one pass and two differ (%v, %v)", filepath.Base(f), err1, err2)
		}
		var repaired []jpegfix.Fix
		for _, x := range rep1.Fixes {
			if x.Kind != jpegfix.FixMetadata {
				repaired = append(repaired, x)
			}
		}
		if !slices.Equal(repaired, rep.Fixes) || rep1.Frame != rep.Frame || rep1.Unchecked != rep.Unchecked {
			t.Errorf("%s: the reports differ: %q against %q", filepath.Base(f), rep1.Sentences(), rep.Sentences())
		}
	}
}
