package camera

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"image"
	"time"

	"maison/camera/picture"
	"maison/homeassistant"
	"maison/jpegfix"
	"maison/voice"
	"maison/words"
)

// Snapshot is one camera frame, repaired and fitted, with its words.
type Snapshot struct {
	Camera
	Image        picture.Fitted
	Fetched      time.Time
	FetchedBytes int       // size of the frame as the camera sent it
	Repairs      []string  // what jpegfix repaired, one sentence each
	SameSince    time.Time // when the camera started sending this very frame, if it seems frozen
	Description  string    // spoken description, from facts only
	Part         *Part     // the part shown, when not the whole picture
	// Damage is set when the camera sent the frame damaged twice in a row
	// and only the part that decodes is shown, re-encoded; the
	// description then says which part is missing.
	Damage *Damage
}

// Snapshot fetches, repairs and fits a frame of cam and describes it.
// Concurrent snapshots of one camera share one fetch and one fit.
func (s *Service) Snapshot(ctx context.Context, cam Camera) (Snapshot, error) {
	snap, err := s.frame(ctx, cam)
	if err != nil {
		return snap, err
	}
	snap.Description = s.withDamage(s.describe(ctx, cam, snap), cam, snap)
	return snap, nil
}

// withDamage adds to a description what the camera sent damaged, when only
// part of its picture is shown.
func (s *Service) withDamage(desc string, cam Camera, snap Snapshot) string {
	if snap.Damage == nil {
		return desc
	}
	return desc + " " + snap.Damage.Say(s.cfg.Lang, cam.Say(s.cfg.Lang))
}

// frame is a snapshot without its words: the frame fitted, once for every
// caller that shares it.
func (s *Service) frame(ctx context.Context, cam Camera) (Snapshot, error) {
	snap, p, err := s.facts(ctx, cam)
	if err != nil {
		return snap, err
	}
	if snap.Image, err = p.fit(ctx); err != nil {
		s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
		return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
	}
	return snap, nil
}

// facts is a snapshot without its picture or words, from the frame
// fetched and repaired.
func (s *Service) facts(ctx context.Context, cam Camera) (Snapshot, prepared, error) {
	p, err := s.frames.Get(ctx, cam.EntityID)
	if err != nil {
		return Snapshot{Camera: cam}, p, &Error{Camera: cam, Err: err}
	}
	return Snapshot{Camera: cam, Fetched: p.fetched, FetchedBytes: p.size, Repairs: p.repairs, SameSince: p.sameSince, Damage: p.damage}, p, nil
}

// described is a snapshot with what describe_camera's words need and no
// picture: the pixel facts read from the frame's DC terms, without fitting
// it. A frame they cannot be read from (not a JPEG, or coded in a way
// jpegscale does not take) is fitted after all, since only its decoding
// tells whether it is a picture.
func (s *Service) described(ctx context.Context, cam Camera) (Snapshot, error) {
	snap, p, err := s.facts(ctx, cam)
	if err != nil {
		return snap, err
	}
	if snap.Image.Luma = p.luma(ctx); snap.Image.Luma == nil && p.damage == nil {
		fit, err := p.fit(ctx)
		if err != nil {
			s.log.Warn("camera frame refused", "camera", cam.EntityID, "err", err)
			return Snapshot{Camera: cam}, &Error{Camera: cam, Err: err}
		}
		snap.Image.Luma = fit.Luma
	}
	return snap, nil
}

// fetchTimeoutDefault is Config.FetchTimeout's default. Only the fetch is
// timed: repairing and fitting are this process's own work, and a caller
// in a hurry stops waiting anyway.
const fetchTimeoutDefault = 12 * time.Second

