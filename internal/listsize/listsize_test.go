package listsize

import (
	"encoding/json"
	"testing"
)

// The same tools count the same whatever spacing and escaping the server
// wrote: Home Assistant's Python spacing and escapes, Go's compact JSON and
// its own escapes.
func TestTheSameListCountsTheSameFromEitherServer(t *testing.T) {
	t.Parallel()
	python := json.RawMessage(`[{"name": "a", "description": "Turns <on> a light & more \u201cquoted\u201d", "n": 100}]`)
	goJSON := json.RawMessage(`[{"description":"Turns \u003con\u003e a light \u0026 more “quoted”","n":100,"name":"a"}]`)
	a, err := Of(python)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Of(goJSON)
	if err != nil {
		t.Fatal(err)
	}
	want := len([]rune(`[{"description":"Turns <on> a light & more “quoted”","n":100,"name":"a"}]`))
	if a != b || b.Tools != 1 || b.Chars != want {
		t.Errorf("python %v, go %v, want %d characters", a, b, want)
	}
	if _, err := Of(json.RawMessage(`{"tools":[]}`)); err == nil {
		t.Error("an object was measured as a list")
	}
}

// Tokens counts a word of up to four letters as one, longer words by
// fours, numbers by threes and every mark as one.
func TestTokensApproximation(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		"":                      0,
		"the":                   1,
		"light":                 2,
		`{"a":1}`:               7, // five marks, a word, a number
		"turn on the lights":    5,
		"12345":                 2,
		"kitchen_light.turn_on": 9,
	} {
		if got := Tokens(text); got != want {
			t.Errorf("Tokens(%q) = %d, want %d", text, got, want)
		}
	}
}
