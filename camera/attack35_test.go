package camera_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"

	"maison/bridge"
	"maison/camera"
	"maison/camera/picture"
	"maison/demotest"
	"maison/homeassistant"
	"maison/internal/camframe"
	"maison/voice"
)

// A camera that answers PNG (some do) at 4K: 30 kB of PNG, 3840×2160.
// Before the memory budget it was shown; now the fit admits the PNG's
// whole decode (33 MB) plus the fit after it, 66 MB in all, over the
// 64 MB budget, and refuses it in words that say it was tried "even at
// an eighth of their size", which no PNG decode is. The README promises
// that a frame too large for the whole budget is decoded smaller: a 4K
// PNG is a picture any client takes, at a smaller size if need be.
func TestAttack35FourKPNGCameraIsShownNotRefusedForMemory(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := png.Encode(&b, gradient(3840, 2160)); err != nil {
		t.Fatal(err)
	}
	svc, cam := oddService(t, b.Bytes())
	snap, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		said := ""
		var ce *camera.Error
		if errors.As(err, &ce) {
			said = ce.Say(voice.English)
		}
		t.Fatalf("a 4K PNG camera: %v\nsaid: %s", err, said)
	}
	if snap.Image.Width < 960 {
		t.Errorf("a 4K PNG camera shown %dx%d, want at least 960 wide", snap.Image.Width, snap.Image.Height)
	}
}

// The words of a refusal for memory say the picture was tried at an
// eighth of its size: true of a JPEG only. A PNG too large for the budget
// is never tried smaller, so those words must not be said of it.
func TestAttack35PNGRefusalDoesNotClaimAnEighthWasTried(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := png.Encode(&b, gradient(5000, 4000)); err != nil { // 20 MP, 80 MB decoded
		t.Fatal(err)
	}
	svc, cam := oddService(t, b.Bytes())
	_, err := svc.Snapshot(t.Context(), cam)
	var ce *camera.Error
	if !errors.As(err, &ce) {
		return // shown: nothing false said
	}
	for lang, eighth := range map[voice.Lang]string{voice.English: "eighth", voice.French: "huitième", voice.German: "Achtel"} {
		if said := ce.Say(lang); strings.Contains(said, eighth) {
			t.Errorf("%s: a PNG never decoded smaller is said to be too large %q: %s", lang, eighth, said)
		}
	}
}

// hierarchicalJPEG is a hierarchical JPEG as T.81 Annex J and B.3 lay it
// out: the DHP segment giving the whole picture's size (128×96) before
// any frame, a first, non-differential frame (SOF1) at half that size,
// then EXP (expand by two each way) and a differential frame (SOF5) at
// the full size. A hierarchical file always begins so: its first frame
// header is never a differential one.
func hierarchicalJPEG() []byte {
	b := camframe.Baseline(64, 48, camframe.LayoutGrey, 2, 1)
	sof := camframe.SegmentOffset(b, 0xc0)
	l := int(b[sof+2])<<8 | int(b[sof+3])
	sofSeg := bytes.Clone(b[sof : sof+2+l])
	full := func(marker byte) []byte {
		s := bytes.Clone(sofSeg)
		s[1] = marker
		s[5], s[6], s[7], s[8] = 0, 96, 0, 128
		return s
	}
	first := bytes.Clone(sofSeg)
	first[1] = 0xc1
	sos := camframe.SegmentOffset(b, 0xda)
	end := len(b) - 2 // before EOI
	var out []byte
	out = append(out, b[:sof]...)
	out = append(out, full(0xde)...) // DHP
	out = append(out, first...)
	out = append(out, b[sof+2+l:end]...)
	out = append(out, 0xff, 0xdf, 0, 3, 0x11) // EXP
	out = append(out, full(0xc5)...)          // SOF5, differential
	out = append(out, b[sos:end]...)
	return append(out, 0xff, 0xd9)
}

