package camera

import (
	"context"
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

// aiInstructions asks for one sentence of what matters to someone at home.
const aiInstructions = "In one short plain sentence for someone who cannot see the picture, say what this home camera shows that matters: people, animals, vehicles, parcels, open doors or gates. Say only what is visible; if nothing notable is there, say so."

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
		text, err := s.cfg.AI.DescribeImage(aiCtx, task, cam.EntityID, aiInstructions)
		ai <- answer{text, err}
	}()
	snap, err := s.frame(ctx, cam)
	if err != nil {
		return snap, err
	}
	a := <-ai
	fr := s.cfg.Lang == voice.French
	var line string
	if a.err != nil {
		s.log.Info("AI description failed", "camera", cam.EntityID, "ai_task", task, "err", a.err)
		line = pick(fr,
			"Home Assistant's AI could not describe the picture this time, so I can only tell you what the sensors say.",
			"L'IA de Home Assistant n'a pas pu décrire l'image cette fois; je ne peux vous dire que ce que disent les capteurs.")
	} else if text := voice.Clean(a.text, maxAIText); text != "" {
		line = voice.Sentence(pick(fr, "Home Assistant's AI describes the picture this way: ", "L'IA de Home Assistant décrit l'image ainsi : ") + text)
	}
	snap.Description = s.withDamage(s.describeWith(ctx, cam, snap, line), cam, snap)
	return snap, nil
}

// aiBudgetDefault leaves room, within the eight seconds a voice answer may
// take, for the frame and the words around the AI's sentence.
const aiBudgetDefault = 6 * time.Second
