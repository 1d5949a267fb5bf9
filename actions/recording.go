package actions

import (
	"encoding/json"
	"fmt"
	"os"

	"maison/assist"
	"maison/homeassistant"
)

// Recording is a house as maison read it from a real Home Assistant, and
// calls with what Home Assistant's own matcher said they act on: the
// resolver is held to it where no Home Assistant runs
// (realhouse/resolve_test.go writes it).
type Recording struct {
	States   []homeassistant.State  `json:"states"`
	Registry homeassistant.Registry `json:"registry"`
	Live     []assist.Entity        `json:"live"`
	Cases    []RecordedCase         `json:"cases"`
}

// RecordedCase is one call and Home Assistant's answer: whether it acts,
// and on which entities.
type RecordedCase struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	Acts bool           `json:"acts"`
	IDs  []string       `json:"ids,omitempty"`
}

// ReadRecording reads a recording written by Write.
func ReadRecording(path string) (Recording, error) {
	var r Recording
	b, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("actions: reading the recording: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("actions: the recording %s: %w", path, err)
	}
	return r, nil
}

// Write writes the recording as indented JSON.
func (r Recording) Write(path string) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
