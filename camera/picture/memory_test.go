package picture_test

import (
	"context"
	"errors"
	"image"
	"runtime"
	"slices"
	"testing"

	"maison/camera/picture"
	"maison/internal/camframe"
	"maison/jpegfix"
)

// allocated is what work allocates, all of it: more than it ever holds at
// once. Not parallel: the counter is the process's.
func allocated(work func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	work()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Every way a picture is made from a frame (the fit, a part, an overview
// tile) is admitted, before it allocates, for at least everything it
// allocates: the budget bounds what pictures hold whatever the frame.
// Frames of every colour layout, baseline and progressive, turned by
// their Exif orientation or not.
func TestEveryDecodeIsAdmittedForWhatItAllocates(t *testing.T) {
	frames := map[string][]byte{
		"4:2:0 1920×1080":          camframe.Baseline(1920, 1080, camframe.LayoutYCbCr420, 3, 1),
		"RGB 1600×1200":            camframe.Baseline(1600, 1200, camframe.LayoutRGB, 3, 2),
		"YCCK 1200×900":            camframe.Baseline(1200, 900, camframe.LayoutYCCK, 3, 3),
		"grey 2400×1600":           camframe.Baseline(2400, 1600, camframe.LayoutGrey, 3, 4),
		"progressive CMYK 1800²":   camframe.ProgressiveBomb(1800, 1800, 4, 2, true),
		"progressive 3-comp 1000²": camframe.ProgressiveBomb(1000, 1000, 3, 2, false),
	}
	for name, data := range frames {
		for _, o := range []int{1, 6} {
			raw := data
			if o != 1 {
				raw = slices.Concat(data[:2], camframe.OrientationExif(uint16(o), "II"), data[2:])
			}
			f, _, err := picture.Repair(raw)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			up, _ := f.Upright()
			for what, work := range map[string]func(context.Context, picture.Limits) error{
				"fit": func(ctx context.Context, l picture.Limits) error { _, err := f.Fit(ctx, l); return err },
				"part": func(ctx context.Context, l picture.Limits) error {
					_, err := f.Crop(ctx, image.Rect(up.X/2, 0, up.X, up.Y/2), l)
					return err
				},
				"tile": func(ctx context.Context, l picture.Limits) error {
					_, err := f.Tile(ctx, image.Pt(700, 394), l)
					return err
				},
			} {
				var admitted int64
				l := picture.Limits{Memory: picture.NewMemoryNoting(picture.DefaultMemory, func(n int64) { admitted += n })}
				var werr error
				got := allocated(func() { werr = work(t.Context(), l) })
				if werr != nil {
					t.Fatalf("%s, orientation %d, %s: %v", name, o, what, werr)
				}
				if admitted < int64(got) {
					t.Errorf("%s, orientation %d, %s: admitted %.1f MB, allocated %.1f MB", name, o, what, float64(admitted)/1e6, float64(got)/1e6)
				}
			}
		}
	}
}

// A frame too large for the whole budget is decoded smaller rather than
// refused; one that even at 1/8 needs more is refused, in words of memory,
// before anything is decoded.
func TestAFrameTooLargeForTheBudgetIsDecodedSmallerOrRefused(t *testing.T) {
	t.Parallel()
	data := camframe.Baseline(4000, 3000, camframe.LayoutRGB, 1, 5)
	f, _, err := picture.Repair(data)
	if err != nil {
		t.Fatal(err)
	}
	roomy, err := f.Fit(t.Context(), picture.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tight, err := f.Fit(t.Context(), picture.Limits{Memory: picture.NewMemory(12 << 20)})
	if err != nil {
		t.Fatal(err)
	}
	if tight.Width >= roomy.Width || tight.Width < 400 {
		t.Errorf("within 12 MB: %d px wide, within the default budget %d: want smaller, still a picture", tight.Width, roomy.Width)
	}
	_, err = f.Fit(t.Context(), picture.Limits{Memory: picture.NewMemory(1 << 20)})
	if picture.Unusability(err) != picture.UnusableMemory || !errors.Is(err, picture.ErrNotImage) {
		t.Errorf("within 1 MB: %v, want refused for memory", err)
	}
}

// A picture that cannot have its memory before its caller's deadline says
// it is busy, a little before the deadline, and gives the memory it never
// had to no one.
func TestAWaitForMemoryEndsBusyBeforeTheDeadline(t *testing.T) {
	t.Parallel()
	mem := picture.NewMemory(40 << 20)
	f, _, err := picture.Repair(camframe.Baseline(1920, 1080, camframe.LayoutYCbCr420, 2, 6))
	if err != nil {
		t.Fatal(err)
	}
	hold := picture.Hold(mem, 39<<20) // another picture holds almost all of it
	ctx, cancel := context.WithTimeout(t.Context(), 1500*1e6)
	defer cancel()
	_, err = f.Fit(ctx, picture.Limits{Memory: mem})
	if !errors.Is(err, picture.ErrBusy) || ctx.Err() != nil {
		t.Errorf("err %v (context %v), want busy before the deadline", err, ctx.Err())
	}
	hold()
	if _, err := f.Fit(t.Context(), picture.Limits{Memory: mem}); err != nil {
		t.Errorf("once the memory is free: %v", err)
	}
	var fe jpegfix.FormatError
	if errors.As(err, &fe) {
		t.Errorf("busy is not a damaged frame: %v", err)
	}
}
