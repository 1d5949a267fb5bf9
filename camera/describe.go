package camera

import (
	"context"
	"strings"

	"maison/words"
)

// maxRelated bounds how many nearby sensors a description mentions.
const maxRelated = 4

// describe says what is known about a frame, from facts only: never what is
// in the picture, which nothing here has looked at.
func (s *Service) describe(ctx context.Context, cam Camera, snap Snapshot) string {
	return s.describeWith(ctx, cam, snap, "")
}

// describeWith is describe with a sentence from Home Assistant's AI, or "".
func (s *Service) describeWith(ctx context.Context, cam Camera, snap Snapshot, ai string) string {
	lang := s.cfg.Lang
	d := words.Description{
		Camera: cam.Say(lang), Area: cam.Area, Age: s.cfg.Now().Sub(snap.Fetched), State: cam.State,
		Frozen: !snap.SameSince.IsZero(), AI: ai,
	}
	if snap.Part != nil {
		p := snap.Part
		d.Part = words.Part(lang, p.Region.Say(lang), p.Closer, p.Width >= p.Shown.Dx())
	}
	if d.Frozen {
		d.FrozenFor = s.cfg.Now().Sub(snap.SameSince)
	}
	if st := snap.Image.Luma; st != nil {
		d.Uniform = st.StdDev < 4
		d.Dark = !d.Uniform && st.Mean < 30
	}
	d.Nearby = s.related(ctx, cam)
	d.CanAskAI = ai == "" && s.aiTask() != ""
	return words.Describe(lang, d)
}

// related says what nearby exposed sensors report: doors, motion, presence, locks.
func (s *Service) related(ctx context.Context, cam Camera) []string {
	if s.cfg.Exposed == nil || cam.Area == "" {
		return nil
	}
	exposed, err := s.cfg.Exposed(ctx)
	if err != nil {
		s.log.Debug("no related sensors", "camera", cam.EntityID, "err", err)
		return nil
	}
	var out []string
	for _, e := range exposed {
		if len(out) == maxRelated {
			break
		}
		if e.ID == "" || !strings.EqualFold(e.Area, cam.Area) || e.Domain == "camera" {
			continue
		}
		if line := words.State(s.cfg.Lang, e, s.cfg.Now()); line != "" {
			out = append(out, line)
		}
	}
	return out
}
