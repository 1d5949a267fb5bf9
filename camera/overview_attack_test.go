package camera_test

// Attack tests of camera_overview (branch attack-13).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/camera"
	"maison/demo"
	"maison/voice"
)

// Overviews asked at once share their frames and each gets the whole
// grid; one whose caller gave up ends with its caller's error, at once.
func TestAttackOverviewsAtOnce(t *testing.T) {
	t.Parallel()
	house, svc := houseService(t, nil, nil)
	house.SetCameraStall("camera.backyard", 2*time.Second)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	tiles := make([]int, 4)
	for i := range 4 {
		wg.Go(func() {
			ov, err := svc.Overview(t.Context())
			errs[i], tiles[i] = err, len(ov.Tiles)
			if err == nil {
				if err := voice.Speakable(ov.Say(voice.French)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	start := time.Now()
	if _, err := svc.Overview(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled overview: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Logf("a cancelled overview took %v", d)
	}
	wg.Wait()
	for i := range 4 {
		if errs[i] != nil || tiles[i] != 4 {
			t.Errorf("overview %d: %d tiles, %v", i, tiles[i], errs[i])
		}
	}
}

// Every camera stalled past the wait: the overview still answers, within
// about one wait, each tile empty and said late.
func TestAttackOverviewAllCamerasStalled(t *testing.T) {
	t.Parallel()
	house, svc := houseService(t, nil, func(c *camera.Config) { c.OverviewWait = 300 * time.Millisecond })
	for _, id := range house.Cameras() {
		house.SetCameraStall(id, 2*time.Second)
	}
	start := time.Now()
	ov, err := svc.Overview(t.Context())
	t.Logf("the overview took %v with a wait of 300 ms", time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	for _, tile := range ov.Tiles {
		if tile.State != camera.TileLate && tile.State != camera.TileOff {
			t.Errorf("%s: %v (%v)", tile.Camera.Name, tile.State, tile.Err)
		}
	}
	strict(t, "overview of stalled cameras", ov.Image.JPEG, true)
}

// Cameras beyond the grid are named, so that a listener can ask for them:
// "ask for them by name" without their names is no help.
func TestAttackOverviewNamesTheCamerasBeyondTheGrid(t *testing.T) {
	t.Parallel()
	for _, extra := range []int{13, 20} {
		_, svc := houseService(t, func(h *demo.House) {
			for i := range extra {
				if err := h.Add(demo.Entity{ID: fmt.Sprintf("camera.extra_%02d", i), Name: fmt.Sprintf("Extra %02d", i), State: "idle", Exposed: true}); err != nil {
					t.Fatal(err)
				}
			}
		}, func(c *camera.Config) { c.OverviewWait = time.Millisecond })
		ov, err := svc.Overview(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		more := extra + 4 - 16
		if ov.More() != more {
			t.Fatalf("%d more, want %d", ov.More(), more)
		}
		cams, err := svc.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		left := cams[16].Name // the first camera, by name, left out of the grid
		for _, lang := range []voice.Lang{voice.English, voice.French} {
			said := ov.Say(lang)
			if !strings.Contains(said, left) {
				t.Errorf("%s, %d more: %q, left out, is not named: %s", lang, more, left, said)
			}
			if err := voice.Speakable(said); err != nil {
				t.Error(err)
			}
			if more == 1 && !strings.Contains(said, pick(lang, " The “"+left+"” camera does not fit in this picture; ask for it by name.", " La caméra « "+left+" » ne tient pas dans cette image; demandez-la par son nom.")) {
				t.Errorf("%s: one camera beyond the grid: %s", lang, said)
			}
		}
	}
}

func pick(lang voice.Lang, en, fr string) string {
	if lang == voice.French {
		return fr
	}
	return en
}

// Sixteen cameras late: why a tile is empty and what to do is said once,
// not sixteen times over to a listener.
func TestAttackOverviewSaysAnEmptyTilesAdviceOnce(t *testing.T) {
	t.Parallel()
	_, svc := houseService(t, func(h *demo.House) {
		for i := range 12 {
			if err := h.Add(demo.Entity{ID: fmt.Sprintf("camera.extra_%02d", i), Name: fmt.Sprintf("Extra %02d", i), State: "idle", Exposed: true}); err != nil {
				t.Fatal(err)
			}
		}
	}, func(c *camera.Config) { c.OverviewWait = time.Nanosecond })
	ov, err := svc.Overview(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		said := ov.Say(lang)
		advice := pick(lang, "asking for this camera alone usually works", "demander cette caméra seule fonctionne d'habitude")
		if n := strings.Count(said, advice); n != 1 {
			t.Errorf("%s: the advice is said %d times: %s", lang, n, said)
		}
		if !strings.Contains(said, pick(lang, "is the “Porch” camera, which sent no picture in time either.", "est la caméra « Porch », qui n'a pas non plus envoyé d'image à temps.")) {
			t.Errorf("%s: a later empty tile is not said briefly: %s", lang, said)
		}
		if err := voice.Speakable(said); err != nil {
			t.Error(err)
		}
	}
}
