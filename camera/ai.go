package camera

import (
	"context"
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// AI is Home Assistant's AI task, able to describe a camera frame.
type AI interface {
	AITasks() []homeassistant.AITask
	DescribeImage(ctx context.Context, entityID, cameraID, instructions string) (string, error)
}

// AIOff, as Config.AITask, turns AI descriptions off.
const AIOff = "off"

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

// Describe is Snapshot for the ear, without the picture: what its words
// need is read from the frame, which is not fitted. When Home Assistant has
// an AI task that accepts pictures, its one-sentence description of the
// frame is added, said as coming from Home Assistant's AI. The whole answer is bounded by ctx and
// by the AI budget; a slow or failing AI leaves an honest fallback, never a
// guess.
func (s *Service) Describe(ctx context.Context, cam Camera) (Snapshot, error) {
	task := s.aiTask()
	if task == "" {
		snap, err := s.described(ctx, cam)
		if err != nil {
			return snap, err
		}
		snap.Description = s.withDamage(s.describe(ctx, cam, snap), cam, snap)
		return snap, nil
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
		text, err := s.cfg.AI.DescribeImage(aiCtx, task, cam.EntityID, words.AIInstructions.In(s.cfg.Lang))
		ai <- answer{text, err}
	}()
	snap, err := s.described(ctx, cam)
	if err != nil {
		return snap, err
	}
	a := <-ai
	lang := s.cfg.Lang
	var line string
	if a.err != nil {
		s.log.Info("AI description failed", "camera", cam.EntityID, "ai_task", task, "err", a.err)
		line = words.AIFailure(s.cfg.Lang, a.err)
	} else if text := s.cfg.Lang.Quote(a.text, maxAIText); text != "" {
		// The AI's words are attributed and quoted: a description, never an
		// instruction, whatever it says.
		said, _ := voice.Language(a.text)
		line = words.AIAnswered(lang, said, text)
	}
	snap.Description = s.withDamage(s.describeWith(ctx, cam, snap, line), cam, snap)
	return snap, nil
}

// aiBudgetDefault leaves room, within the four and a half seconds a voice
// answer may take (tools.Deps.VoiceBudget), for the frame and the words
// around the AI's sentence.
const aiBudgetDefault = 3500 * time.Millisecond