// prepare fetches one frame from Home Assistant and repairs it; the fit is
// made when a picture is first asked of it (see prepared.fit). A frame
// jpegfix refuses is fetched once more, since cameras often send a whole
// frame the next time; if that one is refused too, the part of either that
// decodes best is shown, when at least half of it does.
func (s *Service) prepare(ctx context.Context, id string) (prepared, error) {
	w, h := s.askSize(id)
	img, err := s.fetch(ctx, id, w, h)
	if err != nil {
		return prepared{}, err
	}
	f, rep, err := repair(img.Bytes)
	var dmg *Damage
	if refused(err) {
		s.log.Info("camera frame refused; fetching it once more", "camera", id, "err", err)
		tries := []try{{img, rep, err}}
		again, ferr := s.fetch(ctx, id, w, h)
		if ferr != nil {
			s.log.Warn("fetching the camera frame again failed", "camera", id, "err", ferr)
		} else {
			img = again
			if f, rep, err = repair(again.Bytes); refused(err) {
				tries = append(tries, try{again, rep, err})
			}
		}
		if err != nil {
			img, f, dmg, err = s.salvageTries(ctx, id, tries, len(tries) == 1)
		}
	}
	p := prepared{fetched: img.Fetched, size: len(img.Bytes), sameSince: s.sameAsBefore(id, w, img)}
	if err != nil {
		s.log.Warn("camera frame refused", "camera", id, "err", err)
		return p, err
	}
	switch {
	case dmg != nil:
		p.repairs = []string{dmg.report()}
		s.log.Warn("camera frame damaged twice; showing the part that decodes", "camera", id, "shown", dmg.Shown, "reason", dmg.Reason)
	case rep.Defects() > 0:
		p.repairs = rep.Sentences()
		s.log.Info("camera frame repaired", "camera", id, "defects", rep.Defects(), "in_bytes", rep.InBytes, "out_bytes", rep.OutBytes)
	}
	p.frame, p.damage = f, dmg
	fits, lumas := newOnce[picture.Fitted](), newOnce[*picture.Stats]()
	p.fit = func(ctx context.Context) (picture.Fitted, error) {
		return fits.get(ctx, func(ctx context.Context) (picture.Fitted, error) {
			fit, err := f.Fit(ctx, s.limits)
			if err == nil {
				s.encoded(fit)
			}
			return fit, err
		})
	}
	p.luma = func(ctx context.Context) *picture.Stats {
		st, _ := lumas.get(ctx, func(ctx context.Context) (*picture.Stats, error) {
			st := f.Luma(ctx, s.limits)
			if st == nil && ctx.Err() != nil {
				return nil, picture.ErrBusy // not kept: the next caller reads it
			}
			return st, nil
		})
		return st
	}
	if w == 0 {
		size, _ := f.Size()
		s.noteSize(id, size.X, size.Y)
	}
	return p, nil
}

// repair is picture.Repair, refusing too what its header already says is
// no picture or more pixels than any camera sends.
func repair(raw []byte) (picture.Frame, jpegfix.Report, error) {
	f, rep, err := picture.Repair(raw)
	if err == nil {
		_, err = f.Size()
	}
	return f, rep, err
}

// noteSize keeps a camera's full frame size, to ask Home Assistant for
// frames scaled to what the fit needs.
func (s *Service) noteSize(id string, w, h int) {
	s.mu.Lock()
	s.sizes[id] = image.Pt(w, h)
	s.mu.Unlock()
}

// fetch gets one frame from Home Assistant, scaled to w×h when not zero.
// Home Assistant's failure answered long before its own wait for the
// camera could end is the camera giving it no picture (errNoPicture).
func (s *Service) fetch(ctx context.Context, id string, w, h int) (homeassistant.Image, error) {
	fetchCtx, cancel := context.WithTimeout(ctx, s.cfg.FetchTimeout)
	defer cancel()
	start := time.Now()
	img, err := s.cfg.Source.CameraImage(fetchCtx, id, w, h)
	var he *homeassistant.Error
	switch {
	case errors.Is(err, homeassistant.KindTimeout) && ctx.Err() == nil && s.cfg.FetchTimeout > homeassistant.CameraLimit:
		// Home Assistant says by itself, within CameraLimit, that a camera
		// failed: nothing at all for longer is Home Assistant's silence.
		err = fmt.Errorf("%w: %w", ErrHomeAssistantSilent, err)
	case errors.As(err, &he) && he.Kind == homeassistant.KindCameraFailed && he.Status == 500 && time.Since(start) < homeassistant.CameraLimit/2:
		err = fmt.Errorf("%w: %w", errNoPicture, err)
	}
	return img, err
}

