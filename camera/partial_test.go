package camera_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/bridge"
	"maison/camera"
	"maison/camera/picture"
	"maison/demo"
	"maison/demotest"
	"maison/jpegfix"
	"maison/voice"
)

// damagingCamera stands between maison and the demo house like a flaky
// camera: the frames of one camera's proxy are passed through damage,
// called with the fetch number (1 for the first), on the real wire.
type damagingCamera struct {
	next   http.Handler
	camera string
	damage func(n int, frame []byte) []byte

	mu sync.Mutex
	n  int
}

func (d *damagingCamera) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/camera_proxy/"+d.camera {
		d.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	d.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if rec.Code == http.StatusOK {
		d.mu.Lock()
		d.n++
		n := d.n
		d.mu.Unlock()
		body = d.damage(n, bytes.Clone(body))
	}
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// flakyGarage starts a demo house whose garage camera's frames go through
// damage, and a camera service in lang that never reuses a frame.
func flakyGarage(t *testing.T, lang voice.Lang, damage func(n int, frame []byte) []byte) (*demo.House, *camera.Service, camera.Camera) {
	t.Helper()
	r := demotest.New(t, demotest.Options{
		LazyFrames: true, // only the garage is offered: the others are never drawn
		Wrap: func(h http.Handler) http.Handler {
			return &damagingCamera{next: h, camera: "camera.garage", damage: damage}
		},
		Bridge: bridge.Config{NoTools: true, Lang: lang, Cameras: []string{"camera.garage"}, Camera: func(c *camera.Config) {
			c.Exposed, c.MaxAge = nil, time.Nanosecond // the operator's list alone; never a frame reused
		}},
	})
	svc := r.Bridge.Cameras
	cam, err := svc.Find(t.Context(), "garage")
	if err != nil {
		t.Fatal(err)
	}
	return r.House, svc, cam
}

// cut keeps the first share of a frame, as a camera whose buffer is sent
// before it is full.
func cut(share float64) func(int, []byte) []byte {
	return func(_ int, b []byte) []byte { return b[:int(float64(len(b))*share)] }
}

func TestFrameRefusedOnceIsFetchedAgain(t *testing.T) {
	t.Parallel()
	house, svc, cam := flakyGarage(t, voice.English, func(n int, b []byte) []byte {
		if n == 1 {
			return cut(0.6)(n, b)
		}
		return b
	})
	snap, err := svc.Snapshot(t.Context(), cam)
	if err != nil {
		t.Fatal(err)
	}
	if n := house.CameraFetches("camera.garage"); n != 2 {
		t.Errorf("%d fetches, want 2: the cut frame, then a whole one", n)
	}
	_, clean, _ := house.Frame("camera.garage")
	if snap.Damage != nil || snap.Image.Reencoded || !bytes.Equal(snap.Image.JPEG, clean) {
		t.Errorf("the second, whole frame should be passed through repaired: damage %+v, re-encoded %v", snap.Damage, snap.Image.Reencoded)
	}
	if strings.Contains(snap.Description, "damaged") {
		t.Errorf("a whole picture described as damaged: %q", snap.Description)
	}
}

