package camera

import (
	"context"
	"image"

	"maison/camera/picture"
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
// part of the whole picture that decodes. The full-resolution frame is
// fetched and repaired once for every closer look at the camera at the
// same time, and held against the memory budget for pictures.
func (s *Service) closer(ctx context.Context, cam Camera, r Region) (Snapshot, error) {
	full, done, err := s.fullFrame(ctx, cam.EntityID)
	if err != nil {
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	defer done()
	// No more parts decoded at once than there are processors to decode
	// them; a slot is not held while waiting on the camera.
	if err := s.takeSlot(ctx); err != nil {
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	defer func() { <-s.crops }()
	err = full.err
	if err == nil {
		var part Part
		if part, err = s.crop(ctx, full.f, r); err == nil {
			return s.closerPart(cam, full, part), nil
		}
	}
	if full.again {
		// As for the whole picture: cameras often send a whole frame the
		// next time; if not, the part of the whole picture that decodes.
		if full.ferr == nil && len(full.tries) == 1 {
			// The second frame is not a damaged frame but no picture at
			// all: one damaged frame came, as when fetching it failed.
			s.log.Warn("the camera frame fetched again is not usable", "camera", cam.EntityID, "err", err)
		}
		return s.closerDamaged(ctx, cam, full.tries, len(full.tries) == 1)
	}
	s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
	return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
}

// closerPart is the snapshot of a part cut from a frame, without words.
func (s *Service) closerPart(cam Camera, full *fullFrame, part Part) Snapshot {
	snap := Snapshot{Camera: cam, Image: part.Fitted, Fetched: full.img.Fetched, FetchedBytes: full.size, Part: &part}
	if full.rep.Defects() > 0 {
		snap.Repairs = full.rep.Sentences()
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
func (s *Service) closerDamaged(ctx context.Context, cam Camera, tries []try, once bool) (Snapshot, error) {
	img, f, d, err := s.salvageTries(ctx, cam.EntityID, tries, once)
	var fit picture.Fitted
	if err == nil {
		fit, err = f.Fit(ctx, s.limits)
	}
	if err != nil {
		s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	s.encoded(fit)
	s.log.Warn("camera frame damaged; showing the part of the whole picture that decodes instead of a closer look", "camera", cam.EntityID, "shown", d.Shown, "reason", d.Reason)
	return Snapshot{Camera: cam, Image: fit, Fetched: img.Fetched, FetchedBytes: len(img.Bytes), Repairs: []string{d.report()}, Damage: d}, nil
}

// Part is a part of a frame, fitted.
type Part struct {
	picture.Fitted
	// Region is the part as named, or for a box, the box as shown.
	Region Region
	// Shown is the part in the upright full frame's pixels, as cut: the
	// region, widened to a few pixels' alignment and to a usable size.
	Shown image.Rectangle
	// Closer is how much larger the part appears than in the whole
	// frame's fit: 1 when the camera has no finer detail to give.
	Closer float64
}

// crop cuts region r out of a repaired frame, as the person sees it
// (upright), and fits it to the service's limits.
func (s *Service) crop(ctx context.Context, f picture.Frame, r Region) (Part, error) {
	up, err := f.Upright()
	if err != nil {
		return Part{}, err
	}
	c, err := f.Crop(ctx, r.Pixels(up.X, up.Y), s.limits)
	if err != nil {
		return Part{}, err
	}
	s.encoded(c.Fitted)
	if r.horiz == 0 && r.vert == 0 {
		// A box is said as shown: widened to a usable size, it is not the
		// sliver that was asked for.
		fw, fh := float64(up.X), float64(up.Y)
		r = Region{X: float64(c.Shown.Min.X) / fw, Y: float64(c.Shown.Min.Y) / fh, Width: float64(c.Shown.Dx()) / fw, Height: float64(c.Shown.Dy()) / fh}
	}
	return Part{Fitted: c.Fitted, Region: r, Shown: c.Shown, Closer: c.Closer}, nil
}
