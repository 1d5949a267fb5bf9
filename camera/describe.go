package camera

import (
	"context"
	"math"
	"strings"

	"maison/voice"
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
	name := cam.Say(lang)
	var out []string
	if cam.Area != "" {
		out = append(out, voice.Sentence(lang.Pick("This is "+name+", in the "+words.Quote(lang, cam.Area), "Voici "+name+", dans la pièce "+words.Quote(lang, cam.Area))))
	} else {
		out = append(out, voice.Sentence(lang.Pick("This is "+name, "Voici "+name)))
	}
	if snap.Part != nil {
		out = append(out, snap.Part.say(lang))
	}
	age := s.cfg.Now().Sub(snap.Fetched)
	out = append(out, voice.Sentence(lang.Pick("The picture was taken "+lang.Ago(age), "L'image a été prise "+lang.Ago(age))))
	switch cam.State {
	case "recording":
		out = append(out, lang.Pick("It is recording.", "Elle enregistre."))
	case "streaming":
		out = append(out, lang.Pick("It is streaming live.", "Elle diffuse en direct."))
	case "idle":
		out = append(out, lang.Pick("It is idle, not recording.", "Elle est en veille, elle n'enregistre pas."))
	case "unavailable", "unknown":
		out = append(out, lang.Pick("Home Assistant says it is unavailable, so this picture may be old.", "Home Assistant la dit indisponible, cette image est peut-être ancienne."))
	}
	if !snap.SameSince.IsZero() {
		d := lang.Duration(s.cfg.Now().Sub(snap.SameSince))
		out = append(out, voice.Sentence(lang.Pick(
			"The camera has been sending exactly the same picture for "+d+", so it may be frozen and what it shows may be old",
			"La caméra envoie exactement la même image depuis "+d+", elle est peut-être figée et ce qu'elle montre peut être ancien")))
	}
	if st := snap.Image.Luma; st != nil {
		switch {
		case st.StdDev < 4:
			out = append(out, lang.Pick(
				"The picture is almost completely uniform, which usually means a covered lens or a camera fault.",
				"L'image est presque uniforme, ce qui veut souvent dire un objectif couvert ou une panne de la caméra."))
		case st.Mean < 30:
			out = append(out, lang.Pick("The picture is very dark; there may be too little light to see much.", "L'image est très sombre; il y a peut-être trop peu de lumière pour voir grand-chose."))
		}
	}
	out = append(out, s.related(ctx, cam)...)
	if ai != "" {
		return voice.Paragraph(append(out, ai)...)
	}
	if s.aiTask() != "" {
		// A voice conversation drops the picture: say where its description is.
		out = append(out, lang.Pick(
			"These facts come from Home Assistant's sensors; I have not looked at what the picture shows, and asking me to describe this camera puts it in words.",
			"Ces faits viennent des capteurs de Home Assistant; je n'ai pas regardé ce que montre l'image, et me demander de décrire cette caméra la met en mots."))
		return voice.Paragraph(out...)
	}
	out = append(out, lang.Pick(
		"These facts come from Home Assistant's sensors; I have not looked at what the picture shows.",
		"Ces faits viennent des capteurs de Home Assistant; je n'ai pas regardé ce que montre l'image."))
	return voice.Paragraph(out...)
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

// say tells which part of the picture is shown and how much closer it is.
func (p *Part) say(lang voice.Lang) string {
	what := p.Region.Say(lang)
	times := math.Round(p.Closer*2) / 2 // to the half
	if times < 1.5 {
		return voice.Sentence(lang.Pick(
			"It shows "+what+"; the camera has no finer detail than the whole picture already showed, so this part is larger, not sharper",
			"Elle montre "+what+"; la caméra n'a pas plus de détails que l'image entière n'en montrait, cette partie est donc plus grande, pas plus nette"))
	}
	n := lang.Decimal(times, 1)
	if times == math.Trunc(times) {
		n = lang.Number(int(times))
	}
	en := "It shows " + what + ", " + n + " times closer than the whole picture"
	frText := "Elle montre " + what + ", " + n + " fois plus près que l'image entière"
	if p.Width >= p.Shown.Dx() {
		en += ", with every pixel the camera sent"
		frText += ", avec chaque pixel envoyé par la caméra"
	}
	return voice.Sentence(lang.Pick(en, frText))
}
