// Package listsize measures what a tools/list answer costs a model on every
// turn: its tools as compact JSON, in characters and in tokens by a
// documented approximation. maison's list and Home Assistant's own are
// measured the same way, whatever spacing each server writes.
package listsize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Size is what one tools/list costs.
type Size struct {
	Tools  int // how many tools
	Chars  int // characters (runes) of the tools array as compact JSON
	Tokens int // Tokens(the same text)
}

func (s Size) String() string {
	return fmt.Sprintf("%d tools, %d characters, about %d tokens", s.Tools, s.Chars, s.Tokens)
}

// Of measures a tools array as a server sent it. It is written again as Go
// writes JSON, keys sorted, without spaces, HTML's characters and any
// other character as they are, not escaped: Home Assistant's Python
// spacing and escapes and maison's count the same for the same text.
func Of(tools json.RawMessage) (Size, error) {
	d := json.NewDecoder(bytes.NewReader(tools))
	d.UseNumber()
	var list []any
	if err := d.Decode(&list); err != nil {
		return Size{}, fmt.Errorf("listsize: not a list of tools: %w", err)
	}
	var out bytes.Buffer
	e := json.NewEncoder(&out)
	e.SetEscapeHTML(false)
	if err := e.Encode(list); err != nil {
		return Size{}, fmt.Errorf("listsize: %w", err)
	}
	text := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	return Size{Tools: len(list), Chars: utf8.RuneCount(text), Tokens: Tokens(string(text))}, nil
}

// Tokens approximates how many tokens a byte-pair tokenizer of a current
// model (Claude's, or OpenAI's cl100k) makes of text, without its
// vocabulary: a run of letters counts one token for every four letters
// begun, a run of digits one for every three, and every other character
// that is not a space one (JSON's punctuation is mostly a token each). A
// space before a word is part of the word's token. It overestimates plain
// English a little (common words are one token whatever their length) and
// is meant to compare lists, not to bill them.
func Tokens(text string) int {
	n := 0
	run, kind := 0, 0 // letters (1) or digits (2) in the current run
	flush := func() {
		switch kind {
		case 1:
			n += (run + 3) / 4
		case 2:
			n += (run + 2) / 3
		}
		run, kind = 0, 0
	}
	for _, r := range text {
		k := 0
		switch {
		case unicode.IsLetter(r):
			k = 1
		case unicode.IsDigit(r):
			k = 2
		}
		if k != kind {
			flush()
		}
		switch {
		case k != 0:
			run++
			kind = k
		case !unicode.IsSpace(r):
			n++
		}
	}
	flush()
	return n
}
