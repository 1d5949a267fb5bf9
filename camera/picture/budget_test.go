package picture_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"

	"maison/camera"
	"maison/camera/picture"
	"maison/jpegfix"
)

// A picture fitted to a small result budget's share fits it and is a strict
// JPEG: the fit from the camera's frame, the last resort's re-fit of a
// fitted picture, and the part of a damaged frame that decodes.
func TestASmallBudgetFitsAndPassesTheCheck(t *testing.T) {
	t.Parallel()
	_, clean, ok := sharedFrame(t, "camera.backyard") // 4K
	if !ok {
		t.Fatal("no frame for the backyard")
	}
	whole, err := picture.Fit(context.Background(), clean, picture.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	damaged := clean[:len(clean)*8/10]
	_, rep, refusal := jpegfix.Options{VerifyData: true}.Repair(damaged)
	if refusal == nil {
		t.Fatal("the cut frame was not refused")
	}
	for _, budget := range []int{60_000, 30_000, 12_000} {
		l := picture.Limits{MaxBytes: camera.PictureBytes(budget)}
		fit, err := picture.Fit(context.Background(), clean, l)
		check(t, "fit", budget, l, fit, err)
		if !fit.Reencoded {
			t.Errorf("budget %d: the 4K frame was passed through", budget)
		}
		refit, err := picture.FitBytes(context.Background(), whole.JPEG, picture.Limits{MaxBytes: l.MaxBytes})
		check(t, "refit", budget, l, refit, err)
		f, _, err := picture.Salvage(context.Background(), damaged, rep, l, refusal)
		if err != nil {
			t.Fatalf("budget %d: salvage: %v", budget, err)
		}
		part, err := f.Fit(context.Background(), l)
		check(t, "salvage", budget, l, part, err)
	}
}

func check(t *testing.T, what string, budget int, l picture.Limits, fit picture.Fitted, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("budget %d, %s: %v", budget, what, err)
	}
	if len(fit.JPEG) > l.MaxBytes {
		t.Errorf("budget %d, %s: %d bytes, over its share of %d", budget, what, len(fit.JPEG), l.MaxBytes)
	}
	if err := jpegfix.Check(fit.JPEG); err != nil {
		t.Errorf("budget %d, %s: not a strict JPEG: %v", budget, what, err)
	}
	t.Logf("budget %d, %s: %dx%d, %d bytes of %d", budget, what, fit.Width, fit.Height, len(fit.JPEG), l.MaxBytes)
}

// The default result budget leaves a picture exactly the bytes it had
// before the budget reached the camera, so default answers do not change.
func TestTheDefaultBudgetKeepsTheDefaultPicture(t *testing.T) {
	t.Parallel()
	if got := camera.PictureBytes(camera.DefaultResultBudget); got != picture.DefaultMaxBytes {
		t.Errorf("PictureBytes(%d) = %d, want %d", camera.DefaultResultBudget, got, picture.DefaultMaxBytes)
	}
}

// A larger result budget lets a picture full of detail keep more of it
// than the default budget's 100,000 bytes, up to its own share.
func TestALargerBudgetKeepsMore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	img := image.NewGray(image.Rect(0, 0, 1280, 720))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	def, err := picture.Fit(t.Context(), buf.Bytes(), picture.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	l := picture.Limits{MaxBytes: camera.PictureBytes(600_000)}
	big, err := picture.Fit(t.Context(), buf.Bytes(), l)
	check(t, "fit", 600_000, l, big, err)
	if len(big.JPEG) <= picture.DefaultMaxBytes || len(def.JPEG) > picture.DefaultMaxBytes {
		t.Errorf("%d bytes within the default budget, %d within a larger one: want the larger over %d", len(def.JPEG), len(big.JPEG), picture.DefaultMaxBytes)
	}
}