// ErrHomeAssistantSilent is a picture Home Assistant did not answer for at
// all, not even to say the camera failed: Home Assistant is slow or stuck,
// not the camera, and it is said as Home Assistant's trouble.
var ErrHomeAssistantSilent = errors.New("camera: Home Assistant did not answer, not even that the camera failed")

// errNoPicture is Home Assistant answering at once that it could not get a
// picture: the camera gave it none (for a file camera, the file is
// missing or empty), which is not a slow moment.
var errNoPicture = errors.New("camera: Home Assistant answered at once that the camera gave it no picture")

// try is a frame jpegfix refused, with why.
type try struct {
	img homeassistant.Image
	rep jpegfix.Report // what the refused repair read before refusing
	err error
}

// refused reports whether err is jpegfix refusing a frame.
func refused(err error) bool {
	var fe jpegfix.FormatError
	return errors.As(err, &fe)
}

// salvageTries is salvage, told whether one damaged frame came, not two:
// fetching the frame again failed, or brought no picture.
func (s *Service) salvageTries(ctx context.Context, id string, tries []try, once bool) (homeassistant.Image, picture.Frame, *Damage, error) {
	img, f, pd, err := s.salvage(ctx, id, tries)
	d := Damage{Damage: pd}
	if once {
		d.Once = true
		if errors.Is(err, picture.ErrTooDamaged) {
			err = fmt.Errorf("%w: %w", errRefetchFailed, err)
		}
	}
	return img, f, &d, err
}

// salvage shows the part of a refused frame that decodes: of the frames
// tried whose damage jpegfix found in the image data (headers sound), the
// one showing most (the later one when they tie). When none shows enough,
// the error is the last frame's, marked too damaged when its data was.
func (s *Service) salvage(ctx context.Context, id string, tries []try) (homeassistant.Image, picture.Frame, picture.Damage, error) {
	var (
		best     homeassistant.Image
		bestFit  picture.Frame
		bestDmg  picture.Damage
		found    bool
		tooSmall bool
	)
	for _, t := range tries {
		var fe jpegfix.FormatError
		if !errors.As(t.err, &fe) || !fe.InData {
			tooSmall = false
			continue // not a picture, or headers that lie: nothing to trust
		}
		fit, d, err := picture.Salvage(ctx, t.img.Bytes, t.rep, s.limits, t.err)
		if err != nil {
			s.log.Info("no part of the refused camera frame to show", "camera", id, "err", err)
			tooSmall = errors.Is(err, picture.ErrTooDamaged)
			continue
		}
		if !found || d.Shown >= bestDmg.Shown {
			best, bestFit, bestDmg, found = t.img, fit, d, true
		}
	}
	last := tries[len(tries)-1]
	if found {
		return best, bestFit, bestDmg, nil
	}
	if tooSmall {
		return last.img, picture.Frame{}, picture.Damage{}, fmt.Errorf("%w: %w", picture.ErrTooDamaged, last.err)
	}
	return last.img, picture.Frame{}, picture.Damage{}, last.err
}

// frozenAfter is how long a camera must keep sending the very same bytes
// before the description says so: live cameras never repeat a frame byte
// for byte (sensor noise, the clock in the overlay).
const frozenAfter = 2 * time.Minute

// sameAsBefore remembers this frame and returns since when the camera has
// been sending exactly these bytes, if for longer than frozenAfter.
func (s *Service) sameAsBefore(id string, scaledTo int, img homeassistant.Image) time.Time {
	sum := maphash.Bytes(s.seed, img.Bytes)
	key := fmt.Sprintf("%s@%d", id, scaledTo)
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.seen[key]
	if !ok || prev.sum != sum {
		s.seen[key] = seenFrame{sum: sum, first: now}
		return time.Time{}
	}
	if now.Sub(prev.first) < frozenAfter {
		return time.Time{}
	}
	return prev.first
}