func TestFrameDamagedTwiceShowsThePartThatDecodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang  voice.Lang
		words []string
	}{
		{voice.English, []string{
			"Only part of the picture from the “Garage” camera could be shown: the camera sent it damaged twice in a row.",
			"The bottom ", " of the picture ", " missing and left grey.",
			"It came that way from the camera, not from the connection or from me",
		}},
		{voice.French, []string{
			"Je n'ai pu montrer qu'une partie de l'image de la caméra « Garage » : la caméra l'a envoyée abîmée deux fois de suite.",
			" du bas de l'image manque", "laissée en gris.",
			"Elle est arrivée ainsi de la caméra",
		}},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			house, svc, cam := flakyGarage(t, tc.lang, cut(0.6))
			snap, err := svc.Snapshot(t.Context(), cam)
			if err != nil {
				t.Fatal(err)
			}
			if n := house.CameraFetches("camera.garage"); n != 2 {
				t.Errorf("%d fetches, want 2", n)
			}
			d := snap.Damage
			if d == nil || len(d.Missing) != 1 || d.Missing[0].To != 1 || d.Shown < 0.5 || d.Shown > 0.9 {
				t.Fatalf("damage %+v, want one missing band down to the bottom and most of the picture shown", d)
			}
			for _, w := range tc.words {
				if !strings.Contains(snap.Description, w) {
					t.Errorf("description lacks %q:\n%s", w, snap.Description)
				}
			}
			if err := voice.Speakable(snap.Description); err != nil {
				t.Error(err)
			}
			t.Log(snap.Description)
			if len(snap.Repairs) != 1 || !strings.Contains(snap.Repairs[0], "damaged frame twice in a row (the file is cut off inside its image data") {
				t.Errorf("repairs %q", snap.Repairs)
			}

			// A fresh, strict JPEG within the client's limits.
			out := snap.Image.JPEG
			if !snap.Image.Reencoded {
				t.Error("not re-encoded")
			}
			if err := jpegfix.Check(out); err != nil {
				t.Error(err)
			}
			if _, rep, err := (jpegfix.Options{VerifyData: true}).Repair(out); err != nil || len(rep.Fixes) != 0 || rep.Unchecked != "" {
				t.Errorf("jpegfix on the salvaged frame: %v, %q", err, rep.Sentences())
			}
			strict(t, "salvaged", out, true)
			got, err := jpeg.Decode(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if b := got.Bounds(); b.Dx() != 1280 || b.Dy() != 720 || len(out) > 700_000 {
				t.Errorf("%v, %d bytes", b, len(out))
			}

			// The part shown is the camera's picture; the rest is grey.
			_, clean, _ := house.Frame("camera.garage")
			want, err := jpeg.Decode(bytes.NewReader(clean))
			if err != nil {
				t.Fatal(err)
			}
			top := int(d.Missing[0].From * 720)
			if diff := lumaDiff(got, want, 0, top-16); diff > 4 {
				t.Errorf("the part shown differs from the camera's picture by %.1f levels", diff)
			}
			if mean, spread := lumaOf(got, top+16, 720); mean < 124 || mean > 132 || spread > 3 {
				t.Errorf("the missing part is not grey: mean %.1f, spread %.1f", mean, spread)
			}
		})
	}
}

func TestFrameTooDamagedTwiceSaysSo(t *testing.T) {
	t.Parallel()
	house, svc, cam := flakyGarage(t, voice.English, cut(0.2))
	_, err := svc.Snapshot(t.Context(), cam)
	var ce *camera.Error
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want a camera error", err)
	}
	if n := house.CameraFetches("camera.garage"); n != 2 {
		t.Errorf("%d fetches, want 2", n)
	}
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		said := ce.Say(lang)
		if want := map[voice.Lang]string{voice.English: "sent its picture damaged twice in a row, and too little of it came through to show", voice.French: "a envoyé son image abîmée deux fois de suite"}[lang]; !strings.Contains(said, want) {
			t.Errorf("%s: %q lacks %q", lang, said, want)
		}
		if err := voice.Speakable(said); err != nil {
			t.Error(err)
		}
	}
}

func TestNotAPictureTwiceIsNotCalledDamaged(t *testing.T) {
	t.Parallel()
	_, svc, cam := flakyGarage(t, voice.English, func(int, []byte) []byte {
		return []byte("<html><body>503 Service Unavailable</body></html>")
	})
	_, err := svc.Snapshot(t.Context(), cam)
	var ce *camera.Error
	if !errors.As(err, &ce) || !errors.Is(err, picture.ErrNotImage) {
		t.Fatalf("err %v", err)
	}
	if said := ce.Say(voice.English); !strings.Contains(said, "not a usable picture") {
		t.Errorf("%q", said)
	}
}

