package tools_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/demo"
	"maison/homeassistant"
	"maison/voice"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenClock is the demo house's clock and maison's, so every "ago" is fixed.
var goldenClock = time.Date(2026, 11, 29, 19, 5, 0, 0, time.UTC)

// TestGoldenAnswers pins what maison says, in every language it speaks, for the
// demo house: the house, each camera, an action, a refusal and the errors.
// Regenerate with: go test ./tools -run TestGoldenAnswers -update
func TestGoldenAnswers(t *testing.T) {
	t.Parallel()
	for _, lang := range voice.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			now := func() time.Time { return goldenClock }
			cs := newRig(t, rigOptions{house: demo.Options{Now: now, NoAITask: true}, lang: lang, now: now, prerender: true}).cs
			golden(t, cs, "answers."+string(lang)+".golden", []goldenCall{
				{"describe_house", nil},
				{"list_cameras", nil},
				{"describe_camera", map[string]any{"camera": "front door"}},
				{"describe_camera", map[string]any{"camera": "garage"}},
				{"describe_camera", map[string]any{"camera": "backyard"}},
				{"describe_camera", map[string]any{"camera": "porch"}},
				{"describe_camera", map[string]any{"camera": "attic"}},
				{"turn_on", map[string]any{"name": "Living Room Lamp"}},
				{"set_light", map[string]any{"name": "Kitchen Light", "brightness": 30}},
				{"turn_on", map[string]any{"name": "Shed Power"}},
				{"turn_off", map[string]any{"name": "Front Door Lock", "confirmation": "c-0000"}},
				{"turn_off", map[string]any{"area": "Entrance", "domain": "light"}},
				{"turn_off", map[string]any{"area": "Attic", "domain": []string{"light"}}},
				// Arguments the server cannot use.
				{"set_light", map[string]any{"name": "Kitchen Light", "brightness": 1e300}},
				{"set_light", map[string]any{"name": "Kitchen Light", "brightness": "high"}},
				{"set_light", map[string]any{"name": "Kitchen Light", "temperature": 150}},
				{"turn_on", map[string]any{"name": "Kitchen Light", "domain": 7}},
				{"turn_on", map[string]any{"light": "Kitchen Light"}},
				{"camera_snapshot", map[string]any{}},
				{"list_cameras", map[string]any{"camera": "garage"}},
				// Every camera at a glance, and a closer look.
				{"camera_overview", nil},
				{"camera_snapshot", map[string]any{"camera": "backyard", "region": "top right"}},
				{"camera_snapshot", map[string]any{"camera": "garage", "region": map[string]any{"x": 0.25, "y": 0.5, "width": 0.5, "height": 0.5}}},
				{"camera_snapshot", map[string]any{"camera": "backyard", "region": "the car"}},
				{"camera_snapshot", map[string]any{"camera": "backyard", "region": map[string]any{"x": 20, "y": 0, "width": 50, "height": 50}}},
			})
		})
	}
}

// TestGoldenAnswersWithAI pins the answers that Home Assistant's AI task
// shapes: the description in the answer language, and the snapshot's
// pointer to it.
func TestGoldenAnswersWithAI(t *testing.T) {
	t.Parallel()
	for _, lang := range voice.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			now := func() time.Time { return goldenClock }
			r := newRig(t, rigOptions{house: demo.Options{Now: now}, lang: lang, now: now, prerender: true, camera: func(c *camera.Config) {
				c.AI = c.Source.(*homeassistant.Client)
				c.AIBudget = time.Minute
			}})
			golden(t, r.cs, "answers.ai."+string(lang)+".golden", []goldenCall{
				{"describe_camera", map[string]any{"camera": "front door"}},
				{"describe_camera", map[string]any{"camera": "garage"}},
			})
			// The picture is left out of the golden: only its words.
			text, _ := call(t, r.cs, "camera_snapshot", map[string]any{"camera": "backyard"})
			if !strings.HasSuffix(text, pickLang(lang, "asking me to describe this camera puts it in words.", "me demander de décrire cette caméra la met en mots.", "fasse ich es in Worte.")) {
				t.Errorf("camera_snapshot should point to describe_camera: %q", text)
			}
			// An AI that answers in the other language is said to.
			r.house.SetAITaskAnswer(pickLang(lang, "Personne n'est à la porte et le paillasson est vide.", "Nobody is at the door and the doormat is empty.",
				"Personne n'est à la porte et le paillasson est vide."))
			text, _ = call(t, r.cs, "describe_camera", map[string]any{"camera": "front door"})
			if !strings.Contains(text, pickLang(lang, "answered in French “", "a répondu en anglais « ", "auf Französisch: „")) {
				t.Errorf("an answer in the other language is not said as such: %q", text)
			}
		})
	}
}

func pickLang(lang voice.Lang, en, fr, de string) string {
	switch lang {
	case voice.French:
		return fr
	case voice.German:
		return de
	}
	return en
}

// goldenCall is one call of a golden file.
type goldenCall struct {
	tool string
	args map[string]any
}

// golden makes the calls and compares what they say with testdata/name.
func golden(t *testing.T, cs *mcp.ClientSession, name string, calls []goldenCall) {
	t.Helper()
	var got strings.Builder
	for _, c := range calls {
		text, isErr := call(t, cs, c.tool, c.args)
		mark := "ok"
		if isErr {
			mark = "error"
		}
		got.WriteString(c.tool + " " + argLine(c.args) + " → " + mark + "\n" + text + "\n\n")
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("answers differ from %s (run with -update after checking):\n%s", path, got.String())
	}
}

func argLine(args map[string]any) string {
	var parts []string
	for _, k := range []string{"camera", "name", "area", "domain", "light", "brightness", "temperature", "hours", "since", "region", "confirmation"} {
		if v, ok := args[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}