// askSize is the size to ask Home Assistant for: the fitted size when the
// camera is known to be at least twice as large, else 0, 0 for the full frame.
func (s *Service) askSize(id string) (int, int) {
	if s.cfg.FullFrames {
		return 0, 0
	}
	s.mu.Lock()
	full, ok := s.sizes[id]
	s.mu.Unlock()
	if !ok {
		return 0, 0
	}
	w, h := picture.FitSize(full.X, full.Y, s.limits)
	if full.X < 2*w || full.Y < 2*h {
		return 0, 0
	}
	return w, h
}

// unusableWords are the words of each setting that makes a camera's
// frames unusable.
var unusableWords = map[picture.Unusable]words.CameraTrouble{
	picture.UnusableTwelveBit:    words.CameraTwelveBit,
	picture.UnusableArithmetic:   words.CameraArithmetic,
	picture.UnusableLossless:     words.CameraLossless,
	picture.UnusableHierarchical: words.CameraHierarchical,
	picture.UnusableNoHeight:     words.CameraNoHeight,
	picture.UnusableTooLarge:     words.CameraTooManyPixels,
	picture.UnusableMemory:       words.CameraTooLargeForMemory,
	picture.UnusableMemoryWhole:  words.CameraTooLargeForMemoryWhole,
}

// Error is a camera that could not be shown, with words for the ear.
type Error struct {
	Camera Camera
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("camera %s: %v", e.Camera.EntityID, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Say tells a person why the camera cannot be shown, how long that usually
// lasts, what it does not mean and what to do instead. It is "" when the
// trouble is Home Assistant's own (unreachable, restarting, a refused key)
// rather than this camera's: the caller says that as Home Assistant's.
func (e *Error) Say(lang voice.Lang) string {
	var he *homeassistant.Error
	kind := homeassistant.Kind(-1)
	if errors.As(e.Err, &he) {
		kind = he.Kind
	}
	t := words.CameraUnknown
	switch {
	case errors.Is(e.Err, ErrHomeAssistantSilent):
		return "" // Home Assistant's own slowness: the tools say it
	case kind == homeassistant.KindCameraOff:
		t = words.CameraOff
	case errors.Is(e.Err, picture.ErrBusy):
		t = words.CameraBusy // waited for memory other pictures held
	case picture.Unusability(e.Err) != 0:
		t = unusableWords[picture.Unusability(e.Err)]
	case he == nil && errors.Is(e.Err, context.DeadlineExceeded):
		t = words.CameraNotReady // our own deadline passed, not Home Assistant's
	case errors.Is(e.Err, homeassistant.ErrEmptyImage):
		t = words.CameraEmpty
	case errors.Is(e.Err, homeassistant.ErrImageTooLarge):
		t = words.CameraTooLarge
	case kind == homeassistant.KindCameraFailed && e.Camera.State == "unavailable":
		// Home Assistant answers 500 for a camera whose device it has lost
		// (measured on 2026.11): not a slow moment, an absence.
		t = words.CameraLost
	case errors.Is(e.Err, errNoPicture):
		t = words.CameraNoPicture
	case kind == homeassistant.KindCameraFailed || kind == homeassistant.KindTimeout:
		t = words.CameraSlow
	case kind == homeassistant.KindNotFound:
		t = words.CameraGone
	case errors.Is(e.Err, errRefetchFailed):
		t = words.CameraRefetchFailed
	case errors.Is(e.Err, picture.ErrTooDamaged):
		t = words.CameraTooDamaged
	case errors.Is(e.Err, picture.ErrNotImage):
		t = words.CameraNotPicture
	case he != nil:
		return "" // Home Assistant's own trouble, not the camera's: the tools say it
	}
	return words.CameraError(lang, e.Camera.Say(lang), t)
}