// TestLyingHeadersAreNotSalvaged: a frame whose table lengths lie is
// refused both times and nothing of it is shown, since what it would decode
// to cannot be trusted.
func TestLyingHeadersAreNotSalvaged(t *testing.T) {
	t.Parallel()
	house, svc, cam := flakyGarage(t, voice.English, func(_ int, b []byte) []byte {
		dqt := bytes.Index(b, []byte{0xff, 0xdb, 0x00, 0x84})
		b[dqt+3] = 0x80
		return b
	})
	_, err := svc.Snapshot(t.Context(), cam)
	var ce *camera.Error
	if !errors.As(err, &ce) || !errors.Is(err, picture.ErrNotImage) {
		t.Fatalf("err %v", err)
	}
	if said := ce.Say(voice.English); strings.Contains(said, "damaged twice") || !strings.Contains(said, "not a usable picture") {
		t.Errorf("%q", said)
	}
	if n := house.CameraFetches("camera.garage"); n != 2 {
		t.Errorf("%d fetches, want 2", n)
	}
}

// TestDamageWords checks the words for where the damage lies, in both
// languages, and that every variant is speakable.
func TestDamageWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d          camera.Damage
		en, fr, de string
	}{
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.66, To: 1}}}), "The bottom third of the picture is missing and left grey.", "Le tiers du bas de l'image manque; cette partie est laissée en gris.", "Ein Drittel des Bildes am unteren Rand fehlt und bleibt grau."},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.3, To: 1}}}), "The bottom two thirds of the picture are missing and left grey.", "Les deux tiers du bas de l'image manquent; cette partie est laissée en gris.", "Zwei Drittel des Bildes am unteren Rand fehlen und bleiben grau."},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0, To: 0.5}}}), "The top half of the picture is missing", "La moitié du haut de l'image manque", ""},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.45, To: 0.55}}}), "A band across the middle of the picture, about a tenth of its height, is missing", "Une bande en travers du milieu de l'image, environ un dixième de sa hauteur, manque", "Ein Streifen quer durch die Mitte des Bildes, etwa ein Zehntel der Bildhöhe, fehlt"},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.1, To: 0.2}, {From: 0.7, To: 0.8}}}), "Two bands across the picture, about a fifth of it in all, are missing", "Deux bandes en travers de l'image, environ un cinquième en tout, manquent; ces parties sont laissées en gris.", "Zwei Streifen quer durch das Bild, zusammen etwa ein Fünftel davon, fehlen und bleiben grau."},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.96, To: 1}}}), "A thin strip at the bottom of the picture is missing", "Une mince bande en bas de l'image manque", ""},
		{dmg(picture.Damage{Missing: []picture.Band{{From: 0.75, To: 1}}, Across: true}), "The right quarter of the picture is missing", "Le quart de droite de l'image manque", ""},
		{dmg(picture.Damage{Coarse: []picture.Band{{From: 0.6, To: 1}}}), "For the bottom two fifths of the picture, only the broad shapes came through, without the fine detail.", "Pour les deux cinquièmes du bas de l'image, seuls les grands traits sont arrivés, sans les détails fins.", "Zwei Fünftel des Bildes am unteren Rand: Hier kamen nur die groben Formen an, ohne die feinen Details."},
		{dmg(picture.Damage{Coarse: []picture.Band{{From: 0.2, To: 0.4}}, Softened: true}), "For a band across the upper part of the picture, about a fifth of its height, only the broad shapes came through", "Le reste de l'image est un peu moins net", ""},
	} {
		for lang, want := range map[voice.Lang]string{voice.English: tc.en, voice.French: tc.fr, voice.German: tc.de} {
			name := map[voice.Lang]string{voice.English: "the Garage camera", voice.French: "la caméra Garage", voice.German: "die Kamera Garage"}[lang]
			said := tc.d.Say(lang, name)
			if !strings.Contains(said, want) {
				t.Errorf("%s %+v:\n got %q\nwant %q", lang, tc.d, said, want)
			}
			if err := voice.Speakable(said); err != nil {
				t.Error(err)
			}
		}
	}
}

