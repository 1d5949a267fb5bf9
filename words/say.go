package words

import (
	"strings"

	"maison/voice"
)

// Key names one sentence, or one piece of a sentence, in every language's
// table of words (en.go, fr.go): its one home in each language. A text may
// hold placeholders, {name}, each filled with a value the sentence's
// function gives under that name; {name|f} fills it through the language's
// filter f (French elision: « de {action|de} »).
type Key string

// In is k's text in l as it is written: a text without placeholders, or one
// whose placeholders a reader other than maison fills (the camera panel's).
func (k Key) In(l voice.Lang) string { return text(l, k) }

// table is one language's words: the text of every key, how the language
// chooses a plural form, and the filters its texts may put a value through.
type table struct {
	texts map[Key]string
	// plural is the form of a count of n, a key's suffix: "one" or
	// "other" (k#one, k#other), as CLDR names them.
	plural  func(n int) string
	filters map[string]func(string) string
}

// tables are the languages' words; a language maison does not speak
// speaks English.
var tables = map[voice.Lang]*table{
	voice.English: &english,
	voice.French:  &french,
	voice.German:  &german,
}

func tableOf(l voice.Lang) *table {
	if t, ok := tables[l]; ok {
		return t
	}
	return &english
}

// text is k's text in l, or in English when l's table lacks it (the tests
// see that none does).
func text(l voice.Lang, k Key) string {
	if s, ok := tableOf(l).texts[k]; ok {
		return s
	}
	return english.texts[k]
}

// say fills k's text in l with args, given as name, value, name, value.
func say(l voice.Lang, k Key, args ...string) string {
	return fill(tableOf(l), text(l, k), args)
}

// sayN is say for a sentence whose words depend on a count n: the text of
// k's form for n in l (k#one or k#other).
func sayN(l voice.Lang, k Key, n int, args ...string) string {
	t := tableOf(l)
	return fill(t, text(l, k+"#"+Key(t.plural(n))), args)
}

// fill puts each value of args in the placeholder of its name, through the
// filter the placeholder names. Braces that do not hold the name of a
// value given are left as they are.
func fill(t *table, s string, args []string) string {
	if !strings.Contains(s, "{") || len(args) == 0 {
		return s
	}
	var b strings.Builder
	n := len(s)
	for i := 1; i < len(args); i += 2 {
		n += len(args[i])
	}
	b.Grow(n)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name, filter, _ := strings.Cut(s[i+1:i+j], "|")
		v, ok := value(args, name)
		if !ok {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		if f := t.filters[filter]; f != nil {
			v = f(v)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

func value(args []string, name string) (string, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == name {
			return args[i+1], true
		}
	}
	return "", false
}
