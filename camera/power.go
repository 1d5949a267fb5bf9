package camera

import (
	"context"
	"errors"
	"sync"
	"time"

	"maison/homeassistant"
)

// power is whether a camera answered with a frame or as turned off, and when.
type power struct {
	off bool
	at  time.Time
}

const (
	// powerFresh is how long a camera's last answer says whether it is on.
	powerFresh = 5 * time.Minute
	// probeBudgetDefault bounds how long a listing waits to learn which
	// cameras are off (Config.ProbeBudget).
	probeBudgetDefault = 1500 * time.Millisecond
)

// prepareNoting is prepare, remembering whether the camera was on.
func (s *Service) prepareNoting(ctx context.Context, id string) (prepared, error) {
	p, err := s.prepare(ctx, id)
	s.notePower(id, err)
	return p, err
}

// notePower remembers a fetch's outcome: a frame means on, a 503 means off;
// other failures say nothing either way.
func (s *Service) notePower(id string, err error) {
	off := errors.Is(err, homeassistant.KindCameraOff)
	if err != nil && !off {
		return
	}
	s.mu.Lock()
	s.power[id] = power{off: off, at: s.cfg.Now()}
	s.mu.Unlock()
}

func (s *Service) isOff(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.power[id]
	return ok && p.off && s.cfg.Now().Sub(p.at) < powerFresh
}

// probe asks each camera whose power is not fresh for a small frame, all at
// once and within Config.ProbeBudget: Home Assistant refuses a camera that
// is off before fetching anything.
func (s *Service) probe(ctx context.Context, cams []Camera) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.ProbeBudget)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range cams {
		s.mu.Lock()
		p, ok := s.power[c.EntityID]
		s.mu.Unlock()
		if (ok && s.cfg.Now().Sub(p.at) < powerFresh) || c.State == "unavailable" {
			continue
		}
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			_, err := s.cfg.Source.CameraImage(ctx, id, 64, 36)
			s.notePower(id, err)
		}(c.EntityID)
	}
	wg.Wait()
}