// A camera sending hierarchical JPEG is refused from its headers and told
// so in words naming the setting (jpegfix Options.Admit, words
// camera.error.hierarchical). Seen: Admit only looks at the first frame
// header, which in a hierarchical file is the non-differential one, so
// the DHP segment is dropped as "garbage", the differential frame as "a
// second JPEG placed after the first", and the 64×48 first frame is shown
// as the camera's picture, said to be repaired.
func TestAttack35HierarchicalJPEGIsRefusedAsHierarchical(t *testing.T) {
	t.Parallel()
	data := hierarchicalJPEG()
	if djpeg, err := exec.LookPath("djpeg"); err == nil {
		cmd := exec.CommandContext(t.Context(), djpeg)
		cmd.Stdin = bytes.NewReader(data)
		out, _ := cmd.CombinedOutput()
		t.Logf("djpeg on the camera's bytes: %.80s", bytes.TrimSpace(out[max(0, len(out)-200):]))
	}
	_, rep, err := picture.Repair(data)
	if got := picture.Unusability(err); got != picture.UnusableHierarchical {
		t.Errorf("repair: %v (unusable %d), want refused as hierarchical; repairs said: %q", err, got, rep.Sentences())
	}
	svc, cam := oddService(t, data)
	snap, err := svc.Snapshot(t.Context(), cam)
	if err == nil {
		t.Fatalf("a hierarchical JPEG shown as a %dx%d picture (of 128x96), repairs said: %q", snap.Image.Width, snap.Image.Height, snap.Repairs)
	}
	var ce *camera.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Say(voice.English), "hierarchical JPEG") {
		t.Errorf("said %v, want the hierarchical words", err)
	}
}

// A larger result budget (MAISON_RESULT_BUDGET, up to 10,000,000) is
// asked for to get larger, sharper pictures. The memory plan counts
// 8 × the picture's byte share as held by the encoder whatever the
// picture's size (afterDecode), so at 10,000,000 that alone is 60 MB of
// the 64 MB budget: the 4K backyard is decoded at 1/8 and sent at 480×270,
// against 1429×804 at the default budget.
func TestAttack35ALargerResultBudgetNeverShrinksThePicture(t *testing.T) {
	t.Parallel()
	width := map[int]int{}
	for _, budget := range []int{0, 10_000_000} {
		r := sharedHouse().Rig(t, demotest.Options{Bridge: bridge.Config{NoTools: true, ResultBudget: budget}})
		cam, err := r.Bridge.Cameras.Find(t.Context(), "backyard")
		if err != nil {
			t.Fatal(err)
		}
		snap, err := r.Bridge.Cameras.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		width[budget] = snap.Image.Width
	}
	if width[10_000_000] < width[0] {
		t.Errorf("the 4K backyard is %d px wide under a result budget of 10,000,000, %d under the default: a larger budget gave a smaller picture", width[10_000_000], width[0])
	}
}

// A camera whose every frame is unusable for a setting (12-bit samples) is
// said so by camera_snapshot and describe_camera; camera_overview draws
// its place empty and says it "gave no usable picture just now ... try
// this camera alone in a moment" (fr "dans un instant", de "gleich noch
// einmal"): a passing moment, where the setting lasts until someone
// changes it, and trying again in a moment gets the same refusal.
func TestAttack35OverviewSaysACameraSettingAsASetting(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../fixtures/jpeg/third.twelve-bit.jpeg")
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := oddService(t, b)
	ov, err := svc.Overview(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for lang, c := range map[voice.Lang]struct{ passing, setting string }{
		voice.English: {"in a moment", "12-bit"},
		voice.French:  {"dans un instant", "12 bits"},
		voice.German:  {"gleich noch einmal", "12-Bit"},
	} {
		said := ov.Say(lang)
		if strings.Contains(said, c.passing) || !strings.Contains(said, c.setting) {
			t.Errorf("%s: %q\nwant the setting (%q), not a passing moment (%q)", lang, said, c.setting, c.passing)
		}
	}
}

// noFrame is a Home Assistant whose one camera (a file camera whose file
// is missing) gets a 500 at once for every picture.
type noFrame struct{ oneFrame }

func (noFrame) CameraImage(context.Context, string, int, int) (homeassistant.Image, error) {
	return homeassistant.Image{}, &homeassistant.Error{Kind: homeassistant.KindCameraFailed, Op: "GET /api/camera_proxy/camera.odd", Status: 500}
}

// The same for a camera that gives Home Assistant no picture at all (a
// file camera whose file is missing: a 500 at once): camera_snapshot and
// describe_camera say "this is not a slow moment; it lasts until the
// camera, or its file, has a picture again", while camera_overview says
// it "gave no usable picture just now ... try this camera alone in a
// moment".
func TestAttack35OverviewSaysAMissingPictureAsLasting(t *testing.T) {
	t.Parallel()
	svc, err := camera.New(camera.Config{Source: &noFrame{}, Allow: []string{"camera.odd"}})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := svc.Overview(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for lang, passing := range map[voice.Lang]string{voice.English: "in a moment", voice.French: "dans un instant", voice.German: "gleich noch einmal"} {
		if said := ov.Say(lang); strings.Contains(said, passing) {
			t.Errorf("%s: %q\nsays a missing picture as a passing moment (%q)", lang, said, passing)
		}
	}
}
