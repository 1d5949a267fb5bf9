package tools_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maison/demo"
	"maison/voice"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenClock is the demo house's clock and maison's, so every "ago" is fixed.
var goldenClock = time.Date(2026, 11, 29, 19, 5, 0, 0, time.UTC)

// TestGoldenAnswers pins what maison says, in English and in French, for the
// demo house: the house, each camera, an action, a refusal and the errors.
// Regenerate with: go test ./tools -run TestGoldenAnswers -update
func TestGoldenAnswers(t *testing.T) {
	for _, lang := range []voice.Lang{voice.English, voice.French} {
		t.Run(string(lang), func(t *testing.T) {
			now := func() time.Time { return goldenClock }
			cs := newRig(t, rigOptions{house: demo.Options{Now: now, NoAITask: true}, lang: lang, now: now}).cs

			var got strings.Builder
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
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
			} {
				text, isErr := call(t, cs, c.tool, c.args)
				mark := "ok"
				if isErr {
					mark = "error"
				}
				got.WriteString(c.tool + " " + argLine(c.args) + " → " + mark + "\n" + text + "\n\n")
			}
			path := filepath.Join("testdata", "answers."+string(lang)+".golden")
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
				t.Errorf("answers in %s differ from %s (run with -update after checking):\n%s", lang, path, got.String())
			}
		})
	}
}

func argLine(args map[string]any) string {
	var parts []string
	for _, k := range []string{"camera", "name", "brightness", "confirmation"} {
		if v, ok := args[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}