func dmg(d picture.Damage) camera.Damage { return camera.Damage{Damage: d} }

// lumaDiff is the mean absolute luma difference of rows y0..y1 of a and b.
func lumaDiff(a, b image.Image, y0, y1 int) float64 {
	var sum, n float64
	for y := y0; y < y1; y += 2 {
		for x := 0; x < a.Bounds().Dx(); x += 2 {
			sum += abs(luma(a, x, y) - luma(b, x, y))
			n++
		}
	}
	return sum / n
}

// lumaOf is the mean and spread of the luma of rows y0..y1 of m.
func lumaOf(m image.Image, y0, y1 int) (float64, float64) {
	var lo, hi, sum, n float64 = 255, 0, 0, 0
	for y := y0; y < y1; y += 2 {
		for x := 0; x < m.Bounds().Dx(); x += 2 {
			l := luma(m, x, y)
			lo, hi = min(lo, l), max(hi, l)
			sum += l
			n++
		}
	}
	return sum / n, hi - lo
}

func luma(m image.Image, x, y int) float64 {
	r, g, b, _ := m.At(x, y).RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// closerLook asks a flaky garage camera (see flakyGarage) for a closer
// look at the top right of its picture.
func closerLook(t *testing.T, lang voice.Lang, damage func(n int, frame []byte) []byte) (*demo.House, camera.Snapshot, error) {
	t.Helper()
	house, svc, cam := flakyGarage(t, lang, damage)
	r, err := camera.ParseRegion("top right")
	if err != nil {
		t.Fatal(err)
	}
	snap, err := svc.Closer(t.Context(), cam, r)
	return house, snap, err
}

// A closer look is a camera frame like any other: one jpegfix refuses is
// fetched once more, and the whole second frame is cut as asked.
func TestCloserLookRefusedOnceIsFetchedAgain(t *testing.T) {
	t.Parallel()
	house, snap, err := closerLook(t, voice.English, func(n int, b []byte) []byte {
		if n == 1 {
			return cut(0.6)(n, b)
		}
		return b
	})
	if err != nil {
		t.Fatalf("the second, whole frame should be cut: %v", err)
	}
	if n := house.CameraFetches("camera.garage"); n != 2 {
		t.Errorf("%d fetches, want 2: the cut frame, then a whole one", n)
	}
	if snap.Part == nil || snap.Damage != nil || strings.Contains(snap.Description, "damaged") {
		t.Errorf("want the top right of a whole frame: part %v, damage %+v, %q", snap.Part, snap.Damage, snap.Description)
	}
}

// A closer look at a frame damaged twice shows what the whole picture does:
// the part that decodes, with words saying the part asked for cannot be
// shown closer and which part is missing; never nothing, and two fetches.
func TestCloserLookDamagedTwiceShowsThePartThatDecodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang  voice.Lang
		words []string
	}{
		{voice.English, []string{
			"The picture from the “Garage” camera came damaged, so I cannot show the top right quarter of the picture closer; this is the whole picture, as far as it came through.",
			"The bottom ", " missing and left grey.",
		}},
		{voice.French, []string{
			"L'image de la caméra « Garage » est arrivée abîmée, je ne peux donc pas montrer le quart de l'image en haut à droite de plus près; voici l'image entière, telle qu'elle est arrivée.",
			" du bas de l'image manque",
		}},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			house, snap, err := closerLook(t, tc.lang, cut(0.6))
			if err != nil {
				t.Fatalf("a picture rather than nothing: %v", err)
			}
			if n := house.CameraFetches("camera.garage"); n != 2 {
				t.Errorf("%d fetches, want 2", n)
			}
			if snap.Damage == nil || snap.Part != nil || !snap.Image.Reencoded {
				t.Fatalf("want the whole picture's part that decodes: damage %+v, part %v", snap.Damage, snap.Part)
			}
			for _, w := range tc.words {
				if !strings.Contains(snap.Description, w) {
					t.Errorf("description lacks %q:\n%s", w, snap.Description)
				}
			}
			if err := voice.Speakable(snap.Description); err != nil {
				t.Error(err)
			}
			t.Log(snap.Description)
			strict(t, "salvaged for a closer look", snap.Image.JPEG, true)
		})
	}
}

