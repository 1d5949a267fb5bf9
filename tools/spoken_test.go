package tools_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"maison/voice"
)

// quotedData is text read from Home Assistant as an answer carries it,
// between the quotation marks of any language maison speaks.
var quotedData = regexp.MustCompile(`“[^”]*”|« [^»]* »|„[^“]*“`)

// clockTime is a time of day as each language writes it.
var clockTime = map[voice.Lang]*regexp.Regexp{
	voice.English: regexp.MustCompile(`\b\d{1,2}(:\d{2})? [AP]M\b`),
	voice.French:  regexp.MustCompile(`\b\d{1,2}\x{a0}h(\x{a0}\d{2})?`),
	voice.German:  regexp.MustCompile(`\b\d{1,2}(:\d{2})? Uhr\b`),
}

// smallNumber is a whole number from 0 to 100 in digits, alone: the ear
// needs it in words.
var smallNumber = regexp.MustCompile(`(^|[^\d.,:])(\d{1,2}|100)($|[^\d.,:])`)

// englishWords are words an answer in another language never holds
// outside quoted data (not "was" or "light", German and Home
// Assistant's word for a kind of device).
var englishWords = regexp.MustCompile(`\b(the|is|are|were|and|of|to|with|not|this|that|has|have|been|from|nothing|camera|picture|door|lock|open|closed|again|ago|yesterday)\b`)

// TestGoldenAnswersAreSpokenInTheirLanguage holds every golden answer to
// its language: it reads as no other language; an answer in another language
// than English holds no English word outside quoted data; an answer that
// is not an error says its small numbers in words, clock times aside.
func TestGoldenAnswersAreSpokenInTheirLanguage(t *testing.T) {
	t.Parallel()
	for _, lang := range voice.Langs() {
		files, err := filepath.Glob(filepath.Join("testdata", "*."+string(lang)+".golden"))
		if err != nil || len(files) < 3 {
			t.Fatalf("%s: golden files %v, %v", lang, files, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, entry := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
				call, answer, _ := strings.Cut(entry, "\n")
				words := quotedData.ReplaceAllString(answer, "")
				if got, ok := voice.Language(words); ok && got != lang {
					t.Errorf("%s %s: does not read as %s: %q", f, call, lang, answer)
				}
				if lang != voice.English {
					if m := englishWords.FindString(words); m != "" {
						t.Errorf("%s %s: English %q left in: %q", f, call, m, answer)
					}
				}
				if strings.HasSuffix(call, "→ ok") {
					if m := smallNumber.FindString(clockTime[lang].ReplaceAllString(words, "")); m != "" {
						t.Errorf("%s %s: %q is said in digits: %q", f, call, strings.TrimSpace(m), answer)
					}
				}
			}
		}
	}
}
