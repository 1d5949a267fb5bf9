package camera

import (
	"context"
	"time"

	"maison/camera/picture"
	"maison/homeassistant"
	"maison/jpegfix"
)

// fullFrame is a camera's full-resolution frame, fetched and repaired once
// for every closer look asking for it at the same time (fetched once more
// when the camera sent it damaged, as for the whole picture).
type fullFrame struct {
	img   homeassistant.Image // the frame used; its Bytes dropped once repaired
	size  int                 // bytes the camera sent
	f     picture.Frame       // repaired, when err is nil
	rep   jpegfix.Report
	err   error // the repair's refusal of the frame used
	tries []try // frames jpegfix refused, kept for their salvage
	again bool  // the first frame was refused, and fetched once more
	ferr  error // fetching it once more failed
}

// held is the bytes f holds: the repaired frame and the refused ones.
func (f *fullFrame) held() int64 {
	n := f.f.Held() + int64(len(f.img.Bytes))
	for _, t := range f.tries {
		if len(t.img.Bytes) > 0 && (len(f.img.Bytes) == 0 || &t.img.Bytes[0] != &f.img.Bytes[0]) {
			n += int64(len(t.img.Bytes))
		}
	}
	return n
}

// fullCall is one fetch and repair of a camera's full frame, shared by the
// closer looks that ask for it while it runs or while it is used and
// fresh. Its bytes are held against the pictures' memory budget until the
// last of them is done with it.
type fullCall struct {
	done    chan struct{}
	at      time.Time // when it was fetched, on the service's clock
	v       fullFrame
	err     error
	users   int // the work itself and every caller given it; guarded by Service.fullMu
	release func()
	// deadline is the time the work was given, its first caller's;
	// outOfTime says it failed because that time ran out.
	deadline  time.Time
	outOfTime bool
}

// fullFrame returns cam's full-resolution frame, fetched and repaired now
// or by a closer look that asked at the same time, and the function to
// call once done with it. However many ask at once, a camera's frame is
// held once, and counted against the memory budget for pictures.
func (s *Service) fullFrame(ctx context.Context, id string) (*fullFrame, func(), error) {
	for {
		c := s.joinFull(ctx, id)
		done := func() { s.putFull(id, c) }
		select {
		case <-c.done:
		case <-ctx.Done():
			done()
			return nil, nil, ctx.Err()
		}
		if c.err != nil {
			done()
			if c.outOfTime && ctx.Err() == nil && c.shortOf(ctx) {
				continue // its first caller's time ran out, not this one's: fetched again, within this one's
			}
			return nil, nil, c.err
		}
		return &c.v, done, nil
	}
}

// joinFull is the fetch of id's full frame a caller shares: one running or
// fresh, or one started now with the caller's deadline.
func (s *Service) joinFull(ctx context.Context, id string) *fullCall {
	s.fullMu.Lock()
	defer s.fullMu.Unlock()
	c := s.fulls[id]
	if c != nil && !c.joinable(s.cfg.Now(), s.cfg.MaxAge) {
		c = nil
	}
	if c == nil {
		c = &fullCall{done: make(chan struct{}), users: 1}
		s.fulls[id] = c
		work := context.WithoutCancel(ctx)
		cancel := context.CancelFunc(func() {})
		if dl, ok := ctx.Deadline(); ok {
			work, cancel = context.WithDeadline(work, dl)
			c.deadline = dl
		}
		go func() {
			defer cancel()
			c.v, c.err = s.fetchFull(work, id)
			c.at = s.cfg.Now()
			if c.err == nil {
				c.release, c.err = s.cfg.Memory.Hold(work, c.v.held())
			}
			if c.err != nil {
				c.v = fullFrame{}
				c.outOfTime = work.Err() != nil
			}
			close(c.done)
			s.putFull(id, c)
		}()
	}
	c.users++
	return c
}

// shortOf reports whether c was given less time than ctx has.
func (c *fullCall) shortOf(ctx context.Context) bool {
	if c.deadline.IsZero() {
		return false
	}
	dl, ok := ctx.Deadline()
	return !ok || dl.After(c.deadline)
}

// joinable reports whether a caller asking now may share c: still being
// fetched, or fetched well and recently.
func (c *fullCall) joinable(now time.Time, maxAge time.Duration) bool {
	select {
	case <-c.done:
		return c.err == nil && now.Sub(c.at) < maxAge
	default:
		return true
	}
}

// putFull is one user done with c: the last one gives its bytes back.
func (s *Service) putFull(id string, c *fullCall) {
	s.fullMu.Lock()
	c.users--
	last := c.users == 0
	if last && s.fulls[id] == c {
		delete(s.fulls, id)
	}
	s.fullMu.Unlock()
	if last && c.release != nil {
		c.release()
	}
}

// fetchFull fetches id's full-resolution frame and repairs it; a frame
// jpegfix refuses is fetched once more, since cameras often send a whole
// frame the next time.
func (s *Service) fetchFull(ctx context.Context, id string) (fullFrame, error) {
	img, err := s.fetch(ctx, id, 0, 0)
	s.notePower(id, err)
	if err != nil {
		return fullFrame{}, err
	}
	v := fullFrame{img: img, size: len(img.Bytes)}
	v.f, v.rep, v.err = picture.Repair(img.Bytes)
	if refused(v.err) {
		s.log.Info("camera frame refused; fetching it once more", "camera", id, "err", v.err)
		v.tries = []try{{img, v.rep, v.err}}
		v.again = true
		again, ferr := s.fetch(ctx, id, 0, 0)
		v.ferr = ferr
		if ferr != nil {
			s.log.Warn("fetching the camera frame again failed", "camera", id, "err", ferr)
		} else {
			v.img, v.size = again, len(again.Bytes)
			if v.f, v.rep, v.err = picture.Repair(again.Bytes); refused(v.err) {
				v.tries = append(v.tries, try{again, v.rep, v.err})
			}
		}
	}
	if v.err == nil {
		v.img.Bytes = nil // only the repaired frame is cut from
	}
	return v, nil
}
