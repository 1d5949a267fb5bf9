package camera

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"

	"maison/homeassistant"
	"maison/jpegfix"
	"maison/jpegscale"
	"maison/words"
)

// Closer shows a part of cam's picture at the camera's own detail: it asks
// Home Assistant for the full-resolution frame (never a pre-scaled one),
// repairs it, decodes no more than the part needs, cuts the part out and
// fits it to what clients accept. A 4K camera's corner keeps detail the
// whole-frame fit throws away. The description says which part is shown.
func (s *Service) Closer(ctx context.Context, cam Camera, r Region) (Snapshot, error) {
	if r.Whole() {
		return s.Snapshot(ctx, cam)
	}
	snap, err := s.closer(ctx, cam, r)
	if err != nil {
		return snap, err
	}
	if snap.Part != nil {
		snap.Description = s.describe(ctx, cam, snap)
		return snap, nil
	}
	lang, name := s.cfg.Lang, cam.Say(s.cfg.Lang)
	snap.Description = words.NotCloser(lang, name, r.Say(lang)) + " " + s.withDamage(s.describe(ctx, cam, snap), cam, snap)
	return snap, nil
}

// closer is a closer look without its words, which are gathered once its
// decoding slot is given back: the part cut, or for a damaged frame the
// part of the whole picture that decodes.
func (s *Service) closer(ctx context.Context, cam Camera, r Region) (Snapshot, error) {
	img, err := s.fetch(ctx, cam.EntityID, 0, 0)
	s.notePower(cam.EntityID, err)
	if err != nil {
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	// No more parts decoded at once than there are processors to decode
	// them; a slot is not held while waiting on the camera.
	if err := s.takeSlot(ctx); err != nil {
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	defer func() { <-s.crops }()
	f, rep, err := clean(img.Bytes)
	if refused(err) {
		// As for the whole picture: cameras often send a whole frame the
		// next time; if not, the part of the whole picture that decodes.
		s.log.Info("camera frame refused; fetching it once more", "camera", cam.EntityID, "err", err)
		tries := []try{{img, rep, err}}
		<-s.crops // not held while waiting on the camera
		again, ferr := s.fetch(ctx, cam.EntityID, 0, 0)
		s.crops <- struct{}{} // the second frame, or the first's salvage, is decoded next
		if ferr != nil {
			s.log.Warn("fetching the camera frame again failed", "camera", cam.EntityID, "err", ferr)
		} else {
			img = again
			if f, rep, err = clean(img.Bytes); refused(err) {
				tries = append(tries, try{again, rep, err})
			}
		}
		if err == nil {
			var part Part
			if part, err = crop(f, r, Limits{}); err == nil {
				return s.closerPart(cam, img, rep, part), nil
			}
		}
		if ferr == nil && len(tries) == 1 {
			// The second frame is not a damaged frame but no picture at
			// all: one damaged frame came, as when fetching it failed.
			s.log.Warn("the camera frame fetched again is not usable", "camera", cam.EntityID, "err", err)
		}
		return s.closerDamaged(cam, tries, len(tries) == 1)
	}
	if err == nil {
		var part Part
		if part, err = crop(f, r, Limits{}); err == nil {
			return s.closerPart(cam, img, rep, part), nil
		}
	}
	s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
	return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
}

// closerPart is the snapshot of a part cut from a frame, without words.
func (s *Service) closerPart(cam Camera, img homeassistant.Image, rep jpegfix.Report, part Part) Snapshot {
	snap := Snapshot{Camera: cam, Image: part.Fitted, Fetched: img.Fetched, FetchedBytes: len(img.Bytes), Part: &part}
	if rep.Defects() > 0 {
		snap.Repairs = rep.Sentences()
	}
	s.noteSize(cam.EntityID, part.SourceWidth, part.SourceHeight)
	return snap
}

// takeSlot waits for one of s.crops' decoding slots, or for ctx to end.
func (s *Service) takeSlot(ctx context.Context) error {
	select {
	case s.crops <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closerDamaged answers a closer look at a camera whose frame jpegfix
// refused twice (or once, when fetching it again failed or brought no
// picture): the part of the whole picture that decodes, as camera_snapshot
// shows it, without words; or the refusal.
func (s *Service) closerDamaged(cam Camera, tries []try, once bool) (Snapshot, error) {
	img, fit, d, err := s.salvageTries(cam.EntityID, tries, once)
	if err != nil {
		s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	s.log.Warn("camera frame damaged; showing the part of the whole picture that decodes instead of a closer look", "camera", cam.EntityID, "shown", d.Shown, "reason", d.Reason)
	fit.Damage = d
	return Snapshot{Camera: cam, Image: fit, Fetched: img.Fetched, FetchedBytes: len(img.Bytes), Repairs: []string{d.report()}, Damage: d}, nil
}

// Part is a part of a frame, fitted.
type Part struct {
	Fitted
	// Region is the part as named, or for a box, the box as shown.
	Region Region
	// Shown is the part in the upright full frame's pixels, as cut: the
	// region, widened to a few pixels' alignment and to a usable size.
	Shown image.Rectangle
	// Closer is how much larger the part appears than in the whole
	// frame's fit: 1 when the camera has no finer detail to give.
	Closer float64
}

// crop cuts region r out of a repaired frame, turned upright by its Exif
// orientation, decoding at the smallest 1/n scale that still holds the
// part at its fitted size, and fits it to l.
func crop(f frame, r Region, l Limits) (Part, error) {
	l = l.withDefaults()
	full, err := f.size()
	if err != nil {
		return Part{}, err
	}
	o := f.info.Orientation
	uw, uh := full.X, full.Y // upright size
	if o >= 5 {
		uw, uh = uh, uw
	}
	want := r.Pixels(uw, uh)
	fw, fh := fitSize(want.Dx(), want.Dy(), l)
	scale := 1
	if f.isJPEG() {
		for s := 8; s > 1; s /= 2 {
			if want.Dx()/s >= fw && want.Dy()/s >= fh {
				scale = s
				break
			}
		}
	}
	part, cut, scale, err := cutOut(f, want, scale)
	if err != nil {
		return Part{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	shown := image.Rect(cut.Min.X*scale, cut.Min.Y*scale, min(cut.Max.X*scale, uw), min(cut.Max.Y*scale, uh))
	fw, fh = fitSize(cut.Dx(), cut.Dy(), l)
	if fw != cut.Dx() || fh != cut.Dy() {
		part = resize(part, fw, fh)
	}
	stats := lumaStats(part)
	out, err := encodeWithin(part, l.MaxBytes)
	if err != nil {
		return Part{}, err
	}
	if err := jpegfix.Check(out.JPEG); err != nil {
		return Part{}, fmt.Errorf("camera: the cut part is not a strict JPEG: %w", err)
	}
	out.SourceWidth, out.SourceHeight, out.Luma = full.X, full.Y, &stats
	wholeW, _ := fitSize(uw, uh, l)
	if r.horiz == 0 && r.vert == 0 {
		// A box is said as shown: widened to a usable size, it is not the
		// sliver that was asked for.
		fw, fh := float64(uw), float64(uh)
		r = Region{X: float64(shown.Min.X) / fw, Y: float64(shown.Min.Y) / fh, Width: float64(shown.Dx()) / fw, Height: float64(shown.Dy()) / fh}
	}
	return Part{
		Fitted: out, Region: r, Shown: shown,
		Closer: (float64(out.Width) / float64(shown.Dx())) / (float64(wholeW) / float64(uw)),
	}, nil
}

// cutOut decodes the part want (upright pixels) of a frame whose Exif
// orientation is o at 1/scale, its corner moved onto the chroma grid (4 by
// 2 pixels covers every subsampling) so that the planes cut cleanly. An
// upright JPEG is cut in the decoder, which runs the inverse DCT of that
// part alone; anything else is decoded whole, turned upright and cut. It
// returns the part, where it lies at the scale decoded, and that scale.
func cutOut(f frame, want image.Rectangle, scale int) (image.Image, image.Rectangle, int, error) {
	o := f.info.Orientation
	at := func(scale int) image.Rectangle {
		return image.Rect(want.Min.X/scale/4*4, want.Min.Y/scale/2*2, ceilDiv(want.Max.X, scale), ceilDiv(want.Max.Y, scale))
	}
	if o <= 1 && f.isJPEG() {
		cut := at(scale)
		full := image.Rect(cut.Min.X*scale, cut.Min.Y*scale, cut.Max.X*scale, cut.Max.Y*scale)
		if part, err := jpegscale.DecodeRegion(f.body, scale, full); err == nil {
			return part, part.Bounds(), scale, nil
		}
	}
	img, scale, err := decodeScaled(f, scale)
	if err != nil {
		return nil, image.Rectangle{}, 0, err
	}
	img = upright(img, o)
	cut := at(scale).Intersect(img.Bounds())
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok || cut.Empty() {
		return nil, image.Rectangle{}, 0, fmt.Errorf("the part cannot be cut from a %T", img)
	}
	return sub.SubImage(cut), cut, scale, nil
}

// size is the stored size of a frame's pixels, as its header says,
// refused when it claims more than any camera sends.
func (f frame) size() (image.Point, error) {
	if f.isJPEG() {
		return image.Pt(f.info.Width, f.info.Height), checkFrameSize(f.info.Width, f.info.Height)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(f.body))
	if err != nil {
		return image.Point{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return image.Pt(cfg.Width, cfg.Height), checkFrameSize(cfg.Width, cfg.Height)
}

// decodeScaled decodes a frame at 1/scale of its size in the DCT domain
// when jpegscale can, else at full size with the standard decoders; it
// returns the scale it decoded at.
func decodeScaled(f frame, scale int) (image.Image, int, error) {
	if f.isJPEG() {
		if img, err := jpegscale.Decode(f.body, scale); err == nil {
			return img, scale, nil
		}
		img, err := jpeg.Decode(bytes.NewReader(f.body))
		return img, 1, err
	}
	img, _, err := image.Decode(bytes.NewReader(f.body))
	return img, 1, err
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
