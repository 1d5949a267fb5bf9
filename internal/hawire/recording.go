package hawire

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Recording is what a real Home Assistant answered, as kept in the repository.
type Recording struct {
	From    string   `json:"from"` // "Home Assistant 2026.11.0"
	Places  Places   `json:"places"`
	Answers []Answer `json:"answers"`
}

// RecordingPath is where the real Home Assistant's answers are kept, from
// the repository's root.
const RecordingPath = "demo/testdata/realha/answers.json"

// Load reads a recording.
func Load(path string) (Recording, error) {
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		return Recording{}, fmt.Errorf("reading the recording: %w", err)
	}
	var r Recording
	if err := json.Unmarshal(b, &r); err != nil {
		return Recording{}, fmt.Errorf("reading the recording %s: %w", path, err)
	}
	return r, nil
}

// Save writes a recording, indented, for review in a diff.
func (r Recording) Save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("writing the recording: %w", err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Compare lists how the demo's answers got depart from the recording want,
// exchange by exchange: Exact values must be equal, shapes must conform,
// text lines must be among the recorded ones.
func Compare(got, want []Answer) []string { return compare(got, want, false) }

// CompareLive lists how a real Home Assistant's answers got depart from its
// recording want: Exact values and tools must be equal and the fields the
// recording always holds must be there; fields, value kinds and live context
// lines that vary with the house's state are not compared.
func CompareLive(got, want []Answer) []string { return compare(got, want, true) }

func compare(got, want []Answer, live bool) []string {
	byName := map[string]Answer{}
	for _, a := range want {
		byName[a.Exchange] = a
	}
	var diffs []string
	for _, g := range got {
		w, ok := byName[g.Exchange]
		if !ok {
			diffs = append(diffs, g.Exchange+": not in the recording (record again)")
			continue
		}
		if w.Exact != nil || g.Exact != nil {
			if !SameExact(g.Exact, w.Exact) {
				gb, _ := json.Marshal(g.Exact)
				wb, _ := json.Marshal(w.Exact)
				diffs = append(diffs, fmt.Sprintf("%s: answered %s, Home Assistant %s", g.Exchange, clip(string(gb), 2000), clip(string(wb), 2000)))
			}
		}
		for k, gv := range g.Each {
			wv, ok := w.Each[k]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s: %s is not among Home Assistant's", g.Exchange, k))
			case !SameExact(gv, wv):
				gb, _ := json.Marshal(gv)
				wb, _ := json.Marshal(wv)
				diffs = append(diffs, fmt.Sprintf("%s: %s is %s, Home Assistant's is %s", g.Exchange, k, clip(string(gb), 1500), clip(string(wb), 1500)))
			}
		}
		var shape []string
		conforms("", roundTrip(g.Shape), roundTrip(w.Shape), live, &shape)
		for _, d := range shape {
			diffs = append(diffs, g.Exchange+": "+d)
		}
		if live {
			continue
		}
		for _, l := range Missing(g.Lines, w.Lines) {
			diffs = append(diffs, fmt.Sprintf("%s: a line Home Assistant never writes: %q", g.Exchange, l))
		}
	}
	return diffs
}

// ToolsListExchange names the Assist endpoint's tools/list among the answers.
const ToolsListExchange = "assist: tools/list"

// AssistTools is the Assist endpoint's tools/list as answers hold it: each
// tool whole, in the order of their names.
func AssistTools(answers []Answer) ([]map[string]any, error) {
	for _, a := range answers {
		if a.Exchange != ToolsListExchange {
			continue
		}
		var out []map[string]any
		for _, name := range slices.Sorted(maps.Keys(a.Each)) {
			t, ok := a.Each[name].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("the tool %s is not recorded whole", name)
			}
			out = append(out, t)
		}
		return out, nil
	}
	return nil, fmt.Errorf("no %q among the answers", ToolsListExchange)
}
