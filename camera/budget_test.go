package camera_test

import (
	"testing"

	"maison/bridge"
	"maison/camera"
	"maison/demotest"
)

// The result budget reaches the camera: a smaller one makes the 4K
// backyard's picture smaller at its first encoding, and every picture is
// encoded once however many snapshots and descriptions share the frame
// (a description encodes none).
func TestTheBudgetSizesThePictureOnce(t *testing.T) {
	t.Parallel()
	var sizes []int
	for _, budget := range []int{60_000, 0, 400_000} {
		r := sharedHouse().Rig(t, demotest.Options{Bridge: bridge.Config{NoTools: true, ResultBudget: budget}})
		svc := r.Bridge.Cameras
		cam, err := svc.Find(t.Context(), "backyard")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Describe(t.Context(), cam); err != nil {
			t.Fatal(err)
		}
		if n := svc.Encoded(); n != 0 {
			t.Errorf("budget %d: describing the camera encoded %d pictures, want none", budget, n)
		}
		snap, err := svc.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Snapshot(t.Context(), cam); err != nil {
			t.Fatal(err)
		}
		if n := svc.Encoded(); n != 1 {
			t.Errorf("budget %d: %d pictures encoded for two snapshots of one frame, want 1", budget, n)
		}
		share := camera.PictureBytes(budget)
		if budget == 0 {
			share = camera.PictureBytes(camera.DefaultResultBudget)
		}
		if len(snap.Image.JPEG) > share {
			t.Errorf("budget %d: %d bytes, over the picture's share of %d", budget, len(snap.Image.JPEG), share)
		}
		t.Logf("budget %d: %dx%d at quality %d, %d bytes of %d", budget, snap.Image.Width, snap.Image.Height, snap.Image.Quality, len(snap.Image.JPEG), share)
		sizes = append(sizes, len(snap.Image.JPEG))
	}
	// The backyard fits the default budget at the best quality: a larger
	// one leaves it as it is (picture's tests show a larger one growing).
	if !(sizes[0] < sizes[1] && sizes[1] <= sizes[2]) {
		t.Errorf("bytes at budgets 60,000, the default and 400,000: %v, want them growing", sizes)
	}
}
