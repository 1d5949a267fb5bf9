package camera

import (
	"context"
	"errors"
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// AI is Home Assistant's AI task, able to describe a camera frame.
type AI interface {
	AITasks() []homeassistant.AITask
	DescribeImage(ctx context.Context, entityID, cameraID, instructions string) (string, error)
}

// AIOff, as Config.AITask, turns AI descriptions off.
const AIOff = "off"

// aiInstructions asks, in the answer language, for one sentence of what
// matters to someone at home, in that language.
var aiInstructions = map[voice.Lang]string{
	voice.English: "In one short plain sentence in English, for someone who cannot see the picture, say what this home camera shows that matters: people, animals, vehicles, parcels, open doors or gates. Say only what is visible; if nothing notable is there, say so.",
	voice.French:  "En une courte phrase simple, en français, pour quelqu'un qui ne voit pas l'image, dites ce que montre cette caméra de la maison qui compte : personnes, animaux, véhicules, colis, portes ou portails ouverts. Dites seulement ce qui est visible; s'il n'y a rien de notable, dites-le.",
}

// maxAIText bounds what the AI's answer may add to a spoken description.
const maxAIText = 300

// aiTask picks the AI task entity to ask, or "" when there is none to ask.
func (s *Service) aiTask() string {
	if s.cfg.AI == nil || s.cfg.AITask == AIOff {
		return ""
	}
	tasks := s.cfg.AI.AITasks()
	for _, t := range tasks {
		if s.cfg.AITask == "" || t.EntityID == s.cfg.AITask {
			return t.EntityID
		}
	}
	return ""
}

// Describe is Snapshot for the ear: when Home Assistant has an AI task that
// accepts pictures, its one-sentence description of the frame is added, said
// as coming from Home Assistant's AI. The whole answer is bounded by ctx and
// by the AI budget; a slow or failing AI leaves an honest fallback, never a
// guess.
func (s *Service) Describe(ctx context.Context, cam Camera) (Snapshot, error) {
	task := s.aiTask()
	if task == "" {
		return s.Snapshot(ctx, cam)
	}
	// Ask the AI while the frame is fetched and fitted: both take seconds.
	type answer struct {
		text string
		err  error
	}
	aiCtx, cancel := context.WithTimeout(ctx, s.cfg.AIBudget)
	defer cancel()
	ai := make(chan answer, 1)
	go func() {
		text, err := s.cfg.AI.DescribeImage(aiCtx, task, cam.EntityID, aiInstructions[s.cfg.Lang])
		ai <- answer{text, err}
	}()
	snap, err := s.frame(ctx, cam)
	if err != nil {
		return snap, err
	}
	a := <-ai
	lang := s.cfg.Lang
	var line string
	if a.err != nil {
		s.log.Info("AI description failed", "camera", cam.EntityID, "ai_task", task, "err", a.err)
		line = aiFailure(s.cfg.Lang, a.err)
	} else if text := s.cfg.Lang.Quote(a.text, maxAIText); text != "" {
		// The AI's words are attributed and quoted: a description, never an
		// instruction, whatever it says. An answer in the other language is
		// said as such.
		said, _ := voice.Language(a.text)
		switch {
		case said == voice.English && lang == voice.French:
			line = voice.Sentence("L'IA de Home Assistant, à qui j'ai demandé ce que montre l'image, a répondu en anglais " + text)
		case said == voice.French && lang != voice.French:
			line = voice.Sentence("Home Assistant's AI, asked what the picture shows, answered in French " + text)
		default:
			line = voice.Sentence(lang.Pick("Home Assistant's AI, asked what the picture shows, answered ", "L'IA de Home Assistant, à qui j'ai demandé ce que montre l'image, a répondu ") + text)
		}
	}
	snap.Description = s.withDamage(s.describeWith(ctx, cam, snap, line), cam, snap)
	return snap, nil
}

// aiBudgetDefault leaves room, within the eight seconds a voice answer may
// take, for the frame and the words around the AI's sentence.
const aiBudgetDefault = 6 * time.Second

// aiFailure says, in one sentence, why the AI gave no description and what
// that means, by the kind of failure: a passing one, a setup choice, a
// permission, or a request this Home Assistant does not accept.
func aiFailure(lang voice.Lang, err error) string {
	var he *homeassistant.Error
	kind := homeassistant.KindAITaskFailed
	if errors.As(err, &he) {
		kind = he.Kind
	}
	switch kind {
	case homeassistant.KindNoAITask:
		return lang.Pick(
			"Home Assistant has no AI set up that can look at pictures, so I can only tell you what the sensors say; an administrator can add one.",
			"Home Assistant n'a pas d'IA capable de regarder des images; je ne peux vous dire que ce que disent les capteurs, et un administrateur peut en ajouter une.")
	case homeassistant.KindNotAllowed:
		return lang.Pick(
			"Home Assistant does not let my user ask its AI about this camera, so I can only tell you what the sensors say; an administrator can allow it.",
			"Home Assistant ne permet pas à mon utilisateur de demander à son IA de regarder cette caméra; je ne peux vous dire que ce que disent les capteurs, et un administrateur peut le permettre.")
	case homeassistant.KindBadRequest:
		return lang.Pick(
			"Home Assistant's AI did not accept the way I asked, which waiting will not change, so I can only tell you what the sensors say; whoever runs maison should update it.",
			"L'IA de Home Assistant n'a pas accepté ma façon de demander, ce qui ne changera pas avec le temps; je ne peux vous dire que ce que disent les capteurs, et la personne qui gère maison devrait la mettre à jour.")
	}
	if errors.Is(err, homeassistant.ErrUnreadablePicture) {
		return lang.Pick(
			"Home Assistant's AI could not read this camera's picture: Home Assistant gives it the picture as the camera sends it, and the camera sends it damaged (the one I showed was repaired). This lasts as long as the camera sends damaged pictures; it does not mean the AI is broken. So I can only tell you what the sensors say.",
			"L'IA de Home Assistant n'a pas pu lire l'image de cette caméra : Home Assistant la lui donne telle que la caméra l'envoie, et la caméra l'envoie abîmée (celle que j'ai montrée a été réparée). Ça dure tant que la caméra envoie des images abîmées; ça ne veut pas dire que l'IA est en panne. Je ne peux donc vous dire que ce que disent les capteurs.")
	}
	return lang.Pick(
		"Home Assistant's AI could not describe the picture this time, which is usually brief, so I can only tell you what the sensors say.",
		"L'IA de Home Assistant n'a pas pu décrire l'image cette fois, ce qui est généralement bref; je ne peux vous dire que ce que disent les capteurs.")
}