// failingSecond serves the camera's first frame cut and answers its second
// fetch with a server error, as a camera that drops off after a bad frame.
type failingSecond struct {
	next   http.Handler
	camera string
	share  float64 // of the first frame sent
	mu     sync.Mutex
	n      int
}

func (f *failingSecond) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/camera_proxy/"+f.camera {
		f.next.ServeHTTP(w, r)
		return
	}
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if n > 1 {
		http.Error(w, "camera unavailable", http.StatusInternalServerError)
		return
	}
	rec := httptest.NewRecorder()
	f.next.ServeHTTP(rec, r)
	w.Header().Set("Content-Type", "image/jpeg")
	w.Write(cut(f.share)(n, rec.Body.Bytes()))
}

// TestDamagedOnceThenUnreachableIsNotSaidTwice: when the second fetch of a
// refused frame fails, one damaged frame came, not two; the words said
// "damaged twice in a row".
func TestDamagedOnceThenUnreachableIsNotSaidTwice(t *testing.T) {
	t.Parallel()
	garage := func(t *testing.T, lang voice.Lang, share float64) (*camera.Service, camera.Camera) {
		r := demotest.New(t, demotest.Options{
			LazyFrames: true, // only the garage is offered: the others are never drawn
			Wrap: func(h http.Handler) http.Handler {
				return &failingSecond{next: h, camera: "camera.garage", share: share}
			},
			Bridge: bridge.Config{NoTools: true, Lang: lang, Cameras: []string{"camera.garage"}, Camera: func(c *camera.Config) {
				c.Exposed, c.MaxAge = nil, time.Nanosecond
			}},
		})
		svc := r.Bridge.Cameras
		cam, err := svc.Find(t.Context(), "garage")
		if err != nil {
			t.Fatal(err)
		}
		return svc, cam
	}
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		svc, cam := garage(t, lang, 0.6)
		snap, err := svc.Snapshot(t.Context(), cam)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if snap.Damage == nil {
			t.Fatalf("%s: no damage said for a cut frame", lang)
		}
		said := snap.Damage.Say(lang, "the garage camera")
		for _, twice := range []string{"twice", "deux fois"} {
			if strings.Contains(said, twice) || strings.Contains(strings.Join(snap.Repairs, " "), twice) {
				t.Errorf("%s: %q / %q", lang, said, snap.Repairs)
			}
		}
		if want := map[voice.Lang]string{voice.English: "asking it again failed", voice.French: "la lui redemander n'a pas abouti"}[lang]; !strings.Contains(said, want) {
			t.Errorf("%s: %q does not say %q", lang, said, want)
		}

		// Too little of it to show: the error says so, once too.
		svc, cam = garage(t, lang, 0.2)
		_, err = svc.Snapshot(t.Context(), cam)
		var ce *camera.Error
		if !errors.As(err, &ce) {
			t.Fatalf("%s: err %v, want a camera error", lang, err)
		}
		said = ce.Say(lang)
		if want := map[voice.Lang]string{voice.English: "sent its picture damaged, too little of it came through to show, and asking it again for one failed", voice.French: "a envoyé son image abîmée, trop peu en est arrivé pour la montrer, et lui en redemander une n'a pas abouti"}[lang]; !strings.Contains(said, want) {
			t.Errorf("%s: %q lacks %q", lang, said, want)
		}
		if err := voice.Speakable(said); err != nil {
			t.Error(err)
		}
	}
}
